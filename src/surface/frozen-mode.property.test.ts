/**
 * Property test (fast-check, fixed seed) of the identity shortcut of the frozen mode: random
 * edit scripts — a tool replaced (by an equal or a changed object), an in-place edit attempt, a
 * splice on a copy, a reorder into a new array, a frozen tool of another request or turn put at
 * a position — run as a hook (the early check) or as a late stage (the final check), in both
 * modes. The verdict the stage must give is worked out here from the tools the script leaves,
 * never from the stage: the request passes exactly when its logical surface, as canonical JSON
 * (keys sorted, `undefined` members absent), is the baseline's.
 *
 * 1. Mutable mode: dispatched iff the surface is unchanged (a hook that tries to edit a foreign
 *    frozen tool it put in fails, HOOK_FAILED); the model receives the baseline.
 * 2. Frozen mode, as a hook: an in-place attempt on a frozen object is HOOK_FAILED, settled once;
 *    otherwise dispatched iff unchanged, and a refusal is the very one mutable mode gives.
 * 3. Frozen mode, as a late stage (its in-place attempts throw in its own code and change
 *    nothing): dispatched iff unchanged, and a refusal is mutable mode's for the same tools.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from './model-request.ts';
import type { SurfaceTool } from './surface-tool.ts';
import { CATALOG, GRANTED, researchFacts, researchGeneration, reserved } from './testing/fixtures.ts';
import { factsOf, generationOf, recordingModel } from './testing/generation.ts';
import { ToolSurfaceStage } from './tool-surface-stage.ts';
import type { HookToolsMode } from './stage-types.ts';

const PARAMS = { seed: 20261202, numRuns: 300 };
const FACTS = researchFacts(researchGeneration());
/** Generation 2: read_page (position 3) has another description; the other tools are generation 1's. */
const FACTS_2 = factsOf(
  generationOf(
    CATALOG.map((tool) =>
      tool.name === 'read_page' ? { ...tool, description: 'Read one page. Changed in generation 2.' } : tool,
    ),
    2,
  ),
  GRANTED,
);
const N = 4;

type Edit =
  | { kind: 'replaceEqual' | 'newArray'; at: number }
  | { kind: 'replaceChanged' | 'inPlace'; at: number; field: 'name' | 'description' | 'schema' }
  | { kind: 'inPlaceRestore'; at: number }
  | { kind: 'spliceCopy'; at: number; insert: boolean }
  | { kind: 'reorder'; at: number; other: number }
  | { kind: 'foreign'; at: number; from: 'request' | 'turn' };

const at = fc.nat({ max: 7 });
const field = fc.constantFrom('name' as const, 'description' as const, 'schema' as const);
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constantFrom('replaceEqual' as const, 'newArray' as const), at }),
  fc.record({ kind: fc.constantFrom('replaceChanged' as const, 'inPlace' as const), at, field }),
  fc.record({ kind: fc.constant('inPlaceRestore' as const), at }),
  fc.record({ kind: fc.constant('spliceCopy' as const), at, insert: fc.boolean() }),
  fc.record({ kind: fc.constant('reorder' as const), at, other: at }),
  fc.record({ kind: fc.constant('foreign' as const), at, from: fc.constantFrom('request' as const, 'turn' as const) }),
);
const script = fc.array(edit, { minLength: 1, maxLength: 4 });

/** The frozen copies issued to two other requests: one of the same facts, one of generation 2 (another turn). */
const foreign = { request: await issuedCopy(FACTS, 'other-request'), turn: await issuedCopy(FACTS_2, 'other-turn') };

async function issuedCopy(facts: typeof FACTS, requestId: string): Promise<SurfaceTool[]> {
  let tools: SurfaceTool[] = [];
  const stage = new ToolSurfaceStage({
    hooks: [
      {
        name: 'keep',
        transform: (request) => {
          tools = request.tools;
        },
      },
    ],
    hookTools: 'frozen',
  });
  const prepared = await stage.prepare({ owner: reserved(requestId).owner, facts, context: null });
  if (!prepared.ok) throw new Error('the foreign request was refused');
  return tools;
}

