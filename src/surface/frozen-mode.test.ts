/**
 * The stage's frozen mode (`hookTools: 'frozen'`): hooks receive a deep-frozen copy made for
 * their request; an in-place edit fails the hook (HOOK_FAILED, settled once); both checks accept
 * that copy and its tools left in place by identity, and compare in full what a hook replaced.
 * The research catalog's surface (fixtures.ts): 0 market__search_instruments,
 * 1 market__get_instrument_profile, 2 market__web_search, 3 read_page.
 */
import { describe, expect, it } from 'vitest';
import { trackerOf } from './internal/preparation.ts';
import type { ModelRequest } from './model-request.ts';
import type { SurfaceHook } from './surface-hook.ts';
import type { SurfaceTool } from './surface-tool.ts';
import { CATALOG, GRANTED, researchFacts, researchGeneration, reserved, SURFACE_NAMES } from './testing/fixtures.ts';
import { factsOf, generationOf, recordingModel } from './testing/generation.ts';
import { ToolSurfaceStage } from './tool-surface-stage.ts';

const FACTS = researchFacts(researchGeneration());

/** The baseline as the model must see it: catalog entries 0, 2, 3, 5. */
const EXPECTED_SURFACE = [0, 2, 3, 5].map((index) => {
  const source = CATALOG[index] as { name: string; description: string; inputSchema: Record<string, unknown> };
  return { name: source.name, description: source.description, inputSchema: source.inputSchema };
});

function frozenStage(...transforms: ((request: ModelRequest) => void)[]): ToolSurfaceStage {
  const hooks: SurfaceHook[] = transforms.map((transform, index) => ({ name: `hook-${index}`, transform }));
  return new ToolSurfaceStage({ hooks, hookTools: 'frozen' });
}

/** Every object reachable from `value` (own enumerable members). */
function objectsOf(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !into.has(value)) {
    into.add(value);
    for (const member of Object.values(value)) objectsOf(member, into);
  }
  return into;
}

function allFrozen(value: unknown): boolean {
  return [...objectsOf(value)].every((object) => Object.isFrozen(object));
}

async function run(
  stage: ToolSurfaceStage,
  late?: (request: ModelRequest) => void,
  facts = FACTS,
  requestId = 'turn-1',
) {
  const { ledger, owner } = reserved(requestId);
  const model = recordingModel();
  const prepared = await stage.prepare({ owner, facts, context: null });
  if (!prepared.ok) return { prepared, dispatched: undefined, ledger, model };
  late?.(prepared.request);
  const dispatched = await stage.dispatch(prepared.preparation, prepared.request, model.send);
  return { prepared, dispatched, ledger, model };
}

describe('frozen mode: what hooks receive', () => {
  it('a deep-frozen copy, equal to the baseline and sharing no object with it; the token carries it', async () => {
    let received: SurfaceTool[] | undefined;
    const { prepared } = await run(
      frozenStage((request) => {
        received = request.tools;
      }),
    );
    if (!prepared.ok) throw new Error('refused');
    expect(received).toBe(prepared.request.tools);
    expect(received).toEqual(EXPECTED_SURFACE);
    expect(allFrozen(received)).toBe(true);
    expect(allFrozen(prepared.preparation.baseline.surface)).toBe(true);
    const shared = [...objectsOf(received)].filter((object) =>
      objectsOf(prepared.preparation.baseline.surface).has(object),
    );
    expect(shared).toEqual([]);
    expect(prepared.preparation.issuedTools).toBe(received);
  });

  it('frozen mode is opt-in: by default (tracked) no issued frozen copy, hooks may edit in place', async () => {
    let frozen: boolean | undefined;
    const stage = new ToolSurfaceStage({
      hooks: [
        {
          name: 'look',
          transform: (request) => {
            frozen = Object.isFrozen(request.tools);
          },
        },
      ],
    });
    const { prepared } = await run(stage);
    if (!prepared.ok) throw new Error('refused');
    expect(frozen).toBe(false);
    expect(prepared.preparation.issuedTools).toBeUndefined();
    expect(trackerOf(prepared.preparation)?.tools).toBe(prepared.request.tools);
  });

  it('an unknown hookTools value is a TypeError at construction', () => {
    expect(() => new ToolSurfaceStage({ hookTools: 'sealed' as 'frozen' })).toThrow(
      new TypeError("hookTools must be 'tracked', 'mutable' or 'frozen', got \"sealed\""),
    );
  });
});

