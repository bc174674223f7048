/**
 * F11: the server restarts between page 1 and page 2 of a walk. Latency 5 ms, pages of 2.
 * scan-0 page 1 is served at 15 (boot 0 cursor `0:2`); the restart at 22 starts boot 1; the
 * request for `0:2` reaches the server at 25 and is refused with -32602 (Invalid params), read at
 * 30 -> INCOMPLETE CURSOR_INVALID. The retry at 31 walks boot 1's cursors and publishes at 71 —
 * with the same revision 7: the revision lives in the server's storage and survives the restart.
 */
import { describe, expect, it } from 'vitest';
import { handPlan, handServer, publishes, runHand, scanEnds, served, step, tools } from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

describe('F11: restart mid-walk', () => {
  it('a restart between page 1 and page 2 gives page_refused -32602 and INCOMPLETE CURSOR_INVALID; the next publish has the same revision', async () => {
    const plan = handPlan({
      faults: ['F11'],
      servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })], restartsAtMs: [22] })],
    });
    const run = await runHand(plan);

    expect(run.of('server_up').map((e) => [e.t, e.boot])).toEqual([
      [0, 0],
      [22, 1],
    ]);
    expect(run.of('page_refused').map((e) => [e.t, e.scanId, e.audience, e.code])).toEqual([
      [25, 'scan-0', 'acme.dev', -32602],
    ]);
    expect(run.of('page_refused')[0]?.cursorIn).toBe(run.of('page_served')[0]?.cursorOut);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [30, 'INCOMPLETE', 'CURSOR_INVALID'],
      [71, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(served(run).filter(([t]) => t < 100)).toEqual([
      [15, 'scan-0', null, '0:2', 7],
      [36, 'scan-1', null, '1:2', 7],
      [46, 'scan-1', '1:2', '1:4', 7],
      [56, 'scan-1', '1:4', null, 7],
      [66, 'scan-1', null, '1:2', 7],
    ]);
    expect(publishes(run)[0]).toEqual([71, KEY, 1, 7, FIVE]);
    expect(run.verdict.violations).toEqual([]);
  });
});