/** JSON with object keys sorted at every level; `undefined` members left out, as JSON does. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (typeof member !== 'object' || member === null || Array.isArray(member)) return member;
    return Object.fromEntries(
      Object.keys(member)
        .sort()
        .map((key) => [key, (member as Record<string, unknown>)[key]]),
    );
  });
}

function logical(tools: readonly SurfaceTool[]): string {
  return canonical(
    tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
  );
}

/** Applies `step` to the request; an in-place attempt on a frozen object throws (and is reported first). */
function apply(request: ModelRequest, step: Edit, onFrozenAttempt: () => void): void {
  const tools = request.tools;
  const n = tools.length;
  if (n === 0) return;
  const i = step.at % n;
  const tool = tools[i] as SurfaceTool;
  switch (step.kind) {
    case 'newArray':
      request.tools = [...tools];
      return;
    case 'replaceEqual':
      request.tools = tools.map((each, index) =>
        index === i
          ? {
              inputSchema: JSON.parse(JSON.stringify(each.inputSchema)) as SurfaceTool['inputSchema'],
              description: [...each.description].join(''),
              name: each.name,
            }
          : each,
      );
      return;
    case 'replaceChanged':
      request.tools = tools.map((each, index) => (index === i ? changed(each, step.field) : each));
      return;
    case 'inPlace': {
      const target = step.field === 'schema' ? tool.inputSchema : tool;
      if (Object.isFrozen(target)) onFrozenAttempt();
      if (step.field === 'schema') tool.inputSchema['\u0001edited'] = 1;
      else tool[step.field] = `${tool[step.field]} (edited)`;
      return;
    }
    case 'inPlaceRestore': {
      if (Object.isFrozen(tool)) onFrozenAttempt();
      const before = tool.description;
      tool.description = 'edited';
      tool.description = before;
      return;
    }
    case 'spliceCopy': {
      const copy = [...tools];
      if (step.insert) copy.splice(i, 0, { name: 'zz_added', description: 'added', inputSchema: { type: 'object' } });
      else copy.splice(i, 1);
      request.tools = copy;
      return;
    }
    case 'reorder': {
      const j = step.other % n;
      const copy = [...tools];
      [copy[i], copy[j]] = [copy[j] as SurfaceTool, copy[i] as SurfaceTool];
      request.tools = copy;
      return;
    }
    case 'foreign': {
      const source = foreign[step.from];
      request.tools = tools.map((each, index) =>
        index === i && i < source.length ? (source[i] as SurfaceTool) : each,
      );
      return;
    }
  }
}

function changed(tool: SurfaceTool, which: 'name' | 'description' | 'schema'): SurfaceTool {
  if (which === 'schema') return { ...tool, inputSchema: { ...tool.inputSchema, '\u0001edited': 1 } };
  return { ...tool, [which]: `${tool[which]} (edited)` };
}

interface Outcome {
  /** What the stage returned from the refusing call, or 'dispatched'. */
  result: unknown;
  settlements: unknown[];
  sent: unknown[];
  /** The logical surface the request held when it was checked (canonical JSON). */
  surface: string;
  frozenAttempt: boolean;
}

/** Runs `steps` as a hook (`where` early) or as a late stage (final) in `mode`. */
async function outcome(mode: HookToolsMode, steps: readonly Edit[], where: 'hook' | 'late'): Promise<Outcome> {
  let frozenAttempt = false;
  let checked: SurfaceTool[] = [];
  const run = (request: ModelRequest): void => {
    for (const step of steps)
      apply(request, step, () => {
        frozenAttempt = true;
      });
  };
  const hooks =
    where === 'hook'
      ? [
          {
            name: 'script',
            transform: (request: ModelRequest) => {
              try {
                run(request);
              } finally {
                checked = request.tools;
              }
            },
          },
        ]
      : [];
  const stage = new ToolSurfaceStage({ hooks, hookTools: mode });
  const { ledger, owner } = reserved();
  const model = recordingModel();
  const settled = (): unknown[] => ledger.entries().map((entry) => entry.settlement);
  const prepared = await stage.prepare({ owner, facts: FACTS, context: null });
  if (!prepared.ok)
    return { result: prepared, settlements: settled(), sent: model.sent, surface: logical(checked), frozenAttempt };
  if (where === 'late') {
    try {
      run(prepared.request);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error; // a frozen object refused the edit; the script stops there
    }
    checked = prepared.request.tools;
  }
  const dispatched = await stage.dispatch(prepared.preparation, prepared.request, model.send);
  return {
    result: dispatched.ok ? 'dispatched' : dispatched,
    settlements: settled(),
    sent: model.sent.map((each) => each.request.tools),
    surface: logical(checked),
    frozenAttempt,
  };
}