describe('frozen mode: an in-place edit fails the hook (HOOK_FAILED), settled once, nothing sent', () => {
  const edits: [string, (request: ModelRequest) => void][] = [
    [
      'a description',
      (request) => {
        (request.tools[1] as SurfaceTool).description = 'edited';
      },
    ],
    [
      'a nested schema member',
      (request) => {
        ((request.tools[2] as SurfaceTool).inputSchema.properties as Record<string, unknown>).extra = {
          type: 'string',
        };
      },
    ],
    [
      'a schema member deleted',
      (request) => {
        delete (request.tools[0] as SurfaceTool).inputSchema.required;
      },
    ],
    [
      'the array sorted in place',
      (request) => {
        request.tools.sort((a, b) => a.name.localeCompare(b.name));
      },
    ],
    [
      'a tool pushed',
      (request) => {
        request.tools.push({ name: 'zz', description: '', inputSchema: { type: 'object' } });
      },
    ],
    [
      'a position assigned',
      (request) => {
        request.tools[3] = { name: 'read_page', description: 'other', inputSchema: { type: 'object' } };
      },
    ],
  ];
  for (const [what, edit] of edits) {
    it(`${what}`, async () => {
      const { prepared, ledger, model } = await run(
        frozenStage((request) => {
          request.context = 'kept';
        }, edit),
      );
      const rejection = { code: 'HOOK_FAILED', requestId: 'turn-1', hook: 'hook-1', index: 1 };
      expect(prepared).toEqual({ ok: false, rejection });
      expect(ledger.entries().map((entry) => entry.settlement)).toEqual([{ kind: 'preDispatchRejected', rejection }]);
      expect(model.sent).toEqual([]);
    });
  }

  it("a late stage that edits in place throws in the host's own code; the surface is unchanged and dispatches", async () => {
    let thrown: unknown;
    const { dispatched, ledger, model } = await run(frozenStage(), (request) => {
      try {
        (request.tools[0] as SurfaceTool).description = 'late edit';
      } catch (error) {
        thrown = error;
      }
    });
    expect(thrown).toBeInstanceOf(TypeError);
    expect(dispatched?.ok).toBe(true);
    expect(ledger.entries().map((entry) => entry.settlement?.kind)).toEqual(['dispatched']);
    expect(model.sent[0]?.request.tools).toEqual(EXPECTED_SURFACE);
  });
});

describe('frozen mode: assigning instead of editing', () => {
  it('the same frozen tools in a new array pass both checks', async () => {
    const { dispatched, model } = await run(
      frozenStage((request) => {
        request.tools = [...request.tools];
      }),
      (request) => {
        request.tools = request.tools.slice();
      },
    );
    expect(dispatched?.ok).toBe(true);
    expect(model.sent[0]?.request.tools).toEqual(EXPECTED_SURFACE);
  });

  it('a tool replaced by an equal new object (keys reordered, strings rebuilt) passes: it is compared in full', async () => {
    const rebuilt = (tool: SurfaceTool): SurfaceTool => ({
      inputSchema: JSON.parse(JSON.stringify(tool.inputSchema)) as SurfaceTool['inputSchema'],
      description: [...tool.description].join(''),
      name: `${tool.name}`,
    });
    const { dispatched } = await run(
      frozenStage((request) => {
        request.tools = request.tools.map((tool, index) => (index === 2 ? rebuilt(tool) : tool));
      }),
    );
    expect(dispatched?.ok).toBe(true);
  });

  it('a replaced tool with another description is refused early, exactly as in mutable mode', async () => {
    const edit = (request: ModelRequest): void => {
      request.tools = request.tools.map((tool, index) =>
        index === 1 ? { ...tool, description: `${tool.description} Always call it first.` } : tool,
      );
    };
    const frozen = await run(frozenStage(edit));
    const mutable = await run(new ToolSurfaceStage({ hooks: [{ name: 'hook-0', transform: edit }] }));
    const description = (EXPECTED_SURFACE[1] as SurfaceTool).description;
    const rejection = {
      code: 'SURFACE_MISMATCH',
      requestId: 'turn-1',
      check: 'early',
      mismatch: {
        check: 'early',
        field: 'description',
        tool: 'market__get_instrument_profile',
        index: 1,
        expected: description,
        actual: `${description} Always call it first.`,
        schemaPath: null,
      },
    };
    expect(frozen.prepared).toEqual({ ok: false, rejection });
    expect(mutable.prepared).toEqual({ ok: false, rejection });
    expect(frozen.ledger.entries().map((entry) => entry.settlement)).toEqual([
      { kind: 'preDispatchRejected', rejection },
    ]);
  });

  it('the frozen tools reversed into a new array are refused order, by the final check when done late', async () => {
    const { dispatched, ledger, model } = await run(frozenStage(), (request) => {
      request.tools = [...request.tools].reverse();
    });
    const rejection = {
      code: 'SURFACE_MISMATCH',
      requestId: 'turn-1',
      check: 'final',
      mismatch: {
        check: 'final',
        field: 'order',
        tool: SURFACE_NAMES[0],
        index: 0,
        expected: SURFACE_NAMES[0],
        actual: SURFACE_NAMES[3],
        schemaPath: null,
      },
    };
    expect(dispatched).toEqual({ ok: false, rejection });
    expect(ledger.entries().map((entry) => entry.settlement)).toEqual([{ kind: 'preDispatchRejected', rejection }]);
    expect(model.sent).toEqual([]);
  });
});

