/**
 * `peer:ai-sdk-mcp` (`@ai-sdk/mcp` 2.0.99) on hand plans whose outcome follows from the library's
 * shipped dist/index.js (class DefaultMCPClient). Latency 5 ms each way, page size 2. The adapter's
 * transport opts into protocol-version discovery as the library's own stdio transport does, so the
 * client first sends `server/discover`, which these 2025-era servers refuse (-32601) at 5; it
 * falls back to `initialize` at 10, and the session opens at t=20 (then
 * notifications/initialized); the first turn's `tools()` starts its walk there, page k served at
 * 10k + 15.
 */
import { describe, expect, it } from 'vitest';
import { loadLibraryPeer } from '../../cores/peers/index.ts';
import {
  handPlan,
  handServer,
  publishes,
  runHand,
  served,
  step,
  tool,
  tools,
  type HandRun,
} from '../support/hand-plan.ts';
import type { RoundPlan, ServerPlan } from '../../sim/plan/types.ts';

/** F5's cursor traits, read off the plan type (no file outside sim/faults/ imports a fault file). */
type CursorTrait = NonNullable<ServerPlan['cursorTrait']>;

const KEY = 'fp:0000000000000001|acme.dev';

async function run(plan: RoundPlan): Promise<HandRun> {
  return runHand(plan, (await loadLibraryPeer('ai-sdk-mcp'))!, 'peer:ai-sdk-mcp');
}

function cursorRound(trait: CursorTrait): Promise<HandRun> {
  return run(
    handPlan({
      servers: [
        handServer({
          cursorTrait: trait,
          history: [step(0, 1, { 'acme.dev': tools('read_file', 'write_file', 'list_directory', 'echo') })],
        }),
      ],
    }),
  );
}

describe('peer:ai-sdk-mcp', () => {
  it('follows an empty-string cursor, since tools() loops while nextCursor != null', async () => {
    // F5 always-empty: every page hands back nextCursor "". LangChain's `while (nextCursor)` stops
    // at "" (test/peers/langchain-mcp.test.ts); the AI SDK's `!= null` asks for it.
    const r = await cursorRound('always-empty');
    expect(served(r).slice(0, 3)).toEqual([
      [25, 'peer-0', null, '""', 1],
      [35, 'peer-0', '""', '""', 1],
      [45, 'peer-0', '""', '""', 1],
    ]);
  });

  it('keeps one tool per name, the later definition at the first position', async () => {
    // Two tools named echo (a planted duplicate, different schemas) on one page: toolsFromDefinitions
    // builds `tools[name] = ...` on an object, so one `echo` is shown, with the second descriptor.
    const second = { ...tool('echo'), inputSchema: { type: 'object', properties: { loud: { type: 'boolean' } } } };
    const r = await run(
      handPlan({
        servers: [handServer({ history: [step(0, 1, { 'acme.dev': [tool('echo'), second] })] })],
      }),
    );
    expect(served(r)[0]).toEqual([25, 'peer-0', null, null, 1]);
    expect(publishes(r)[0]).toEqual([30, KEY, 1, null, ['echo']]);
    const page = r.of('page_served')[0]?.tools ?? [];
    expect(r.of('published')[0]?.tools.map((shown) => shown.descriptorDigest)).toEqual([page[1]]);
  });
});

describe('peer:ai-sdk-mcp after the server rotates its identity', () => {
  it("runs the next turn on the session's client, so the key at the new identity is listed again", async () => {
    // F7 at t=200 (before the planner's disclosure at that instant): the key becomes
    // fp:…02|acme.dev. Turns before it: the session's first at t=20 (published at 40) and the
    // disclosure's at t=100 (published at 120). The disclosure at t=200 asks for the new key: it
    // finds nothing published (INCOMPLETE_DISCOVERY) but its turn is `tools()` on the same client,
    // which walks again (pages served at 205 and 215) and is published at 220 under the key the
    // connection presents now; the disclosure at t=300 shows it. Keyed by the identity the
    // connection opened with, no turn ran after t=200 and nothing was served or published.
    const r = await run(
      handPlan({
        faults: ['F7'],
        servers: [
          handServer({
            rotations: [{ atMs: 200, identity: 'fp:0000000000000002' }],
            history: [step(0, 1, { 'acme.dev': tools('read_file', 'write_file', 'echo') })],
          }),
        ],
      }),
    );
    expect(served(r).filter(([at]) => at > 200 && at < 320)).toEqual([
      [205, 'peer-2', null, '0:2', 1],
      [215, 'peer-2', '0:2', null, 1],
      [305, 'peer-3', null, '0:2', 1],
      [315, 'peer-3', '0:2', null, 1],
    ]);
    const all = ['read_file', 'write_file', 'echo'];
    expect(publishes(r).slice(0, 4)).toEqual([
      [40, KEY, 1, null, all],
      [120, KEY, 2, null, all],
      [220, 'fp:0000000000000002|acme.dev', 1, null, all],
      [320, 'fp:0000000000000002|acme.dev', 2, null, all],
    ]);
    expect(r.of('disclosure_refused').map((event) => [event.t, event.code])).toEqual([[200, 'INCOMPLETE_DISCOVERY']]);
    expect(
      r
        .of('disclosure')
        .slice(0, 2)
        .map((event) => [event.t, event.key, event.generation]),
    ).toEqual([
      [100, KEY, 1],
      [300, 'fp:0000000000000002|acme.dev', 1],
    ]);
  });
});
