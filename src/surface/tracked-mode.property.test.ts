/**
 * Property test (fast-check, fixed seed): the tracked mode (`hookTools: 'tracked'`, the default)
 * gives exactly the outcome of the plain mutable mode (`'mutable'`) for random edit scripts, run
 * partly as a hook (before the early check) and partly as a late stage (before the final check):
 * the same refusal (code, check, field, tool, index, values) or dispatch, the same settlements,
 * the same surface sent. The edits extend frozen-mode.property.test.ts's model with what write
 * tracking must see through: fields set to equal or other values, schemas edited in place or
 * moved from one tool into another, references kept by a hook and edited later (a schema, a tool,
 * a tool of another request), getters, a replaced prototype, freezing, and the array edited in
 * place (reverse, sort, splice, push, pop, copyWithin, a length write, a position reassigned).
 *
 * A getter may also have a side effect: the first read of a description writes another tool or
 * reverses the array, whoever reads it (the hook, a late stage, or a check: the tracked check
 * must then see what the mutable mode's position loop sees).
 *
 * The mutable run is also judged on its own, never from the stage: it passes each check exactly
 * when its logical surface then, as canonical JSON (keys sorted, `undefined` members absent), is
 * the baseline's; a hook that throws (a write to an object it froze) is HOOK_FAILED. The tracked
 * run is never read by the test before the stage has checked it (reading a schema through a
 * proxy marks its tool), so its fast paths are exercised as a host would: the test counts how
 * many final checks found the surface untouched, only some tools written, or the array written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trackerOf } from './internal/preparation.ts';
import type { ModelRequest } from './model-request.ts';
import type { HookToolsMode } from './stage-types.ts';
import type { SurfaceTool } from './surface-tool.ts';
import { CATALOG, researchFacts, researchGeneration, reserved } from './testing/fixtures.ts';
import { recordingModel } from './testing/generation.ts';
import { ToolSurfaceStage } from './tool-surface-stage.ts';

const PARAMS = { seed: 20261202, numRuns: 400 };
const FACTS = researchFacts(researchGeneration());

type Field = 'name' | 'description';
type Edit =
  | { kind: 'setField'; at: number; field: Field; same: boolean }
  | {
      kind:
        | 'schemaTop'
        | 'schemaNested'
        | 'keepSchema'
        | 'keepTool'
        | 'freezeTool'
        | 'protoDelete'
        | 'spliceRemove'
        | 'spliceInsertCopy'
        | 'assignSelf'
        | 'foreign';
      at: number;
    }
  | { kind: 'getter'; at: number; same: boolean }
  | { kind: 'sideGetter'; at: number; to: number; reverse: boolean }
  | { kind: 'moveSchema'; at: number; to: number }
  | { kind: 'swapInPlace'; at: number; to: number }
  | { kind: 'editKeptSchema' | 'editKeptTool' | 'editForeign'; which: number }
  | {
      kind:
        | 'reverse'
        | 'sortByName'
        | 'sortReversed'
        | 'popPush'
        | 'truncate'
        | 'copyWithin'
        | 'newArray'
        | 'replaceEqual'
        | 'freezeArray'
        | 'unshiftPop';
    };

const at = fc.nat({ max: 7 });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('setField' as const),
    at,
    field: fc.constantFrom('name' as const, 'description' as const),
    same: fc.boolean(),
  }),
  fc.record({
    kind: fc.constantFrom(
      'schemaTop' as const,
      'schemaNested' as const,
      'keepSchema' as const,
      'keepTool' as const,
      'freezeTool' as const,
      'protoDelete' as const,
      'spliceRemove' as const,
      'spliceInsertCopy' as const,
      'assignSelf' as const,
      'foreign' as const,
    ),
    at,
  }),
  fc.record({ kind: fc.constant('getter' as const), at, same: fc.boolean() }),
  fc.record({ kind: fc.constant('sideGetter' as const), at, to: at, reverse: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('moveSchema' as const, 'swapInPlace' as const), at, to: at }),
  fc.record({
    kind: fc.constantFrom('editKeptSchema' as const, 'editKeptTool' as const, 'editForeign' as const),
    which: at,
  }),
  fc.record({
    kind: fc.constantFrom(
      'reverse' as const,
      'sortByName' as const,
      'sortReversed' as const,
      'popPush' as const,
      'truncate' as const,
      'copyWithin' as const,
      'newArray' as const,
      'replaceEqual' as const,
      'freezeArray' as const,
      'unshiftPop' as const,
    ),
  }),
);
/** Most scripts keep to a few edits, so that many leave the surface equal (reads, restores, edits undone). */
const script = fc.record({ hook: fc.array(edit, { maxLength: 4 }), late: fc.array(edit, { maxLength: 3 }) });

