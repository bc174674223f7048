/**
 * F20: a burst of `list_changed` with no change behind it. One server (latency 5 ms, pages of 2)
 * shows acme.dev three tools; from t=200 it sends a notification every 10 ms, 60 in all (200 to
 * 790), each reaching the core 5 ms later (205 to 795). The coalescing delay is 20 ms.
 *
 * The reference refresher schedules a scan 20 ms after the first delivery (225) and never lets a
 * later one postpone it; every scan the burst interrupts ends INCOMPLETE and is retried 1 ms
 * later, so a scan starts every 11 ms through the burst (the last at 804). A refresher whose
 * debounce resets on every notification starts no scan until 20 ms after the last delivery
 * (815), whose page 1 reaches the server at 820: each of the first 59 deliveries was owed page 1
 * of a fresh list at the server 20 ms plus one 5 ms latency after it (I19 REFRESH_STARVED, judged
 * on the pages the world served); the 60th's deadline is 820 itself.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import type { RoundPlan } from '../../sim/plan/types.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { handPlan, handServer, runHand, step, tools } from '../support/hand-plan.ts';

const plan = (): RoundPlan =>
  handPlan({
    faults: ['F20'],
    servers: [
      {
        ...handServer({ history: [step(0, 7, { 'acme.dev': tools('read_file', 'write_file', 'list_directory') })] }),
        notificationBursts: [{ atMs: 200, everyMs: 10, count: 60 }],
      },
    ],
  });

describe('F20: notification bursts', () => {
  it('the reference refreshes 20 ms into the burst and every 11 ms after; nothing is starved', async () => {
    const run = await runHand(plan());
    const deliveries = run.of('notification_delivered').map((e) => e.t);
    expect([deliveries.length, deliveries[0], deliveries.at(-1)]).toEqual([60, 205, 795]);
    const starts = run
      .of('scan_started')
      .map((e) => e.t)
      .filter((t) => t < 1000);
    expect(starts.slice(0, 4)).toEqual([10, 225, 236, 247]);
    expect(starts.at(-1)).toBe(804);
    expect(probesHit(run.events)).toContain('refreshed-during-burst');
    expect(run.verdict.violations).toEqual([]);
  });

  it('a debounce that resets on every notification starts no scan from 10 to 815: I19 REFRESH_STARVED for each of the first 59 deliveries', async () => {
    const mutant = MUTANTS.find((m) => m.name === 'resetting-debounce')!;
    const run = await runHand(plan(), mutant.core, 'mutant:resetting-debounce');
    expect(
      run
        .of('scan_started')
        .map((e) => e.t)
        .filter((t) => t < 1000),
    ).toEqual([10, 815]);
    const findings = run.verdict.violations;
    expect(new Set(findings.map((v) => `${v.invariant} ${v.code}`))).toEqual(new Set(['I19 REFRESH_STARVED']));
    expect(findings.length).toBe(59);
    expect(probesHit(run.events)).not.toContain('refreshed-during-burst');
    expect(findings[0]?.evidence).toBe(
      'a list_changed for fp:0000000000000001|acme.dev reached the core at t=205 (seq 19); a fresh list was due by t=230, but the server answered the next fresh tools/list for that audience at t=820 (seq 145)',
    );
  });
});
