/**
 * The stage's tracked mode (`hookTools: 'tracked'`, the default): hooks receive the working copy
 * through write-tracking proxies, may edit it in place, and both checks skip what no trap saw
 * written. Every case runs in tracked mode and in the plain mutable mode and must give the same
 * outcome, worked out here by hand (which tool, which field, which values).
 * The research catalog's surface (fixtures.ts): 0 market__search_instruments,
 * 1 market__get_instrument_profile, 2 market__web_search, 3 read_page.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { trackerOf } from './internal/preparation.ts';
import type { ModelRequest } from './model-request.ts';
import type { HookToolsMode } from './stage-types.ts';
import type { SurfaceTool } from './surface-tool.ts';
import { CATALOG, researchFacts, researchGeneration, reserved, SURFACE_NAMES } from './testing/fixtures.ts';
import { recordingModel } from './testing/generation.ts';
import { ToolSurfaceStage } from './tool-surface-stage.ts';

const FACTS = researchFacts(researchGeneration());

/** The baseline as the model must see it: catalog entries 0, 2, 3, 5. */
const EXPECTED_SURFACE = [0, 2, 3, 5].map((index) => {
  const source = CATALOG[index] as { name: string; description: string; inputSchema: Record<string, unknown> };
  return { name: source.name, description: source.description, inputSchema: source.inputSchema };
});
const DESCRIPTIONS = EXPECTED_SURFACE.map((tool) => tool.description);

type Edit = (request: ModelRequest) => void;

interface Outcome {
  /** The refusal, or 'dispatched'. */
  result: unknown;
  settlements: unknown[];
  sent: unknown[];
}

async function outcome(
  mode: HookToolsMode,
  hook: Edit | undefined,
  late: Edit | undefined,
  requestId = 'turn-1',
): Promise<Outcome> {
  const stage = new ToolSurfaceStage({
    hooks: hook === undefined ? [] : [{ name: 'hook', transform: hook }],
    hookTools: mode,
  });
  const { ledger, owner } = reserved(requestId);
  const model = recordingModel();
  const settlements = (): unknown[] => ledger.entries().map((entry) => entry.settlement);
  const prepared = await stage.prepare({ owner, facts: FACTS, context: null });
  if (!prepared.ok) return { result: prepared.rejection, settlements: settlements(), sent: [] };
  late?.(prepared.request);
  const dispatched = await stage.dispatch(prepared.preparation, prepared.request, model.send);
  return {
    result: dispatched.ok ? 'dispatched' : dispatched.rejection,
    settlements: settlements(),
    sent: model.sent.map((each) => each.request.tools),
  };
}

/** Runs the edits in both modes; both must give `expected` (a refusal, or 'dispatched'). */
async function bothModes(expected: unknown, hook?: Edit, late?: Edit): Promise<void> {
  for (const mode of ['tracked', 'mutable'] as const) {
    const got = await outcome(mode, hook, late);
    expect({ mode, result: got.result }).toEqual({ mode, result: expected });
    if (expected === 'dispatched') {
      expect(got.settlements.map((each) => (each as { kind: string }).kind)).toEqual(['dispatched']);
      expect(got.sent).toEqual([EXPECTED_SURFACE]);
    } else {
      expect(got.settlements).toEqual([{ kind: 'preDispatchRejected', rejection: expected }]);
      expect(got.sent).toEqual([]);
    }
  }
}

function refused(
  check: 'early' | 'final',
  field: string,
  index: number | null,
  expected: string | number | null,
  actual: string | number | null,
  schemaPath: string | null = null,
  tool: string | null = index === null ? null : (SURFACE_NAMES[index] as string),
) {
  return {
    code: 'SURFACE_MISMATCH',
    requestId: 'turn-1',
    check,
    mismatch: { check, field, tool, index, expected, actual, schemaPath },
  };
}

const tool = (request: ModelRequest, index: number): SurfaceTool => request.tools[index] as SurfaceTool;
const properties = (schema: Record<string, unknown>): Record<string, Record<string, unknown>> =>
  schema.properties as Record<string, Record<string, unknown>>;

