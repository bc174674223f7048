/**
 * F27: a modern server's listen stream never acknowledged, silenced, completed, or lost with its
 * connection (MCP 2026-07-28). One modern server (latency 5 ms, pages of 2) shows acme.dev two
 * tools at revision 7 and three from t=700 (revision 8); the refresh interval is 1,000 ms. In every case the legacy `initialize` sent at 0 is refused at 10 and the
 * modern connection (connection 1: connection 0 was the refused legacy one) sends its listen at
 * 10. Worked out per kind:
 * - `unacknowledged` in [0, 100): the listen reaching the server at 15 is held; the core gives up
 *   waiting two round trips at the largest latency (4 x 5 ms) after sending it and opens the
 *   session at 30, listing at 35 (recheck 45, published at 50); the change at 700 is pushed
 *   nowhere, and the refresh at 1,050 (1,000 ms after scan-0 ended) publishes revision 8 at 1,080;
 * - `silenced` at 100: the stream acknowledged at 20 goes silent (`listen_silenced` at 100), the
 *   change at 700 is sent undelivered, and the refresh at 1,040 publishes revision 8 at 1,070;
 * - `completed` at 100: the server's result ends the stream at the core at 105 (`listen_ended`
 *   `complete`); the core re-sends its listen on the same connection at once (105, acknowledged
 *   at 115) and takes the gap as a missed `list_changed`: a rescan at 125 finds revision 7 again
 *   and publishes nothing new. The change at 700 is delivered on the new stream at 705: the
 *   rescan at 725 publishes revision 8 at 755 (generation 2), and the refreshes go on every
 *   1,000 ms after a scan ends (1,755, 2,785; the second publishes the same pages as generation
 *   3, its snapshot's expiry renewed);
 * - `dropped` at 100: the world cuts the connection at 100. It had served pages, so the core takes
 *   the loss of its push channel as a reason to walk now: after the coalescing delay (20 ms) the
 *   scan at 120 connects and listens again (acknowledged at 130), where before it waited for its
 *   next poll at 1,040. The mutant that listens only once opens connection 2 at 120 with no
 *   listen: I32 LISTEN_NOT_SENT at its `session_opened`.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { publishes, runHand } from '../support/hand-plan.ts';
import { listenFaultPlan } from '../mutants/plans.ts';

/** The listen stream's life and the sessions, as [t, type, connection or how]. */
function streamLife(run: Awaited<ReturnType<typeof runHand>>): [number, string, unknown][] {
  const types = new Set([
    'listen_requested',
    'listen_acknowledged',
    'listen_silenced',
    'listen_ended',
    'session_opened',
  ]);
  return run.events
    .filter((event) => types.has(event.type))
    .map((event) => {
      const e = event as unknown as { t: number; type: string; connection?: number; how?: string };
      return [e.t, e.type, e.connection ?? e.how ?? null];
    });
}

/** The publishes as [t, generation, revision]. */
const published = (run: Awaited<ReturnType<typeof runHand>>): [number, number, number | null][] =>
  publishes(run).map(([t, , generation, revision]) => [t, generation, revision]);

describe('F27: a listen stream never acknowledged, silenced, completed or lost', () => {
  it('unacknowledged: the core stops waiting after two round trips and lists by polling', async () => {
    const run = await runHand(listenFaultPlan([{ kind: 'unacknowledged', fromMs: 0, toMs: 100 }]));
    expect(run.verdict.violations).toEqual([]);
    expect(streamLife(run)).toEqual([
      [10, 'listen_requested', 1],
      [30, 'session_opened', 1],
    ]);
    expect(published(run)).toEqual([
      [50, 1, 7],
      [1080, 2, 8],
    ]);
  });

  it('silenced: the change is sent undelivered, and the next refresh publishes it', async () => {
    const run = await runHand(listenFaultPlan([{ kind: 'silenced', fromMs: 100, toMs: 100 }]));
    expect(run.verdict.violations).toEqual([]);
    expect(streamLife(run)).toEqual([
      [10, 'listen_requested', 1],
      [20, 'listen_acknowledged', null],
      [20, 'session_opened', 1],
      [100, 'listen_silenced', null],
    ]);
    expect(run.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual([[700, false]]);
    expect(run.of('notification_delivered')).toEqual([]);
    expect(published(run)).toEqual([
      [40, 1, 7],
      [1070, 2, 8],
    ]);
    expect(probesHit(run.events)).toContain('listen-stream-faulted');
  });

  it('completed: the core listens again on the same connection, and rescans for what it may have missed', async () => {
    const run = await runHand(listenFaultPlan([{ kind: 'completed', fromMs: 100, toMs: 100 }]));
    expect(run.verdict.violations).toEqual([]);
    expect(streamLife(run)).toEqual([
      [10, 'listen_requested', 1],
      [20, 'listen_acknowledged', null],
      [20, 'session_opened', 1],
      [105, 'listen_ended', 'complete'],
      [105, 'listen_requested', 1],
      [115, 'listen_acknowledged', null],
    ]);
    expect(run.of('scan_started').map((e) => e.t)).toEqual([20, 125, 725, 1755, 2785]);
    expect(run.of('notification_sent').map((e) => [e.t, e.delivered])).toEqual([[700, true]]);
    expect(published(run)).toEqual([
      [40, 1, 7],
      [755, 2, 8],
      [2815, 3, 8],
    ]);
  });

  it('dropped: the reference core listens on its new connection; the mutant that listens once does not (I32)', async () => {
    const plan = () => listenFaultPlan([{ kind: 'dropped', fromMs: 100, toMs: 100 }]);
    const run = await runHand(plan());
    expect(run.verdict.violations).toEqual([]);
    expect(run.of('disconnected').map((e) => e.t)).toEqual([100]);
    expect(streamLife(run)).toEqual([
      [10, 'listen_requested', 1],
      [20, 'listen_acknowledged', null],
      [20, 'session_opened', 1],
      [100, 'listen_ended', 'disconnected'],
      [120, 'listen_requested', 2],
      [130, 'listen_acknowledged', null],
      [130, 'session_opened', 2],
    ]);
    expect(probesHit(run.events)).toContain('listen-stream-faulted');
    const mutant = MUTANTS.find((candidate) => candidate.name === 'never-resubscribes');
    if (mutant === undefined) throw new Error('no mutant never-resubscribes');
    const broken = await runHand(plan(), mutant.core, 'mutant:never-resubscribes');
    const opened = broken.of('session_opened').at(-1);
    expect([opened?.t, opened?.connection]).toEqual([120, 2]);
    expect(broken.verdict.violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I32', 'LISTEN_NOT_SENT', opened?.seq],
    ]);
  });
});
