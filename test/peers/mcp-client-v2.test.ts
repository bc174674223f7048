/**
 * `peer:mcp-client-v2` (`@modelcontextprotocol/client` 2.4.0) on hand plans whose outcome follows
 * from the library's source. Latency 5 ms each way and page size 2, so (hand-plan.ts): the
 * session opens at t=10, the first walk starts there, and page k of a walk started at S is
 * served at S + 10k - 5 and read at S + 10k.
 */
import { describe, expect, it } from 'vitest';
import { loadLibraryPeer } from '../../cores/peers/index.ts';
import { handPlan, handServer, publishes, runHand, served, step, tools, type HandRun } from '../support/hand-plan.ts';
import type { RoundPlan } from '../../sim/plan/types.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const SIX = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file', 'get_weather'];

async function run(plan: RoundPlan): Promise<HandRun> {
  return runHand(plan, (await loadLibraryPeer('mcp-client-v2'))!, 'peer:mcp-client-v2');
}

/** `invariant code @seq` of every violation, in the oracle's order. */
function violations(r: HandRun): string[] {
  return r.verdict.violations.map((v) => `${v.invariant} ${v.code} @${v.seq}`);
}

describe('peer:mcp-client-v2', () => {
  it('ends the walk at a repeated cursor with the same items and returns the 4 tools of 6 it read as the whole list', async () => {
    // The server hands back the cursor it was asked for (F5 repeat). Page 2 (cursor 0:2) comes
    // back with nextCursor 0:2: same cursor, but other items than page 1, so _walkPages keeps it
    // and asks for 0:2 again; page 3 is page 2 again, and "same nextCursor, same items" ends the
    // walk without an error. listTools() returns pages 1 and 2: 4 of the 6 tools.
    const r = await run(
      handPlan({
        servers: [handServer({ cursorTrait: 'repeat', history: [step(0, 1, { 'acme.dev': tools(...SIX) })] })],
      }),
    );
    expect(served(r)).toEqual([
      [15, 'peer-0', null, '0:2', 1],
      [25, 'peer-0', '0:2', '0:2', 1],
      [35, 'peer-0', '0:2', '0:2', 1],
    ]);
    expect(publishes(r)).toEqual([[40, KEY, 1, null, SIX.slice(0, 4)]]);
    // Cursor 0:2 asked twice in one scan (I13); the snapshot is not a terminated chain and holds
    // fewer tools than its pages (I2). F5 takes the server out of liveness, so I12 is silent.
    expect(violations(r)).toEqual(['I13 CURSOR_REQUESTED_TWICE @8', 'I2 CHAIN_BROKEN @9', 'I2 TOOLS_MISMATCH @9']);
  });

  it('returns a walk that a list_changed interrupted, mixing two revisions, and replaces it 300 ms after the notification', async () => {
    // Revision 2 at t=22 puts "echo" in front, between page 1 (served 15) and page 2 (served 25),
    // and its list_changed reaches the client at 27. The client evicts tools/list and arms its
    // 300 ms debounce, but the walk under way goes on and listTools() still returns it: page 1 of
    // revision 1 then pages 2-4 of revision 2, so "write_file" twice and no "echo" (the cache
    // write of that walk is skipped, the caller's copy is not). The refresh runs at 327.
    const six = tools(...SIX);
    const r = await run(
      handPlan({
        servers: [
          handServer({
            history: [step(0, 1, { 'acme.dev': six }), step(22, 2, { 'acme.dev': [...tools('echo'), ...six] }, 'F1')],
          }),
        ],
      }),
    );
    expect(served(r)).toEqual([
      [15, 'peer-0', null, '0:2', 1],
      [25, 'peer-0', '0:2', '0:4', 2],
      [35, 'peer-0', '0:4', '0:6', 2],
      [45, 'peer-0', '0:6', null, 2],
      [332, 'peer-1', null, '0:2', 2],
      [342, 'peer-1', '0:2', '0:4', 2],
      [352, 'peer-1', '0:4', '0:6', 2],
      [362, 'peer-1', '0:6', null, 2],
    ]);
    expect(publishes(r)).toEqual([
      [
        50,
        KEY,
        1,
        null,
        ['read_file', 'write_file', 'write_file', 'list_directory', 'search_files', 'move_file', 'get_weather'],
      ],
      [367, KEY, 2, null, ['echo', ...SIX]],
    ]);
    // Generation 1 mixes pages served at revisions 1 and 2 (I2). Under the lease convention of a
    // host without a gate (GatelessCalls) the 7 probe calls of the quiet tail are the peer's
    // ADMITs, leased and executed, so I12 finds nothing. Its 300 ms debounce misses the
    // scenario's refresh bound: I19 is judged on the pages the world served (issue 27), not on
    // scan_started events a peer never reports, so the delivery (seq 10) whose fresh page 1 came
    // about 300 ms later is REFRESH_STARVED. The probes are sent in the quiet tail, long after the
    // refresh's whole fresh list was served, so the world's side of I18 finds nothing; the peer
    // reports no scan in the round, so the receipt-side barrier (CALL_BEFORE_FRESH_LIST) does not
    // judge its 7 receipts: I18 finds nothing here.
    expect(r.of('scan_started')).toEqual([]);
    expect(r.of('notification_delivered').map((e) => [e.seq, e.t])).toEqual([[10, 27]]);
    expect(violations(r)).toEqual(['I19 REFRESH_STARVED @10', 'I2 MIXED_REVISIONS @13']);
    expect(r.of('receipt').map((e) => e.seq)).toEqual([38, 41, 44, 47, 50, 55, 58]);
    expect(r.of('call_refused_by_server')).toEqual([]);
    expect(r.of('call_executed')).toHaveLength(7);
  });

  it('gives up after listMaxPages (64) pages of a never-ending walk and shows nothing', async () => {
    // F5 never-ending: every page has a next cursor. _walkPages throws ListPaginationExceeded
    // before asking for page 65, so listTools() rejects and the host has no list to show.
    const r = await run(
      handPlan({
        servers: [handServer({ cursorTrait: 'never-ending', history: [step(0, 1, { 'acme.dev': tools(...SIX) })] })],
      }),
    );
    expect(r.of('page_served')).toHaveLength(64);
    expect(r.of('page_served').at(-1)?.t).toBe(10 + 640 - 5);
    expect(publishes(r)).toEqual([]);
    // 63 requests with a cursor is over this plan's bound of 32 (I13 applies it to every scan):
    // the oracle reports the 33rd of them, which is the scan's 34th page.
    expect(violations(r).filter((v) => v.startsWith('I13'))).toEqual([
      `I13 PAGE_LIMIT_EXCEEDED @${r.of('page_served')[33]?.seq}`,
    ]);
  });
});

