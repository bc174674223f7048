import { describe, expect, it } from 'vitest';
import { runCampaign } from '../sim/campaign/campaign.ts';
import { resolveCore } from '../sim/campaign/cores.ts';
import { runAndCheck } from '../sim/campaign/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';

/** The same 40 rounds of seed "1", in this thread, on a given core. */
async function campaign(core: string) {
  return runCampaign({ seed: '1', scenario: loadScenario('default'), core, firstRound: 0, rounds: 40, workers: 0, determinismEvery: 0 });
}

describe('deliberately wrong cores are caught by the same campaign', () => {
  it('the reference core has zero violations on these rounds', async () => {
    const report = await campaign('reference');
    expect(report.failingRounds).toEqual([]);
    expect(report.violationsByInvariant).toEqual({});
  });

  it('a core that publishes without the final recheck is caught by I1 NO_FINAL_RECHECK, in exactly the rounds with an ELIGIBLE publish', async () => {
    const report = await campaign('mutant:no-final-recheck');
    const codes = new Set(report.failingRounds.flatMap((round) => round.violations.map((v) => `${v.invariant} ${v.code}`)));
    expect(codes).toEqual(new Set(['I1 NO_FINAL_RECHECK']));
    // Without the recheck every ELIGIBLE publish lacks its proof, and nothing else changes: the
    // failing rounds are exactly those where the mutant published ELIGIBLE at least once.
    const eligibleRounds: number[] = [];
    for (let round = 0; round < 40; round += 1) {
      const { run } = await runAndCheck('1', round, loadScenario('default'), resolveCore('mutant:no-final-recheck'), 'mutant:no-final-recheck');
      if (run.events.some((event) => event.type === 'published' && event.status === 'ELIGIBLE')) eligibleRounds.push(round);
    }
    expect(eligibleRounds.length).toBeGreaterThan(0);
    expect(report.failingRounds.map((round) => round.round)).toEqual(eligibleRounds);
  });

  it('a core that reads only the first page is caught by I1 and I2', async () => {
    const report = await campaign('mutant:first-page-only');
    const invariants = new Set(report.failingRounds.flatMap((round) => round.violations.map((v) => v.invariant)));
    expect(invariants.has('I2')).toBe(true);
    expect(invariants.has('I1')).toBe(true);
  });

  it('a cache keyed without the tenant is caught by I4 FOREIGN_KEY', async () => {
    const report = await campaign('mutant:key-without-tenant');
    expect(report.violationsByInvariant.I4).toBeGreaterThan(0);
    const codes = new Set(report.failingRounds.flatMap((round) => round.violations.map((v) => `${v.invariant} ${v.code}`)));
    expect(codes.has('I4 FOREIGN_KEY')).toBe(true);
  });

  it('a core without cursor-loop detection is caught by I13 CURSOR_REQUESTED_TWICE', async () => {
    const report = await campaign('mutant:no-cursor-loop-detection');
    const codes = report.failingRounds.flatMap((round) => round.violations.map((v) => `${v.invariant} ${v.code}`));
    expect(codes).toContain('I13 CURSOR_REQUESTED_TWICE');
  });
});