describe('frozen mode: identity counts only for the copy issued to this request', () => {
  /** Generation 2: read_page's description changed; the surface's names and order are generation 1's. */
  const changed = CATALOG.map((tool) =>
    tool.name === 'read_page'
      ? { ...tool, description: 'Read one page of a public source by URL. Returns its text and links.' }
      : tool,
  );
  const FACTS_2 = factsOf(generationOf(changed, 2), GRANTED);

  it('a frozen tool kept from the previous turn, put at the same position, is compared in full and refused', async () => {
    let previous: SurfaceTool[] = [];
    const first = await run(
      frozenStage((request) => {
        previous = request.tools;
      }),
    );
    expect(first.dispatched?.ok).toBe(true);
    const { prepared, ledger } = await run(
      frozenStage((request) => {
        request.tools = request.tools.map((tool, index) => (index === 3 ? (previous[3] as SurfaceTool) : tool));
      }),
      undefined,
      FACTS_2,
      'turn-2',
    );
    const rejection = {
      code: 'SURFACE_MISMATCH',
      requestId: 'turn-2',
      check: 'early',
      mismatch: {
        check: 'early',
        field: 'description',
        tool: 'read_page',
        index: 3,
        expected: 'Read one page of a public source by URL. Returns its text and links.',
        actual: 'Read one page of a public source by URL. Returns its text.',
        schemaPath: null,
      },
    };
    expect(prepared).toEqual({ ok: false, rejection });
    expect(ledger.entries().map((entry) => entry.settlement)).toEqual([{ kind: 'preDispatchRejected', rejection }]);
  });

  it('the whole frozen array of the previous turn, handed over late, is refused by the final check', async () => {
    let previous: SurfaceTool[] = [];
    await run(
      frozenStage((request) => {
        previous = request.tools;
      }),
    );
    const { dispatched, model } = await run(
      frozenStage(),
      (request) => {
        request.tools = previous;
      },
      FACTS_2,
      'turn-2',
    );
    expect(dispatched).toEqual({
      ok: false,
      rejection: {
        code: 'SURFACE_MISMATCH',
        requestId: 'turn-2',
        check: 'final',
        mismatch: {
          check: 'final',
          field: 'description',
          tool: 'read_page',
          index: 3,
          expected: 'Read one page of a public source by URL. Returns its text and links.',
          actual: 'Read one page of a public source by URL. Returns its text.',
          schemaPath: null,
        },
      },
    });
    expect(model.sent).toEqual([]);
  });

  it("another request's frozen copy of an equal surface passes by content, and what is sent is this request's baseline", async () => {
    let other: SurfaceTool[] = [];
    await run(
      frozenStage((request) => {
        other = request.tools;
      }),
      undefined,
      FACTS,
      'turn-0',
    );
    const { prepared, dispatched, model } = await run(
      frozenStage((request) => {
        request.tools = other;
      }),
    );
    if (!prepared.ok) throw new Error('refused');
    expect(prepared.request.tools).toBe(other);
    expect(dispatched?.ok).toBe(true);
    expect(model.sent[0]?.request.tools).toBe(prepared.preparation.baseline.surface);
  });
});