describe('tracked mode: what hooks receive, and what the stage keeps', () => {
  it("the default: request.tools is the tracker's array proxy, an array equal to the baseline; untouched it stays untouched", async () => {
    let isArray: boolean | undefined;
    const stage = new ToolSurfaceStage({
      hooks: [
        {
          name: 'look',
          transform: (request) => {
            isArray = Array.isArray(request.tools);
          },
        },
      ],
    });
    const { owner } = reserved();
    const prepared = await stage.prepare({ owner, facts: FACTS, context: null });
    if (!prepared.ok) throw new Error('refused');
    const tracker = trackerOf(prepared.preparation);
    expect(tracker?.tools).toBe(prepared.request.tools);
    expect(isArray).toBe(true);
    expect(tracker?.untouched).toBe(true);
    expect(prepared.request.tools).toEqual(EXPECTED_SURFACE);
    // The token the host holds does not carry the tracker (it can read the raw working copy).
    expect(Object.keys(prepared.preparation)).toEqual([
      'requestId',
      'baseline',
      'owner',
      'earlyChecked',
      'issuedTools',
    ]);
  });

  it("each tool is copied when a hook first reaches it (and all before the array is written): what hooks hold is never the baseline's", async () => {
    let reached: SurfaceTool[] = [];
    const stage = new ToolSurfaceStage({
      hooks: [
        {
          name: 'reach',
          transform: (request) => {
            reached.push(tool(request, 1));
            request.tools.sort((a, b) => a.name.localeCompare(b.name));
            request.tools.sort((a, b) => SURFACE_NAMES.indexOf(a.name) - SURFACE_NAMES.indexOf(b.name));
            reached = [...reached, ...request.tools];
          },
        },
      ],
    });
    const { owner } = reserved();
    const prepared = await stage.prepare({ owner, facts: FACTS, context: null });
    if (!prepared.ok) throw new Error('refused');
    const baseline = prepared.preparation.baseline.surface;
    expect(
      reached.map((each) => [
        Object.isFrozen(each),
        Object.isFrozen(each.inputSchema),
        baseline.includes(each),
        baseline.some((own) => own.inputSchema === each.inputSchema),
      ]),
    ).toEqual(Array.from({ length: 5 }, () => [false, false, false, false]));
    (properties(tool(prepared.request, 2).inputSchema).limit as Record<string, unknown>).maximum = 50;
    expect(baseline).toEqual(EXPECTED_SURFACE);
    expect(Object.isFrozen((baseline[2] as SurfaceTool).inputSchema.properties)).toBe(true);
  });

  it('reading names and descriptions marks nothing; handing out a schema exposes that tool only; a write marks it', async () => {
    const stage = new ToolSurfaceStage({
      hooks: [
        {
          name: 'read',
          transform: (request) => {
            for (const each of request.tools) void `${each.name}${each.description}`;
            void tool(request, 2).inputSchema;
          },
        },
      ],
    });
    const { owner } = reserved();
    const prepared = await stage.prepare({ owner, facts: FACTS, context: null });
    if (!prepared.ok) throw new Error('refused');
    const tracker = trackerOf(prepared.preparation);
    expect([tracker?.untouched, tracker?.arrayIntact, tracker?.dirtyPositions()]).toEqual([false, true, [2]]);
    tool(prepared.request, 0).description = DESCRIPTIONS[0] as string;
    expect(tracker?.dirtyPositions()).toEqual([0, 2]);
    prepared.request.tools.reverse();
    expect([tracker?.arrayIntact, tracker?.dirtyPositions()]).toEqual([false, [0, 2]]);
  });

  it('structuredClone of a whole tool throws (a Proxy cannot be cloned): HOOK_FAILED, settled once; plain mode clones it', async () => {
    const clone: Edit = (request) => {
      request.tools = request.tools.map((each) => structuredClone(each));
    };
    const tracked = await outcome('tracked', clone, undefined);
    const rejection = { code: 'HOOK_FAILED', requestId: 'turn-1', hook: 'hook', index: 0 };
    expect(tracked).toEqual({ result: rejection, settlements: [{ kind: 'preDispatchRejected', rejection }], sent: [] });
    expect((await outcome('mutable', clone, undefined)).result).toBe('dispatched');
  });

  it("structuredClone of a tool's inputSchema works (a plain object) and dispatches", async () => {
    await bothModes('dispatched', (request) => {
      request.tools = request.tools.map((each) => ({
        name: each.name,
        description: each.description,
        inputSchema: structuredClone(each.inputSchema),
      }));
    });
  });
});