/** References a script keeps between its steps (and from its hook into its late stage). */
interface Kept {
  schemas: Record<string, unknown>[];
  tools: SurfaceTool[];
  /** The tools of another request of the same mode (handed out by that request's stage). */
  foreign: SurfaceTool[];
}

function apply(request: ModelRequest, step: Edit, kept: Kept): void {
  const tools = request.tools;
  const n = tools.length;
  switch (step.kind) {
    case 'reverse':
      tools.reverse();
      return;
    case 'sortByName':
      tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return;
    case 'sortReversed':
      tools.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
      return;
    case 'popPush':
      if (n > 0) tools.push(tools.pop() as SurfaceTool);
      return;
    case 'unshiftPop':
      if (n > 1) tools.unshift(tools.pop() as SurfaceTool);
      return;
    case 'truncate':
      if (n > 0) tools.length = n - 1;
      return;
    case 'copyWithin':
      tools.copyWithin(0, 1);
      return;
    case 'newArray':
      request.tools = [...tools];
      return;
    case 'replaceEqual':
      request.tools = tools.map((tool) => ({
        inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)) as SurfaceTool['inputSchema'],
        description: `${tool.description}`,
        name: tool.name,
      }));
      return;
    case 'freezeArray':
      Object.freeze(tools);
      return;
    case 'editKeptSchema': {
      const schema = kept.schemas[step.which % Math.max(1, kept.schemas.length)];
      if (schema !== undefined) schema['x-kept'] = step.which;
      return;
    }
    case 'editKeptTool': {
      const tool = kept.tools[step.which % Math.max(1, kept.tools.length)];
      if (tool !== undefined) tool.description = `${tool.description} (kept)`;
      return;
    }
    case 'editForeign': {
      const tool = kept.foreign[step.which % kept.foreign.length] as SurfaceTool;
      tool.description = `${tool.description} (foreign)`;
      return;
    }
    default:
      break;
  }
  if (n === 0) return;
  const i = step.at % n;
  const tool = tools[i] as SurfaceTool;
  if (tool === undefined || tool === null || typeof tool !== 'object') return;
  switch (step.kind) {
    case 'setField':
      tool[step.field] = step.same ? `${tool[step.field]}` : `${tool[step.field]} (edited)`;
      return;
    case 'schemaTop':
      tool.inputSchema['x-top'] = i;
      return;
    case 'schemaNested': {
      const nested = Object.values(tool.inputSchema).find((member) => typeof member === 'object' && member !== null) as
        | Record<string, unknown>
        | undefined;
      if (nested !== undefined) nested['x-nested'] = i;
      return;
    }
    case 'keepSchema':
      kept.schemas.push(tool.inputSchema);
      return;
    case 'keepTool':
      kept.tools.push(tool);
      return;
    case 'freezeTool':
      Object.freeze(tool);
      return;
    case 'protoDelete': {
      Object.setPrototypeOf(tool, { description: 'inherited' });
      delete (tool as Partial<SurfaceTool>).description;
      return;
    }
    case 'spliceRemove':
      tools.splice(i, 1);
      return;
    case 'spliceInsertCopy':
      tools.splice(i, 0, {
        name: tool.name,
        description: tool.description,
        inputSchema: structuredClone(tool.inputSchema),
      });
      return;
    case 'assignSelf':
      tools[i] = tools[i] as SurfaceTool;
      return;
    case 'foreign':
      if (i < kept.foreign.length) tools[i] = kept.foreign[i] as SurfaceTool;
      return;
    case 'getter': {
      const value = step.same ? tool.description : 'from a getter';
      Object.defineProperty(tool, 'description', { get: () => value, enumerable: true, configurable: true });
      return;
    }
    case 'sideGetter': {
      // The first read of this description (by the hook, a late stage or a check) writes another
      // tool or reverses the array.
      const value = tool.description;
      const other = tools[step.to % n] as SurfaceTool;
      let fired = false;
      Object.defineProperty(tool, 'description', {
        get: () => {
          if (!fired) {
            fired = true;
            if (step.reverse) tools.reverse();
            else if (other !== undefined && other !== null && !Object.isFrozen(other))
              other.description = `${String(other.description)} (by a getter)`;
          }
          return value;
        },
        enumerable: true,
        configurable: true,
      });
      return;
    }
    case 'moveSchema': {
      const target = tools[step.to % n] as SurfaceTool;
      target.inputSchema = tool.inputSchema;
      return;
    }
    case 'swapInPlace': {
      const j = step.to % n;
      [tools[i], tools[j]] = [tools[j] as SurfaceTool, tools[i] as SurfaceTool];
      return;
    }
  }
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

