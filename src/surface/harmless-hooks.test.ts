/**
 * Hooks that change nothing of the logical surface must not be refused: a false refusal is a
 * defect too (seed 003: "合法的消息压缩不应触发误拒绝"). Each test dispatches, settles exactly one
 * `dispatched`, and hands the model the baseline's surface unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from './model-request.ts';
import type { SurfaceHook } from './surface-hook.ts';
import type { SurfaceTool } from './surface-tool.ts';
import { CATALOG, researchFacts, researchGeneration, reserved, SURFACE_NAMES } from './testing/fixtures.ts';
import { recordingModel } from './testing/generation.ts';
import { ToolSurfaceStage } from './tool-surface-stage.ts';

const FACTS = researchFacts(researchGeneration());

interface Chat {
  messages: string[];
}

/** The baseline as the model must see it: catalog entries 0, 2, 3, 5, description and schema as listed. */
const EXPECTED_SURFACE = [0, 2, 3, 5].map((index) => {
  const source = CATALOG[index] as { name: string; description: string; inputSchema: Record<string, unknown> };
  return { name: source.name, description: source.description, inputSchema: source.inputSchema };
});

async function dispatchWith(hooks: SurfaceHook<Chat>[], late?: (request: ModelRequest<Chat>) => void) {
  const stage = new ToolSurfaceStage<Chat>({ hooks });
  const { ledger, owner } = reserved();
  const model = recordingModel();
  const context: Chat = { messages: ['a long message '.repeat(20), 'the question'] };
  const prepared = await stage.prepare({ owner, facts: FACTS, context });
  expect(prepared.ok ? undefined : prepared.rejection).toBeUndefined();
  if (!prepared.ok) throw new Error('refused');
  late?.(prepared.request);
  const dispatched = await stage.dispatch(prepared.preparation, prepared.request, model.send);
  expect(dispatched.ok ? undefined : dispatched.rejection).toBeUndefined();
  expect(ledger.entries().map((entry) => entry.settlement?.kind)).toEqual(['dispatched']);
  expect(model.sent.length).toBe(1);
  expect(model.sent[0]?.request.tools).toEqual(EXPECTED_SURFACE);
  return { context, sent: model.sent[0] };
}

function hook(name: string, transform: (request: ModelRequest<Chat>) => void | Promise<void>): SurfaceHook<Chat> {
  return { name, transform };
}

/** The same JSON value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, member]) => [key, reverseKeys(member)]),
  );
}

describe('harmless hooks are not refused', () => {
  it('no hook at all', async () => {
    await dispatchWith([]);
  });

  it('a hook that rebuilds an identical copy of every tool (new objects, same values)', async () => {
    await dispatchWith([
      hook('rebuild', (request) => {
        request.tools = request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: structuredClone(tool.inputSchema),
        }));
      }),
    ]);
  });

  it('a hook that reads every tool and changes nothing', async () => {
    let properties = 0;
    await dispatchWith([
      hook('inspect', (request) => {
        for (const tool of request.tools)
          properties += Object.keys((tool.inputSchema.properties ?? {}) as object).length;
      }),
    ]);
    expect(properties).toBe(5);
  });

  it('a hook that re-serialises the surface to an equal structure (JSON round trip)', async () => {
    await dispatchWith([
      hook('reserialise', (request) => {
        request.tools = JSON.parse(JSON.stringify(request.tools)) as SurfaceTool[];
      }),
    ]);
  });

  it('a hook that writes every schema object with its keys in another order (JSON objects are unordered)', async () => {
    await dispatchWith([
      hook('reorder-keys', (request) => {
        for (const tool of request.tools)
          tool.inputSchema = reverseKeys(tool.inputSchema) as SurfaceTool['inputSchema'];
      }),
    ]);
  });

  it("a hook that compresses the messages (a legitimate context change): the host's context object carries it to the model", async () => {
    const { context, sent } = await dispatchWith([
      hook('compress', (request) => {
        request.context.messages = ['[summary of 1 message]', request.context.messages.at(-1) as string];
      }),
    ]);
    expect(context.messages).toEqual(['[summary of 1 message]', 'the question']);
    expect(sent?.request.context).toBe(context);
  });

  it('a hook that rebuilds each description from pieces (an equal string, another object)', async () => {
    await dispatchWith([
      hook('rebuild-text', (request) => {
        for (const tool of request.tools) tool.description = [...tool.description].join('');
      }),
    ]);
  });

  it('an async hook that awaits several turns and changes nothing, and a late stage that reads only', async () => {
    await dispatchWith(
      [
        hook('slow', async () => {
          for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
        }),
      ],
      (request) => {
        void request.tools.length;
      },
    );
  });

  it('a hook that sets a schema member to undefined (JSON leaves it out: the same structure on the wire)', async () => {
    await dispatchWith([
      hook('undefined-member', (request) => {
        (request.tools[0] as SurfaceTool).inputSchema.examples = undefined;
      }),
    ]);
  });

  it('a hook that puts the same tool objects in a new array', async () => {
    await dispatchWith([
      hook('new-array', (request) => {
        request.tools = [...request.tools];
      }),
    ]);
  });

  it("a hook that attaches a field outside the logical surface: not compared, and not sent (wire options are the model-call owner's)", async () => {
    const { sent } = await dispatchWith([
      hook('cache-hint', (request) => {
        Object.assign(request.tools[0] as SurfaceTool, { cache_control: { type: 'ephemeral' } });
      }),
    ]);
    expect(Object.keys(sent?.request.tools[0] ?? {})).toEqual(['name', 'description', 'inputSchema']);
  });

  it('hooks that edit and then restore within the pipeline leave the surface as admitted', async () => {
    let saved = '';
    await dispatchWith([
      hook('edit', (request) => {
        const tool = request.tools[1] as SurfaceTool;
        saved = tool.description;
        tool.description = 'temporary';
      }),
      hook('restore', (request) => {
        (request.tools[1] as SurfaceTool).description = saved;
      }),
    ]);
  });

  it('what the model receives is deep-frozen and equal to the baseline, whatever the request still holds afterwards', async () => {
    let request: ModelRequest<Chat> | undefined;
    const { sent } = await dispatchWith([
      hook('keep', (r) => {
        request = r;
      }),
    ]);
    (request?.tools[0] as SurfaceTool).description = 'changed after dispatch';
    expect(sent?.request.tools[0]?.description).toBe(EXPECTED_SURFACE[0]?.description);
    expect(Object.isFrozen(sent?.request.tools[0]?.inputSchema.properties)).toBe(true);
    expect(sent?.request.tools.map((tool) => tool.name)).toEqual(SURFACE_NAMES);
  });
});
