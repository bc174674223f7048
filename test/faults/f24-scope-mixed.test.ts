/**
 * F24: pages of one list that disagree on `cacheScope` (MCP 2026-07-28). One modern server
 * (latency 5 ms, pages of 2, `ttlMs` 250, `private`) shows acme.dev three tools at revision 7;
 * until t=60 every page after page 1 says `public`. Worked out: the session opens at 20 (the
 * legacy `initialize` refused, the modern listen acknowledged); scan-0 reads page 1 (served 25,
 * private) and page 2 (served 35, public) and ends INCOMPLETE CACHE_SCOPE_MIXED at 40; the retry
 * 1 ms later is served at 46 and 56 (still public) and ends so at 61; the next, at 62, is served
 * at 67 and 77 (the window closed at 60: private) and its recheck at 87, and publishes generation
 * 1 at 92. The mutant without the scope check publishes scan-0's mixed pages at 50: I2 SCOPE_MIXED.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { publishes, runHand, scanEnds } from '../support/hand-plan.ts';
import { scopeMixedPlan } from '../mutants/plans.ts';

describe('F24: cacheScope differing between pages of one list', () => {
  it('the reference core admits nothing of a mixed walk and publishes once the pages agree', async () => {
    const run = await runHand(scopeMixedPlan());
    expect(run.verdict.violations).toEqual([]);
    expect(
      run
        .of('page_served')
        .slice(0, 6)
        .map((e) => [e.t, e.scanId, e.cacheScope]),
    ).toEqual([
      [25, 'scan-0', 'private'],
      [35, 'scan-0', 'public'],
      [46, 'scan-1', 'private'],
      [56, 'scan-1', 'public'],
      [67, 'scan-2', 'private'],
      [77, 'scan-2', 'private'],
    ]);
    expect(scanEnds(run).slice(0, 3)).toEqual([
      [40, 'INCOMPLETE', 'CACHE_SCOPE_MIXED'],
      [61, 'INCOMPLETE', 'CACHE_SCOPE_MIXED'],
      [92, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(run)[0]?.slice(0, 4)).toEqual([92, 'fp:0000000000000001|acme.dev', 1, 7]);
    expect(probesHit(run.events).filter((name) => name.startsWith('scope-mixed'))).toEqual([
      'scope-mixed-served',
      'scope-mixed-refused',
    ]);
  });

  it('a core without the scope check publishes the mixed walk: I2 SCOPE_MIXED', async () => {
    const mutant = MUTANTS.find((candidate) => candidate.name === 'ignore-cache-scope');
    if (mutant === undefined) throw new Error('no mutant ignore-cache-scope');
    const run = await runHand(scopeMixedPlan(), mutant.core, 'mutant:ignore-cache-scope');
    expect(publishes(run)[0]?.slice(0, 4)).toEqual([50, 'fp:0000000000000001|acme.dev', 1, 7]);
    expect(run.verdict.violations.map((v) => [v.invariant, v.code])).toEqual([['I2', 'SCOPE_MIXED']]);
  });
});
