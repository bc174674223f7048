/**
 * F28: an invalid cursor after a stateless node swap (MCP 2026-07-28). One modern server (latency
 * 5 ms, pages of 2, `ttlMs` 250, `private`) shows acme.dev three tools at revision 7; a node swap
 * is armed from t=0. Worked out: the legacy `initialize` sent at 0 is refused at 10, the modern
 * connection's listen (sent at 10) is acknowledged at 20 and the session opens then; scan-0's
 * page 1 is served at 25 with a next cursor, and the swap happens right after it, so the cursor
 * it handed out belongs to the old node: the request for page 2 is refused at 35 with -32602, and
 * scan-0 ends INCOMPLETE CURSOR_INVALID at 40 (one latency later). The retry, scan-1, starts 1 ms
 * later (the back-off) and reads page 1 at 46, page 2 at 56 (the new node issued that cursor
 * itself: the same text, good again) and the recheck at 66, and publishes generation 1 at 71 from
 * those pages only. The mutant that keeps the pages re-reads from page 1 under scan-0 (45, 55, 65)
 * and publishes at 70 a snapshot holding page 1 of 25 as well: I31 INVALID_CURSOR_PAGE_KEPT.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { publishes, runHand, scanEnds } from '../support/hand-plan.ts';
import { nodeSwapPlan } from '../mutants/plans.ts';

describe('F28: an invalid cursor after a stateless node swap', () => {
  it('the reference core drops the failed walk and publishes a fresh one from page 1', async () => {
    const run = await runHand(nodeSwapPlan());
    expect(run.verdict.violations).toEqual([]);
    const answers = [...run.of('page_served'), ...run.of('page_refused')]
      .sort((a, b) => a.seq - b.seq)
      .slice(0, 5)
      .map((e) => [e.t, e.type, e.scanId, e.cursorIn === null ? 'page 1' : 'page 2']);
    expect(answers).toEqual([
      [25, 'page_served', 'scan-0', 'page 1'],
      [35, 'page_refused', 'scan-0', 'page 2'],
      [46, 'page_served', 'scan-1', 'page 1'],
      [56, 'page_served', 'scan-1', 'page 2'],
      [66, 'page_served', 'scan-1', 'page 1'],
    ]);
    expect(run.of('page_refused').map((e) => e.code)).toEqual([-32602]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [40, 'INCOMPLETE', 'CURSOR_INVALID'],
      [71, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(run)[0]?.slice(0, 4)).toEqual([71, 'fp:0000000000000001|acme.dev', 1, 7]);
    expect(run.of('published')[0]?.scanId).toBe('scan-1');
    expect(probesHit(run.events)).toContain('cursor-invalidated');
  });

  it('a core that keeps the pages read before the refusal is caught: I31 INVALID_CURSOR_PAGE_KEPT', async () => {
    const mutant = MUTANTS.find((candidate) => candidate.name === 'keep-invalid-cursor-pages');
    if (mutant === undefined) throw new Error('no mutant keep-invalid-cursor-pages');
    const run = await runHand(nodeSwapPlan(), mutant.core, 'mutant:keep-invalid-cursor-pages');
    expect(run.of('page_served').map((e) => [e.t, e.scanId])).toEqual([
      [25, 'scan-0'],
      [45, 'scan-0'],
      [55, 'scan-0'],
      [65, 'scan-0'],
      [1075, 'scan-1'],
      [1085, 'scan-1'],
      [1095, 'scan-1'],
    ]);
    const publish = run.of('published')[0];
    expect([publish?.t, publish?.scanId, publish?.pages.length]).toEqual([70, 'scan-0', 3]);
    const i31 = run.verdict.violations.filter((v) => v.invariant === 'I31');
    expect(i31.map((v) => [v.code, v.seq])).toEqual([['INVALID_CURSOR_PAGE_KEPT', publish?.seq]]);
  });
});