const BASELINE = logical(
  CATALOG.filter((tool) =>
    ['market__search_instruments', 'market__get_instrument_profile', 'market__web_search', 'read_page'].includes(
      String(tool.name),
    ),
  ) as unknown as SurfaceTool[],
);

/**
 * The verdict for `got`: a hook that tried to edit a frozen object (in mutable mode, a foreign
 * frozen tool it put in; in frozen mode, any issued object) failed, HOOK_FAILED; otherwise it
 * passes exactly when the surface is unchanged. A late stage's failed attempt changed nothing.
 */
function expectVerdict(got: Outcome, where: 'hook' | 'late'): void {
  if (got.frozenAttempt && where === 'hook') {
    const rejection = { code: 'HOOK_FAILED', requestId: 'turn-1', hook: 'script', index: 0 };
    expect(got.result).toEqual({ ok: false, rejection });
    expect(got.settlements).toEqual([{ kind: 'preDispatchRejected', rejection }]);
    expect(got.sent).toEqual([]);
  } else if (got.surface === BASELINE) {
    expect(got.result).toBe('dispatched');
    expect(got.settlements.map((each) => (each as { kind: string }).kind)).toEqual(['dispatched']);
    expect(got.sent.map((tools) => logical(tools as SurfaceTool[]))).toEqual([BASELINE]);
  } else {
    expect((got.result as { ok: boolean }).ok).toBe(false);
    const rejection = (got.result as { rejection: unknown }).rejection;
    expect(rejection).toMatchObject({ code: 'SURFACE_MISMATCH' });
    expect(got.settlements).toEqual([{ kind: 'preDispatchRejected', rejection }]);
    expect(got.sent).toEqual([]);
  }
}

describe('frozen mode: the identity shortcut never passes a changed surface', () => {
  it('the baseline has the four tools this file assumes', () => {
    expect(JSON.parse(BASELINE)).toHaveLength(N);
  });

  it('1. mutable mode: dispatched iff the surface is unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(script, fc.constantFrom('hook' as const, 'late' as const), async (steps, where) => {
        expectVerdict(await outcome('mutable', steps, where), where);
      }),
      PARAMS,
    );
  });

  it('2. frozen mode, as a hook: an in-place attempt is HOOK_FAILED settled once, else the verdict and refusal of mutable mode', async () => {
    let failed = 0;
    let passed = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(script, async (steps) => {
        const got = await outcome('frozen', steps, 'hook');
        expectVerdict(got, 'hook');
        if (got.frozenAttempt) {
          failed += 1;
          return;
        }
        if (got.result === 'dispatched') passed += 1;
        else refused += 1;
        expect(got.result).toEqual((await outcome('mutable', steps, 'hook')).result);
      }),
      PARAMS,
    );
    // The generator reaches all three verdicts (counts under this seed).
    expect([failed > 0, passed > 0, refused > 0]).toEqual([true, true, true]);
  });

  it("3. frozen mode, as a late stage: dispatched iff unchanged; a refusal is mutable mode's for the same tools", async () => {
    await fc.assert(
      fc.asyncProperty(script, async (steps) => {
        const got = await outcome('frozen', steps, 'late');
        expectVerdict(got, 'late');
        if (!got.frozenAttempt) expect(got.result).toEqual((await outcome('mutable', steps, 'late')).result);
      }),
      PARAMS,
    );
  });
});
