/**
 * `peer:langchain-mcp` (`@langchain/mcp-adapters` 1.1.4) on hand plans whose outcome follows from
 * the library's source. Latency 5 ms each way, page size 2: the session opens at t=10 and
 * `loadMcpTools` starts its walk there, page k served at 10k + 5. With the hand plan's defaults
 * T_end = 1000 + 1000 + 2 (1 + 500) + 4 * 5 = 3022 ms.
 */
import { describe, expect, it } from 'vitest';
import { loadLibraryPeer } from '../../cores/peers/index.ts';
import { handPlan, handServer, publishes, runHand, served, step, tools, type HandRun } from '../support/hand-plan.ts';
import type { RoundPlan, ServerPlan } from '../../sim/plan/types.ts';

type CursorTrait = NonNullable<ServerPlan['cursorTrait']>;

const KEY = 'fp:0000000000000001|acme.dev';

async function run(plan: RoundPlan): Promise<HandRun> {
  return runHand(plan, (await loadLibraryPeer('langchain-mcp'))!, 'peer:langchain-mcp');
}

/** `invariant code @seq` of every violation, in the oracle's order. */
function violations(r: HandRun): string[] {
  return r.verdict.violations.map((v) => `${v.invariant} ${v.code} @${v.seq}`);
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

describe('peer:langchain-mcp', () => {
  it('follows never-ending cursors until the round ends, so the agent never gets a tool', async () => {
    // loadMcpTools loops while nextCursor is set, with no cap: the 301st page is served at 3015,
    // the 302nd request (sent at 3020) would arrive after T_end. The round ends at its horizon
    // with that request still open, and nothing was ever returned to the host.
    const r = await cursorRound('never-ending');
    const pages = served(r);
    expect(pages).toHaveLength(301);
    expect(pages.slice(0, 2)).toEqual([
      [15, 'peer-0', null, '0:2', 1],
      [25, 'peer-0', '0:2', '0:4', 1],
    ]);
    expect(pages.at(-1)).toEqual([3015, 'peer-0', '0:600', '0:602', 1]);
    expect([r.status, r.reason]).toEqual(['settled', 'horizon']);
    expect(publishes(r)).toEqual([]);
    // More than 32 requests with a cursor in one scan: reported at the 33rd (the 34th page).
    expect(violations(r)).toEqual([`I13 PAGE_LIMIT_EXCEEDED @${r.of('page_served')[33]?.seq}`]);
  });

  it('asks for a repeated cursor again and again', async () => {
    // F5 repeat: every page after the first hands back cursor 0:2, and loadMcpTools asks for it
    // again: 300 requests for the same cursor, and still no tools.
    const r = await cursorRound('repeat');
    const pages = served(r);
    expect(pages).toHaveLength(301);
    expect(
      pages
        .slice(1)
        .every(([, scan, cursorIn, cursorOut]) => scan === 'peer-0' && cursorIn === '0:2' && cursorOut === '0:2'),
    ).toBe(true);
    expect(publishes(r)).toEqual([]);
    expect(violations(r)).toEqual([
      `I13 CURSOR_REQUESTED_TWICE @${r.of('page_served')[2]?.seq}`,
      `I13 PAGE_LIMIT_EXCEEDED @${r.of('page_served')[33]?.seq}`,
    ]);
  });

  it('ends its walk at an empty-string cursor, so only page 1 is loaded', async () => {
    // F5 always-empty: page 1 hands back nextCursor "". loadMcpTools loops `while
    // (toolsResponse.nextCursor)` (dist/tools.js), and "" is falsy: the walk ends after page 1.
    const r = await cursorRound('always-empty');
    // Page 1 (read_file, write_file of the 4) is served at 15 and is the only page asked for; the
    // 2 tools are handed to the host at 20, a list whose last page still names a next cursor.
    expect(served(r)).toEqual([[15, 'peer-0', null, '""', 1]]);
    expect(publishes(r)).toEqual([[20, KEY, 1, null, ['read_file', 'write_file']]]);
    expect(violations(r)).toEqual([`I2 CHAIN_BROKEN @${r.of('published')[0]?.seq}`]);
  });

  it('checks arguments against the schema before it sends a call, so calls with broken arguments never leave the host', async () => {
    // Every planner tick (t=100..900) plans a read_file call with a broken "path"; the
    // DynamicStructuredTool refuses each before tools/call (ToolInputParsingException), which the
    // lease convention writes as the host's ARGS_INVALID. Only the quiet tail's probe, with valid
    // arguments, reaches the server: the host's ADMIT, with the testbed's lease (the tenth issued:
    // a lease is issued for each call before the host decides), executed at 2043.
    const r = await run(
      handPlan({
        calls: { callFraction: 1, invalidArgsFraction: 1 },
        servers: [handServer({ history: [step(0, 1, { 'acme.dev': tools('read_file') })] })],
      }),
    );
    expect(publishes(r)).toEqual([[20, KEY, 1, null, ['read_file']]]);
    expect(r.of('plan_made').map((e) => [e.t, e.kind])).toEqual(
      [100, 200, 300, 400, 500, 600, 700, 800, 900].map((t) => [t, 'normal']).concat([[2022, 'probe']]),
    );
    expect(r.of('gate_decision').map((e) => [e.t, e.decision])).toEqual(
      [111, 207, 304, 403, 502, 606, 706, 816, 913]
        .map((t): [number, string] => [t, 'ARGS_INVALID'])
        .concat([[2038, 'ADMIT']]),
    );
    expect(r.of('call_refused_by_server')).toEqual([]);
    expect(r.of('call_executed').map((e) => [e.t, e.tool, e.leaseId])).toEqual([[2043, 'read_file', 'peer-lease-9']]);
    expect(r.of('call_sent').map((e) => [e.t, e.tool])).toEqual([[2038, 'read_file']]); // the only call on the wire, 16 ms after the probe was planned
    expect(violations(r)).toEqual([]);
  });
});
