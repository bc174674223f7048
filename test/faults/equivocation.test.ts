/**
 * Equivocation: a lying server reports the same revision (7) for two different contents.
 * Latency 5 ms, pages of 2, 5 tools. scan-0 proves revision 7 with content A and publishes at 50.
 * At 100 `list_directory` gets a new option but the revision stays 7; the server notifies
 * (arrives 105), the rescan at 125 walks 3 pages and the recheck (read 165): a complete scan of
 * revision 7 with another descriptor set -> QUARANTINED EQUIVOCATION, the refresh loop stops and the planner is refused with SERVER_DISABLED from then on.
 */
import { describe, expect, it } from 'vitest';
import { handPlan, handServer, publishes, runHand, scanEnds, step, tools } from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

describe('equivocation', () => {
  it('the same revision with different content across two complete scans ends the second QUARANTINED EQUIVOCATION', async () => {
    const a = tools(...FIVE);
    const edited = structuredClone(a[2]!);
    (edited.inputSchema as { properties: Record<string, unknown> }).properties.recursive = { type: 'boolean' };
    const b = [a[0]!, a[1]!, edited, a[3]!, a[4]!];
    const plan = handPlan({
      servers: [
        handServer({
          equivocates: true,
          history: [step(0, 7, { 'acme.dev': a }), step(100, 7, { 'acme.dev': b }, 'EQUIV')],
        }),
      ],
    });
    const run = await runHand(plan);

    expect(run.of('server_up')[0]?.traits).toEqual(['EQUIV']);
    expect(run.of('revision').map((e) => [e.t, e.revision])).toEqual([
      [0, 7],
      [100, 7],
    ]);
    expect(run.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual([[100, true]]);
    expect(run.of('scan_started').map((e) => e.t)).toEqual([10, 125]);
    expect(scanEnds(run)).toEqual([
      [50, 'SNAPSHOT_PROVEN', 'OK'],
      [165, 'QUARANTINED', 'EQUIVOCATION'],
    ]);
    expect(
      run
        .of('scan_ended')
        .filter((e) => e.state === 'QUARANTINED')
        .map((e) => [e.t, e.scanId, e.reason]),
    ).toEqual([[165, 'scan-1', 'EQUIVOCATION']]);
    expect(publishes(run)).toEqual([[50, KEY, 1, 7, FIVE]]);
    expect(run.of('disclosure').map((e) => e.t)).toEqual([100]);
    expect(new Set(run.of('disclosure_refused').map((e) => e.code))).toEqual(new Set(['SERVER_DISABLED']));
    expect(run.of('disclosure_refused')[0]?.t).toBe(200);
    expect(run.verdict.violations).toEqual([]);
  });
});
