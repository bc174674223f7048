/**
 * F3: `tools/list_changed` after page 2, late, and in bursts. Latency 5 ms, pages of 2 tools,
 * coalescing delay (listChangedDelayMs) 20 ms, refresh interval 1000 ms.
 */
import { describe, expect, it } from 'vitest';
import { handPlan, handServer, publishes, runHand, scanEnds, served, step, tool, tools } from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

/** `t` of every `scan_started`. */
const starts = (run: Awaited<ReturnType<typeof runHand>>) => run.of('scan_started').map((e) => e.t);

describe('F3: list_changed', () => {
  it('a list_changed right after page 2 ends the scan INCOMPLETE LIST_CHANGED; the rescan (after T_heal) is proven', async () => {
    // T_heal = 50: the server notifies after page 2 of every scan that reaches page 2 before 50.
    // scan-0: page 2 served at 25 -> notification sent at 25, delivered at 30 right after the
    // page-2 reply; page 3 served 35, read 40 -> LIST_CHANGED (the notification came after the
    // scan started). Retry at 41: page 2 is served at 56 >= T_heal, no notification; pages
    // 46, 56, 66, recheck 76, read 81 -> SNAPSHOT_PROVEN, generation 1.
    const plan = handPlan({
      faults: ['F3'],
      tHealMs: 50,
      servers: [
        handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })], notifications: { afterPage2: true } }),
      ],
    });
    const run = await runHand(plan);

    expect(run.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual([[25, true]]);
    expect(served(run).filter(([t]) => t < 100)).toEqual([
      [15, 'scan-0', null, '0:2', 7],
      [25, 'scan-0', '0:2', '0:4', 7],
      [35, 'scan-0', '0:4', null, 7],
      [46, 'scan-1', null, '0:2', 7],
      [56, 'scan-1', '0:2', '0:4', 7],
      [66, 'scan-1', '0:4', null, 7],
      [76, 'scan-1', null, '0:2', 7],
    ]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [40, 'INCOMPLETE', 'LIST_CHANGED'],
      [81, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(run)[0]).toEqual([81, KEY, 1, 7, FIVE]);
    expect(run.verdict.violations).toEqual([]);
  });

  it('a late list_changed (lateByMs 300) that arrives after the scan ended triggers one coalesced rescan', async () => {
    // scan-0 proves revision 7 at 50 (recheck served at 45). `echo` is added at 47, after the
    // recheck was served; its notification is sent at 47 and arrives 5 + 300 ms later, at 352,
    // with the refresher idle: one rescan at 352 + 20 = 372 proves revision 8 (pages 377, 387,
    // 397, recheck 407) and publishes generation 2 at 412, long before the refresh at 1050.
    const a = tools(...FIVE);
    const plan = handPlan({
      faults: ['F3'],
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': a }), step(47, 8, { 'acme.dev': [...a, tool('echo')] }, 'F1')],
          notifications: { lateByMs: 300 },
        }),
      ],
    });
    const run = await runHand(plan);

    expect(run.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual([[47, true]]);
    expect(starts(run).filter((t) => t < 1000)).toEqual([10, 372]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [50, 'SNAPSHOT_PROVEN', 'OK'],
      [412, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(run).slice(0, 2)).toEqual([
      [50, KEY, 1, 7, FIVE],
      [412, KEY, 2, 8, [...FIVE, 'echo']],
    ]);
    expect(run.verdict.violations).toEqual([]);
  });

  // Regression (fixed in sim/transport/link.ts): a late notification is out of the FIFO, so page 2
  // (served at 25) arrives at 30 and ends the scan REVISION_MOVED there; it is not accepted, so
  // the next page_read is the retry's page 1 at 41. The notification itself lands at 327.
  it('a late list_changed sent mid-scan does not hold back the page replies sent after it', async () => {
    const a = tools(...FIVE);
    const plan = handPlan({
      faults: ['F3'],
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': a }), step(22, 8, { 'acme.dev': [...a, tool('echo')] }, 'F1')],
          notifications: { lateByMs: 300 },
        }),
      ],
    });
    const run = await runHand(plan);

    expect(served(run)[1]).toEqual([25, 'scan-0', '0:2', '0:4', 8]);
    expect(
      run
        .of('page_read')
        .map((e) => e.t)
        .slice(0, 2),
    ).toEqual([20, 41]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [30, 'INCOMPLETE', 'REVISION_MOVED'],
      [71, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
  });

  // Regression (seed 12 round 509 of `modern`, fixed in sim/faults/f03-list-changed.ts): the late
  // rule held every notification, so a modern-era server's `subscriptions/listen` acknowledgement
  // came 300 ms late and the session opened at 320, not 20. Only the list_changed is late now.
  it('on a modern-era server only the list_changed is late, not the listen acknowledgement', async () => {
    // initialize sent at 0, answered -32022 at 5 (read 10); listen sent at 10, served 15,
    // acknowledged at 20: the session opens and scan-0 starts at 20. `echo` is added at 100; its
    // list_changed arrives 5 + 300 ms later, at 405, and the rescan starts 20 ms after it.
    const a = tools(...FIVE);
    const server = handServer({
      history: [step(0, 7, { 'acme.dev': a }), step(100, 8, { 'acme.dev': [...a, tool('echo')] }, 'F1')],
      notifications: { lateByMs: 300 },
    });
    const plan = handPlan({
      faults: ['F3'],
      servers: [{ ...server, era: 'modern', cacheTtlMs: 250, cacheScope: 'private' }],
    });
    const run = await runHand(plan);

    expect(run.of('listen_acknowledged').map((e) => e.t)).toEqual([20]);
    expect(run.of('session_opened').map((e) => e.t)).toEqual([20]);
    expect(run.of('notification_delivered').map((e) => e.t)).toEqual([405]);
    expect(starts(run).slice(0, 2)).toEqual([20, 425]);
    expect(publishes(run).slice(0, 2)).toEqual([
      [60, KEY, 1, 7, FIVE],
      [465, KEY, 2, 8, [...FIVE, 'echo']],
    ]);
    expect(run.verdict.violations).toEqual([]);
  });

  it('a burst of 5 copies of one list_changed gives exactly one rescan, 20 ms after the first copy', async () => {
    // scan-0 publishes revision 7 at 50. `echo` is added at 100; 5 notifications are sent at 100
    // and all arrive at 105; the first schedules a rescan at 125, the other 4 find it already due
    // no later and change nothing. The rescan proves revision 8 at 165 (3 pages + recheck).
    const a = tools(...FIVE);
    const plan = handPlan({
      faults: ['F3'],
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': a }), step(100, 8, { 'acme.dev': [...a, tool('echo')] }, 'F1')],
          notifications: { copies: 5 },
        }),
      ],
    });
    const run = await runHand(plan);

    expect(run.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual(
      Array.from({ length: 5 }, () => [100, true]),
    );
    expect(starts(run).filter((t) => t < 1000)).toEqual([10, 125]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [50, 'SNAPSHOT_PROVEN', 'OK'],
      [165, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(run).slice(0, 2)).toEqual([
      [50, KEY, 1, 7, FIVE],
      [165, KEY, 2, 8, [...FIVE, 'echo']],
    ]);
    // The next scan is the refresh, one interval after the publish: nothing else was queued.
    expect(starts(run).filter((t) => t > 165)[0]).toBe(1165);
    expect(run.verdict.violations).toEqual([]);
  });

  it('notifications spread over the coalescing window do not postpone the rescan (no resetting debounce)', async () => {
    // Changes at 100 (revision 8) and 112 (revision 9); notifications arrive at 105 and 117. The
    // rescan stays at 105 + 20 = 125 (a resetting debounce would move it to 137) and proves 9:
    // 7 tools are 4 pages (read at 135, 145, 155, 165) and the recheck is read at 175.
    const a = tools(...FIVE);
    const plan = handPlan({
      faults: ['F3'],
      servers: [
        handServer({
          history: [
            step(0, 7, { 'acme.dev': a }),
            step(100, 8, { 'acme.dev': [...a, tool('echo')] }, 'F1'),
            step(112, 9, { 'acme.dev': [...a, tool('echo'), tool('get-sum')] }, 'F1'),
          ],
        }),
      ],
    });
    const run = await runHand(plan);

    expect(run.of('notification_sent').map((e) => e.t)).toEqual([100, 112]);
    expect(starts(run).filter((t) => t < 1000)).toEqual([10, 125]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [50, 'SNAPSHOT_PROVEN', 'OK'],
      [175, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(run)[1]).toEqual([175, KEY, 2, 9, [...FIVE, 'echo', 'get-sum']]);
    expect(run.verdict.violations).toEqual([]);
  });

  it('a list_changed sent without declaring tools.listChanged is still a hint: one rescan 20 ms after it arrives', async () => {
    // Generation 1 at 50; `echo` added at 100; the undeclared notification arrives at 105; the
    // rescan at 125 proves revision 8 at 165 (3 pages + recheck).
    const a = tools(...FIVE);
    const plan = handPlan({
      faults: ['F3'],
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': a }), step(100, 8, { 'acme.dev': [...a, tool('echo')] }, 'F1')],
          notifications: { declared: false },
        }),
      ],
    });
    const run = await runHand(plan);

    expect(run.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual([[100, true]]);
    expect(starts(run).filter((t) => t < 1000)).toEqual([10, 125]);
    expect(publishes(run).slice(0, 2)).toEqual([
      [50, KEY, 1, 7, FIVE],
      [165, KEY, 2, 8, [...FIVE, 'echo']],
    ]);
    expect(run.verdict.violations).toEqual([]);
  });
});
