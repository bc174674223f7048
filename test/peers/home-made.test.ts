/**
 * The home-made peer `peer:sdk-autorefresh` (the SDK 1.32.2 `Client`'s own `listChanged`
 * auto-refresh) on a hand plan: two sessions of one server, latency 5 ms, page size 2.
 */
import { describe, expect, it } from 'vitest';
import { PEERS } from '../../cores/peers/index.ts';
import { handPlan, handServer, publishes, runHand, served, step, tools } from '../support/hand-plan.ts';

describe('peer:sdk-autorefresh', () => {
  it('refreshes each session under its own key after list_changed, with the first page only', async () => {
    // Revision 2 at t=300 grows both views and notifies both sessions (delivered at 305). The
    // SDK debounces 300 ms and then calls listTools() once, without following nextCursor: acme.dev
    // now has 3 tools on 2 pages and gets the first page (2 tools) as its whole list. Each
    // session's refresh is published under its own key (the adapter once filed every refresh
    // under the key of whichever session opened last).
    const r = await runHand(
      handPlan({
        servers: [
          handServer({
            audiences: ['acme.dev', 'acme.ops'],
            history: [
              step(0, 1, { 'acme.dev': tools('read_file', 'write_file'), 'acme.ops': tools('echo') }),
              step(
                300,
                2,
                {
                  'acme.dev': tools('read_file', 'write_file', 'get_weather'),
                  'acme.ops': tools('echo', 'send_email'),
                },
                'F1',
              ),
            ],
          }),
        ],
      }),
      PEERS['sdk-autorefresh']!,
      'peer:sdk-autorefresh',
    );
    expect(served(r)).toEqual([
      [15, 'peer-0', null, null, 1],
      [15, 'peer-1', null, null, 1],
      [610, 'peer-2', null, '0:2', 2],
      [610, 'peer-3', null, null, 2],
    ]);
    expect(publishes(r)).toEqual([
      [20, 'fp:0000000000000001|acme.dev', 1, null, ['read_file', 'write_file']],
      [20, 'fp:0000000000000001|acme.ops', 1, null, ['echo']],
      [615, 'fp:0000000000000001|acme.dev', 2, null, ['read_file', 'write_file']],
      [615, 'fp:0000000000000001|acme.ops', 2, null, ['echo', 'send_email']],
    ]);
    // acme.dev's generation 2 ends on a page with a next cursor (I2) and lacks get_weather at the
    // end (I12 NOT_CONVERGED); under the lease convention of a host without a gate (GatelessCalls)
    // the 4 probe calls are the peer's ADMITs, leased, executed (seqs 56, 57, 58, 65) and decided,
    // so no PROBE_NOT_DECIDED. Judged on the pages the world served (issue 27): the two deliveries
    // (seqs 22 and 23) got their page 1 at 610, past the refresh bound (I19), and acme.dev's
    // refresh read page 1 only, so its walk never reached a last page and its two probe calls left
    // before any whole fresh list (I18 CALL_BEFORE_RELIST at their call_sent, seqs 49 and 55).
    // acme.ops's refresh was whole (one page), so the world's side finds nothing there; the peer
    // reports no scan in the round, so the receipt-side barrier (CALL_BEFORE_FRESH_LIST) does not
    // judge its two receipts (seqs 51 and 60): a core's silence manufactures no verdict.
    expect(r.verdict.violations.map((v) => `${v.invariant} ${v.code} @${v.seq}`)).toEqual([
      'I19 REFRESH_STARVED @22',
      'I19 REFRESH_STARVED @23',
      'I2 CHAIN_BROKEN @32',
      'I18 CALL_BEFORE_RELIST @49',
      'I18 CALL_BEFORE_RELIST @55',
      'I12 NOT_CONVERGED @67',
    ]);
  });
});

describe('peer:sdk-autorefresh after the server rotates its identity', () => {
  it("publishes the SDK's auto-refresh under the key the connection presents now and sends calls at the new identity", async () => {
    // F7 at t=200: the key becomes fp:…02|acme.dev. Revision 2 at t=300 adds "echo" on a second
    // page; its list_changed reaches the client at 305, the 300 ms debounce runs listTools() at
    // 605, which reads page 1 only (served at 610, next cursor 0:2) and hands it to onChanged at
    // 615. The connection presents fp:…02 now, so that list is generation 1 of the new key. The
    // probe calls at the new identity go through the same client: read_file and write_file are
    // sent and executed. Keyed by the identity the connection opened with, the refresh was
    // generation 2 of fp:…01 and no call was sent (I12 NOT_PUBLISHED).
    const r = await runHand(
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
      PEERS['sdk-autorefresh']!,
      'peer:sdk-autorefresh',
    );
    expect(served(r)).toEqual([
      [15, 'peer-0', null, null, 1],
      [610, 'peer-1', null, '0:2', 2],
    ]);
    expect(publishes(r)).toEqual([
      [20, 'fp:0000000000000001|acme.dev', 1, null, ['read_file', 'write_file']],
      [615, 'fp:0000000000000002|acme.dev', 1, null, ['read_file', 'write_file']],
    ]);
    expect(r.of('disclosure').map((event) => [event.t, event.key, event.generation])).toEqual([
      [100, 'fp:0000000000000001|acme.dev', 1],
      [700, 'fp:0000000000000002|acme.dev', 1],
      [800, 'fp:0000000000000002|acme.dev', 1],
      [900, 'fp:0000000000000002|acme.dev', 1],
      [2022, 'fp:0000000000000002|acme.dev', 1],
    ]);
    expect(r.of('call_sent').map((event) => [event.t, event.tool])).toEqual([
      [2029, 'read_file'],
      [2038, 'write_file'],
    ]);
    expect(r.of('call_executed')).toHaveLength(2);
    // Page 1 only: the chain is cut (I2), echo never shown (I12 NOT_CONVERGED), and the probe
    // calls leave before any whole fresh list (I18).
    expect(r.verdict.violations.map((v) => `${v.invariant} ${v.code} @${v.seq}`)).toEqual([
      'I19 REFRESH_STARVED @15',
      'I2 CHAIN_BROKEN @20',
      'I18 CALL_BEFORE_RELIST @30',
      'I18 CALL_BEFORE_RELIST @34',
      'I12 NOT_CONVERGED @38',
    ]);
  });
});