describe('tracked mode: aliasing, in both modes the same outcome', () => {
  it("a schema moved from tool 0 into tool 1, then edited through tool 0's reference: refused at tool 0 (inputSchema /properties/query/type)", async () => {
    await bothModes(refused('early', 'inputSchema', 0, 'string', 'number', '/properties/query/type'), (request) => {
      const schema = tool(request, 0).inputSchema;
      tool(request, 1).inputSchema = schema;
      (properties(schema).query as Record<string, unknown>).type = 'number';
    });
  });

  it("a schema moved from tool 0 into tool 1 and tool 1's own put back: equal again, dispatched", async () => {
    await bothModes('dispatched', (request) => {
      const own = tool(request, 1).inputSchema;
      tool(request, 1).inputSchema = tool(request, 0).inputSchema;
      tool(request, 1).inputSchema = own;
    });
  });

  it('an issued schema shared into a new tool object passes early; edited late through the kept reference, refused final (tool 2, /required/1)', async () => {
    let kept: Record<string, unknown> = {};
    await bothModes(
      refused('final', 'inputSchema', 2, 'limit', 'page', '/required/1'),
      (request) => {
        const old = tool(request, 2);
        kept = old.inputSchema;
        request.tools = request.tools.map((each, index) =>
          index === 2 ? { name: old.name, description: old.description, inputSchema: kept } : each,
        );
      },
      () => {
        (kept.required as string[])[1] = 'page';
      },
    );
  });

  it('an issued nested object of tool 3 shared into a new tool object at its position passes early; edited late: refused final (tool 3, /properties/url/format)', async () => {
    let url: Record<string, unknown> = {};
    await bothModes(
      refused('final', 'inputSchema', 3, 'uri', 'uri-reference', '/properties/url/format'),
      (request) => {
        const old = tool(request, 3);
        url = properties(old.inputSchema).url as Record<string, unknown>;
        request.tools[3] = {
          name: old.name,
          description: old.description,
          inputSchema: { type: 'object', properties: { url }, required: ['url'] },
        };
      },
      () => {
        url.format = 'uri-reference';
      },
    );
  });

  it("an issued nested object of tool 3 put into tool 0: refused at tool 0 (/properties/query/description: url's object has none)", async () => {
    await bothModes(
      refused('early', 'inputSchema', 0, 'Search text', null, '/properties/query/description'),
      (request) => {
        properties(tool(request, 0).inputSchema).query = properties(tool(request, 3).inputSchema).url as Record<
          string,
          unknown
        >;
      },
    );
  });

  it('a tool of another request, put at its position: compared in full, equal, dispatched; edited late through it: refused final (tool 3 description)', async () => {
    for (const mode of ['tracked', 'mutable'] as const) {
      let other: SurfaceTool | undefined;
      expect(
        (
          await outcome(
            mode,
            (request) => {
              other = tool(request, 3);
            },
            undefined,
            'turn-0',
          )
        ).result,
      ).toBe('dispatched');
      const put: Edit = (request) => {
        request.tools[3] = other as SurfaceTool;
      };
      expect((await outcome(mode, put, undefined)).result).toBe('dispatched');
      const edited = await outcome(mode, put, () => {
        (other as SurfaceTool).description = 'kept across requests';
      });
      expect({ mode, result: edited.result }).toEqual({
        mode,
        result: refused('final', 'description', 3, DESCRIPTIONS[3] as string, 'kept across requests'),
      });
    }
  });

  it('a tool proxy of an earlier request edited after that request was dispatched changes nothing that request sent, nor this one', async () => {
    let other: SurfaceTool | undefined;
    const first = await outcome(
      'tracked',
      (request) => {
        other = tool(request, 1);
      },
      undefined,
      'turn-0',
    );
    (other as SurfaceTool).description = 'edited after dispatch';
    expect(first.sent).toEqual([EXPECTED_SURFACE]);
    expect((await outcome('tracked', undefined, undefined)).result).toBe('dispatched');
  });

  it('a late stage edits a tool the early check passed untouched: refused final (tool 1 description)', async () => {
    await bothModes(
      refused('final', 'description', 1, DESCRIPTIONS[1] as string, `${DESCRIPTIONS[1] as string} Late.`),
      undefined,
      (request) => {
        tool(request, 1).description += ' Late.';
      },
    );
  });

  it('a tool kept by a hook and edited by work it left running (after the early check): refused final', async () => {
    let kept: SurfaceTool | undefined;
    await bothModes(
      refused('final', 'inputSchema', 3, null, null, '/x-late'),
      (request) => {
        kept = tool(request, 3);
      },
      () => {
        (kept as SurfaceTool).inputSchema['x-late'] = true;
      },
    );
  });
});

