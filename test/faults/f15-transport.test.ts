/**
 * F15: transport faults. Latency 5 ms, pages of 2.
 */
import { describe, expect, it } from 'vitest';
import {
  handPlan,
  handServer,
  publishes,
  runHand,
  scanEnds,
  served,
  step,
  tool,
  tools,
  story,
} from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

describe('F15: transport', () => {
  it('a disconnect in the middle of a walk: INCOMPLETE DISCONNECTED, a new session_opened, then a proven publish on the new connection', async () => {
    // scan-0 reads page 1 at 20 and asks for page 2 at 20; the cut at 22 loses that request in
    // flight, so the SDK rejects it (connection closed) and the scan ends DISCONNECTED at 22. The
    // retry at 23 reconnects: initialize 23 -> 28 -> 33, session_opened at 33, then pages served
    // at 38, 48, 58, recheck 68, read 73 -> SNAPSHOT_PROVEN and generation 1.
    const plan = handPlan({
      faults: ['F15'],
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': tools(...FIVE) })],
          linkFaults: { disconnectsAtMs: { 'acme.dev': [22] } },
        }),
      ],
    });
    const run = await runHand(plan);

    expect(story(run).slice(0, 6)).toEqual([
      'session_opened',
      'disconnected',
      'scan_ended INCOMPLETE DISCONNECTED',
      'session_opened',
      'scan_ended SNAPSHOT_PROVEN OK',
      'published g1 r7',
    ]);
    expect(run.of('session_opened').map((e) => [e.t, e.audience])).toEqual([
      [10, 'acme.dev'],
      [33, 'acme.dev'],
    ]);
    expect(run.of('disconnected').map((e) => [e.t, e.server, e.audience])).toEqual([[22, 's0', 'acme.dev']]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [22, 'INCOMPLETE', 'DISCONNECTED'],
      [73, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    // The lost request for page 2 never reached the server. The new connection counts as a
    // list_changed the core may have missed (a notification is not replayed on a new connection),
    // and scan-1 started before it was opened, so scan-2 walks again once scan-1 has ended.
    expect(served(run).filter(([t]) => t < 100)).toEqual([
      [15, 'scan-0', null, '0:2', 7],
      [38, 'scan-1', null, '0:2', 7],
      [48, 'scan-1', '0:2', '0:4', 7],
      [58, 'scan-1', '0:4', null, 7],
      [68, 'scan-1', null, '0:2', 7],
      [98, 'scan-2', null, '0:2', 7],
    ]);
    expect(
      run
        .of('scan_started')
        .slice(0, 2)
        .map((e) => e.t),
    ).toEqual([10, 23]);
    expect(publishes(run)[0]).toEqual([73, KEY, 1, 7, FIVE]);
    expect(run.verdict.violations).toEqual([]);
  });

  it('a stateless gateway (notificationLossFraction 1): no notification reaches the core, and the refresh still converges by T_end', async () => {
    // Generation 1 (revision 7) at 50. `echo` is added at 100 (revision 8); its notification is
    // lost on the way, so nothing happens until the refresh one interval after the publish: the
    // scan at 1050 proves revision 8 (3 pages + recheck) and publishes generation 2 at 1090.
    const a = tools(...FIVE);
    const plan = handPlan({
      faults: ['F15'],
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': a }), step(100, 8, { 'acme.dev': [...a, tool('echo')] }, 'F1')],
          linkFaults: { notificationLossFraction: 1 },
        }),
      ],
    });
    const run = await runHand(plan);

    expect(run.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual([[100, false]]);
    expect(
      run
        .of('scan_started')
        .slice(0, 3)
        .map((e) => e.t),
    ).toEqual([10, 1050, 2090]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [50, 'SNAPSHOT_PROVEN', 'OK'],
      [1090, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(run).slice(0, 2)).toEqual([
      [50, KEY, 1, 7, FIVE],
      [1090, KEY, 2, 8, [...FIVE, 'echo']],
    ]);
    // Converged well before T_end: the last publish holds revision 8.
    expect(run.plan.bounds.tEndMs).toBeGreaterThan(1090);
    expect(run.of('published').at(-1)?.sourceRevision).toBe(8);
    expect(run.status).toBe('settled');
    expect(run.verdict.violations).toEqual([]);
  });
});