/** The logical surface of what a request holds; '!' when it cannot be read as tools. */
function logical(tools: unknown): string {
  if (!Array.isArray(tools)) return '!';
  try {
    return canonical(
      tools.map((tool: SurfaceTool | undefined) =>
        tool === undefined || tool === null
          ? null
          : { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
      ),
    );
  } catch {
    return '!';
  }
}

const BASELINE = logical(
  [0, 2, 3, 5].map((index) => {
    const source = CATALOG[index] as unknown as SurfaceTool;
    return { name: source.name, description: source.description, inputSchema: source.inputSchema };
  }),
);

/** The tools another request of `mode` hands its hooks (proxies of that request in tracked mode). */
async function foreignTools(mode: HookToolsMode): Promise<SurfaceTool[]> {
  let tools: SurfaceTool[] = [];
  const stage = new ToolSurfaceStage({
    hooks: [
      {
        name: 'keep',
        transform: (request) => {
          tools = [...request.tools];
        },
      },
    ],
    hookTools: mode,
  });
  const prepared = await stage.prepare({ owner: reserved('other-request').owner, facts: FACTS, context: null });
  if (!prepared.ok) throw new Error('the other request was refused');
  return tools;
}

interface Outcome {
  result: unknown;
  settlements: unknown[];
  sent: unknown[];
  /** Mutable mode: the logical surface after the hook and after the late stage; whether the hook threw. */
  early?: string;
  final?: string;
  hookThrew?: boolean;
  /** Tracked mode: what the tracker held at the final check. */
  path?: 'untouched' | 'tools-written' | 'array-written' | 'replaced';
}

/**
 * Runs the script in `mode`; `observe` (mutable mode only) also records the logical surface after
 * the hook and after the late stage, which reads every description (so fires a side-effect
 * getter early: such scripts are compared unobserved and not judged).
 */
async function outcome(
  mode: HookToolsMode,
  steps: { hook: readonly Edit[]; late: readonly Edit[] },
  observe = false,
): Promise<Outcome> {
  const kept: Kept = { schemas: [], tools: [], foreign: await foreignTools(mode) };
  let early: string | undefined;
  let hookThrew = false;
  const hooks =
    steps.hook.length === 0
      ? []
      : [
          {
            name: 'script',
            transform: (request: ModelRequest) => {
              try {
                for (const step of steps.hook) apply(request, step, kept);
              } catch (error) {
                hookThrew = true;
                throw error;
              } finally {
                if (observe) early = logical(request.tools);
              }
            },
          },
        ];
  const stage = new ToolSurfaceStage({ hooks, hookTools: mode });
  const { ledger, owner } = reserved();
  const model = recordingModel();
  const settlements = (): unknown[] => ledger.entries().map((entry) => entry.settlement);
  const prepared = await stage.prepare({ owner, facts: FACTS, context: null });
  if (!prepared.ok) return { result: prepared.rejection, settlements: settlements(), sent: [], early, hookThrew };
  try {
    for (const step of steps.late) apply(prepared.request, step, kept);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error; // a write to a frozen object: the late stage stops there
  }
  const final = observe ? logical(prepared.request.tools) : undefined;
  const tracker = trackerOf(prepared.preparation);
  const path =
    tracker === undefined
      ? undefined
      : prepared.request.tools !== tracker.tools
        ? ('replaced' as const)
        : tracker.untouched
          ? ('untouched' as const)
          : tracker.arrayIntact
            ? ('tools-written' as const)
            : ('array-written' as const);
  const dispatched = await stage.dispatch(prepared.preparation, prepared.request, model.send);
  return {
    result: dispatched.ok ? 'dispatched' : dispatched.rejection,
    settlements: settlements(),
    sent: model.sent.map((each) => logical(each.request.tools)),
    early,
    final,
    hookThrew,
    path,
  };
}

/** The mutable run judged from its own surfaces (see the file header). */
function expectJudged(got: Outcome): void {
  const result = got.result as { code?: string; check?: string };
  if (got.hookThrew) expect(result.code).toBe('HOOK_FAILED');
  else if (got.early !== undefined && got.early !== BASELINE)
    expect([result.code, result.check]).toEqual(['SURFACE_MISMATCH', 'early']);
  else if (got.final !== BASELINE) expect([result.code, result.check]).toEqual(['SURFACE_MISMATCH', 'final']);
  else expect(got.result).toBe('dispatched');
  if (got.result === 'dispatched') expect(got.sent).toEqual([BASELINE]);
  else expect(got.sent).toEqual([]);
  expect(got.settlements).toHaveLength(1);
}

describe("tracked mode gives exactly the plain mutable mode's outcome", () => {
  it('for random edit scripts in a hook and a late stage: the same refusal or dispatch, settlements and surface sent', async () => {
    const paths = new Map<string, number>();
    const results = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(script, async (steps) => {
        if (![...steps.hook, ...steps.late].some((step) => step.kind === 'sideGetter'))
          expectJudged(await outcome('mutable', steps, true));
        const plain = await outcome('mutable', steps);
        const tracked = await outcome('tracked', steps);
        expect(tracked.result).toEqual(plain.result);
        expect(tracked.settlements).toEqual(plain.settlements);
        expect(tracked.sent).toEqual(plain.sent);
        if (tracked.path !== undefined) paths.set(tracked.path, (paths.get(tracked.path) ?? 0) + 1);
        const code =
          typeof tracked.result === 'string'
            ? tracked.result
            : `${(tracked.result as { code: string }).code}/${(tracked.result as { check?: string }).check ?? '-'}`;
        results.set(code, (results.get(code) ?? 0) + 1);
      }),
      PARAMS,
    );
    // The generator reaches every path of the tracked check and every kind of outcome (under this seed).
    expect([...paths.keys()].sort()).toEqual(['array-written', 'replaced', 'tools-written', 'untouched']);
    expect([...results.keys()].sort()).toEqual([
      'HOOK_FAILED/-',
      'SURFACE_MISMATCH/early',
      'SURFACE_MISMATCH/final',
      'dispatched',
    ]);
  });
});