describe('tracked mode: getters, toJSON, prototypes, freezing', () => {
  it('a getter defined on tool 1 that answers another description: refused (tool 1 description)', async () => {
    await bothModes(refused('early', 'description', 1, DESCRIPTIONS[1] as string, 'from a getter'), (request) => {
      Object.defineProperty(tool(request, 1), 'description', {
        get: () => 'from a getter',
        enumerable: true,
        configurable: true,
      });
    });
  });

  it('a getter that answers the same description: dispatched', async () => {
    await bothModes('dispatched', (request) => {
      const description = tool(request, 1).description;
      Object.defineProperty(tool(request, 1), 'description', {
        get: () => description,
        enumerable: true,
        configurable: true,
      });
    });
  });

  it("a getter on tool 0 that, when the check reads it, writes tool 2: refused (tool 2 description), as the mutable mode's position loop sees it", async () => {
    await bothModes(refused('early', 'description', 2, DESCRIPTIONS[2] as string, 'written by a getter'), (request) => {
      const later = tool(request, 2);
      const description = tool(request, 0).description;
      let fired = false;
      Object.defineProperty(tool(request, 0), 'description', {
        get: () => {
          if (!fired && later !== undefined) {
            fired = true;
            later.description = 'written by a getter';
          }
          return description;
        },
        enumerable: true,
        configurable: true,
      });
    });
  });

  it('a getter on tool 0 that, when the check reads it, reverses the array: refused order at 1 (market__web_search where market__get_instrument_profile belongs)', async () => {
    await bothModes(refused('early', 'order', 1, 'market__get_instrument_profile', 'market__web_search'), (request) => {
      const tools = request.tools;
      const description = tool(request, 0).description;
      let fired = false;
      Object.defineProperty(tool(request, 0), 'description', {
        get: () => {
          if (!fired) {
            fired = true;
            tools.reverse();
          }
          return description;
        },
        enumerable: true,
        configurable: true,
      });
    });
  });

  it('a toJSON attached to tool 0 is not part of the surface: dispatched', async () => {
    await bothModes('dispatched', (request) => {
      (tool(request, 0) as SurfaceTool & { toJSON?: unknown }).toJSON = () => ({ name: 'other' });
    });
  });

  it('a schema reached through Object.getOwnPropertyDescriptor (no get) and edited: refused (tool 2, /properties/limit/maximum)', async () => {
    await bothModes(refused('early', 'inputSchema', 2, 10, 100, '/properties/limit/maximum'), (request) => {
      const schema = Object.getOwnPropertyDescriptor(tool(request, 2), 'inputSchema')?.value as Record<string, unknown>;
      (properties(schema).limit as Record<string, unknown>).maximum = 100;
    });
  });

  it("a tool reached through the array's descriptor (no get) and edited: refused (tool 3 description)", async () => {
    await bothModes(refused('early', 'description', 3, DESCRIPTIONS[3] as string, 'via a descriptor'), (request) => {
      (Object.getOwnPropertyDescriptor(request.tools, '3')?.value as SurfaceTool).description = 'via a descriptor';
    });
  });

  it('a prototype that holds a description, with the own one deleted: refused (tool 2 description, the inherited value)', async () => {
    await bothModes(refused('early', 'description', 2, DESCRIPTIONS[2] as string, 'inherited'), (request) => {
      Object.setPrototypeOf(tool(request, 2), { description: 'inherited' });
      delete (tool(request, 2) as Partial<SurfaceTool>).description;
    });
  });

  it('Object.freeze on a tool proxy and on the array proxy changes nothing: dispatched', async () => {
    await bothModes('dispatched', (request) => {
      Object.freeze(tool(request, 0));
      Object.freeze(request.tools);
    });
  });

  it('the array frozen, a tool read from it (the raw tool, a proxy invariant) and its schema edited: refused (tool 1, /properties/symbol/description)', async () => {
    await bothModes(
      refused('early', 'inputSchema', 1, 'Ticker symbol', 'edited', '/properties/symbol/description'),
      (request) => {
        Object.freeze(request.tools);
        (properties(tool(request, 1).inputSchema).symbol as Record<string, unknown>).description = 'edited';
      },
    );
  });

  it('a frozen tool edited in place throws in strict code: HOOK_FAILED in both modes', async () => {
    const rejection = { code: 'HOOK_FAILED', requestId: 'turn-1', hook: 'hook', index: 0 };
    for (const mode of ['tracked', 'mutable'] as const) {
      const got = await outcome(
        mode,
        (request) => {
          Object.freeze(tool(request, 0));
          tool(request, 0).description = 'x';
        },
        undefined,
      );
      expect(got.result).toEqual(rejection);
    }
  });
});