describe('peer:mcp-client-v2 after the server rotates its identity', () => {
  it("publishes the library's re-list under the key the connection presents now and sends calls at the new identity", async () => {
    // F7 at t=200: the key becomes fp:…02|acme.dev. Revision 2 at t=300 adds "echo"; its
    // list_changed reaches the client at 305, the 300 ms debounce runs listTools() at 605: pages
    // served at 610 and 620, the list handed to onChanged at 625. The same connection presents
    // fp:…02 now, so that list is generation 1 of the new key, and the disclosures from t=700 show
    // it. The probe calls (t=2022 on, at the new identity) go through the same client: 3 sent, 3
    // executed. Keyed by the identity the connection opened with, the re-list was generation 2 of
    // fp:…01, every disclosure at fp:…02 was INCOMPLETE_DISCOVERY, no call was sent (I12 NOT_PUBLISHED).
    const r = await run(
      handPlan({
        faults: ['F7'],
        servers: [
          handServer({
            rotations: [{ atMs: 200, identity: 'fp:0000000000000002' }],
            history: [
              step(0, 1, { 'acme.dev': tools('read_file', 'write_file') }),
              step(300, 2, { 'acme.dev': tools('read_file', 'write_file', 'echo') }, 'F1'),
            ],
          }),
        ],
      }),
    );
    expect(served(r)).toEqual([
      [15, 'peer-0', null, null, 1],
      [610, 'peer-1', null, '0:2', 2],
      [620, 'peer-1', '0:2', null, 2],
    ]);
    expect(publishes(r)).toEqual([
      [20, KEY, 1, null, ['read_file', 'write_file']],
      [625, 'fp:0000000000000002|acme.dev', 1, null, ['read_file', 'write_file', 'echo']],
    ]);
    expect(r.of('disclosure_refused').map((event) => event.t)).toEqual([200, 300, 400, 500, 600]);
    expect(r.of('disclosure').map((event) => [event.t, event.key, event.generation])).toEqual([
      [100, KEY, 1],
      [700, 'fp:0000000000000002|acme.dev', 1],
      [800, 'fp:0000000000000002|acme.dev', 1],
      [900, 'fp:0000000000000002|acme.dev', 1],
      [2022, 'fp:0000000000000002|acme.dev', 1],
    ]);
    expect(r.of('call_sent').map((event) => [event.t, event.tool])).toEqual([
      [2029, 'read_file'],
      [2030, 'echo'],
      [2038, 'write_file'],
    ]);
    expect(r.of('call_executed')).toHaveLength(3);
    // The debounce misses the refresh bound (I19); the new key converged, so I12 finds nothing.
    expect(violations(r)).toEqual(['I19 REFRESH_STARVED @15']);
  });
});