describe('tracked mode: the array edited in place', () => {
  it('length set to 3: refused count (read_page missing, 4 expected, 3 found)', async () => {
    await bothModes(refused('early', 'count', null, 4, 3, null, 'read_page'), (request) => {
      request.tools.length = 3;
    });
  });

  it('length set to 5: refused count (a hole reads undefined, which is not an admitted name: unadmitted at 4)', async () => {
    await bothModes(
      {
        code: 'SURFACE_MISMATCH',
        requestId: 'turn-1',
        check: 'early',
        mismatch: {
          check: 'early',
          field: 'unadmitted',
          tool: null,
          index: 4,
          expected: null,
          actual: null,
          schemaPath: null,
        },
      },
      (request) => {
        request.tools.length = 5;
      },
    );
  });

  it('reversed in place: refused order at 0 (read_page where market__search_instruments belongs)', async () => {
    await bothModes(refused('early', 'order', 0, SURFACE_NAMES[0] as string, 'read_page'), (request) => {
      request.tools.reverse();
    });
  });

  it('reversed twice in place: every tool is back at its position, dispatched', async () => {
    await bothModes('dispatched', (request) => {
      request.tools.reverse();
      request.tools.reverse();
    });
  });

  it('sorted by name in place: refused order at 0 (market__get_instrument_profile sorts first)', async () => {
    // Sorted: market__get_instrument_profile, market__search_instruments, market__web_search, read_page.
    await bothModes(
      refused('early', 'order', 0, SURFACE_NAMES[0] as string, 'market__get_instrument_profile'),
      (request) => {
        request.tools.sort((a, b) => a.name.localeCompare(b.name));
      },
    );
  });

  it('spliced: tool 1 removed then put back at the same place: dispatched', async () => {
    await bothModes('dispatched', (request) => {
      const [removed] = request.tools.splice(1, 1);
      request.tools.splice(1, 0, removed as SurfaceTool);
    });
  });

  it('spliced: tool 1 removed late: refused final count (market__get_instrument_profile missing)', async () => {
    await bothModes(
      refused('final', 'count', null, 4, 3, null, 'market__get_instrument_profile'),
      undefined,
      (request) => {
        request.tools.splice(1, 1);
      },
    );
  });

  it('copyWithin(0, 1): refused name at 0 (read_page twice, market__search_instruments gone)', async () => {
    await bothModes(
      refused('early', 'name', 0, SURFACE_NAMES[0] as string, 'market__get_instrument_profile'),
      (request) => {
        request.tools.copyWithin(0, 1);
      },
    );
  });

  it('a getter defined on position 1 that answers tool 3: refused name at 1 (read_page twice)', async () => {
    await bothModes(refused('early', 'name', 1, 'market__get_instrument_profile', 'read_page'), (request) => {
      const last = request.tools[3] as SurfaceTool;
      Object.defineProperty(request.tools, '1', { get: () => last, enumerable: true, configurable: true });
    });
  });

  it('an accessor on the array that captures the raw array under util.inspect({getters: true}), then a raw tool edited: refused (tool 0 description)', async () => {
    await bothModes(
      refused('early', 'description', 0, DESCRIPTIONS[0] as string, 'through the raw array'),
      (request) => {
        let raw: SurfaceTool[] | undefined;
        Object.defineProperty(request.tools, 'x', {
          get() {
            raw = this as SurfaceTool[];
            return 1;
          },
          enumerable: true,
          configurable: true,
        });
        inspect(request.tools, { getters: true });
        (raw?.[0] as SurfaceTool).description = 'through the raw array';
      },
    );
  });

  // Plain util.inspect (what console.log does) unwraps the array proxy and runs code the hook put
  // on the raw array, with the raw array: found by an adversarial review of the tracked mode.
  it('a constructor member whose Symbol.hasInstance captures the raw array under plain util.inspect, then a raw tool edited: refused (tool 0 description)', async () => {
    await bothModes(refused('early', 'description', 0, DESCRIPTIONS[0] as string, 'EVIL'), (request) => {
      let raw: SurfaceTool[] | undefined;
      const Trap = function Trap(): void {};
      Object.defineProperty(Trap, Symbol.hasInstance, {
        value: (value: unknown) => {
          raw = value as SurfaceTool[];
          return false;
        },
      });
      (request.tools as unknown as { constructor: unknown }).constructor = Trap;
      inspect(request.tools);
      delete (request.tools as unknown as { constructor?: unknown }).constructor;
      (raw?.[0] as SurfaceTool).description = 'EVIL';
    });
  });

  it("a prototype of the hook's own whose Symbol.toStringTag getter captures the raw array, then a raw schema member added: refused (tool 1 inputSchema)", async () => {
    const got = await outcome(
      'tracked',
      (request) => {
        let raw: SurfaceTool[] | undefined;
        Object.setPrototypeOf(
          request.tools,
          Object.create(Array.prototype, {
            [Symbol.toStringTag]: {
              get() {
                raw = this as SurfaceTool[];
                return 'X';
              },
            },
          }),
        );
        inspect(request.tools);
        properties((raw?.[1] as SurfaceTool).inputSchema).evil = { type: 'string' };
      },
      undefined,
    );
    const mutable = await outcome(
      'mutable',
      (request) => {
        Object.setPrototypeOf(
          request.tools,
          Object.create(Array.prototype, {
            [Symbol.toStringTag]: {
              get() {
                return 'X';
              },
            },
          }),
        );
        properties(tool(request, 1).inputSchema).evil = { type: 'string' };
      },
      undefined,
    );
    expect((got.result as { mismatch: { field: string; index: number } }).mismatch).toMatchObject({
      field: 'inputSchema',
      index: 1,
    });
    expect(got.result).toEqual(mutable.result);
    expect(got.sent).toEqual([]);
  });

  it('a util.inspect.custom member that captures the raw array under %o, kept until a late stage edits a raw tool: refused (final, tool 3 name)', async () => {
    let raw: SurfaceTool[] | undefined;
    await bothModes(
      refused('final', 'name', 3, 'read_page', 'renamed'),
      (request) => {
        (request.tools as unknown as Record<symbol, unknown>)[inspect.custom] = function capture(this: SurfaceTool[]) {
          raw = this;
          return 'tools';
        };
        raw = undefined;
        // Only the tracked mode's raw array is handed to the function; in mutable mode `this` is the plain copy itself.
        inspect(request.tools, { showProxy: true });
      },
      (request) => {
        (raw ?? (request.tools as SurfaceTool[]))[3]!.name = 'renamed';
      },
    );
  });

  it('position 2 deleted (a hole): refused name at 2 (nothing readable there)', async () => {
    await bothModes(refused('early', 'name', 2, 'market__web_search', null), (request) => {
      delete request.tools[2];
    });
  });

  it('a position assigned its own tool (tools[2] = tools[2]): dispatched', async () => {
    await bothModes('dispatched', (request) => {
      request.tools[2] = request.tools[2] as SurfaceTool;
    });
  });
});
