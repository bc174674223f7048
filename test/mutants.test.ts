import { describe, expect, it } from 'vitest';
import { runCampaign } from '../runner/campaign.ts';
import { resolveCore } from '../cores/index.ts';
import { runAndCheck } from '../runner/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';

/** The same 40 rounds of seed "1", in this thread, on a given core. */
async function campaign(core: string) {
  return runCampaign({
    seed: '1',
    scenario: loadScenario('default'),
    core,
    firstRound: 0,
    rounds: 40,
    workers: 0,
    determinismEvery: 0,
  });
}

describe('deliberately wrong cores are caught by the same campaign', () => {
  it('the reference core has zero violations on these rounds', async () => {
    const report = await campaign('reference');
    expect(report.failingRounds).toEqual([]);
    expect(report.violationsByInvariant).toEqual({});
  });

  it('a core that publishes without the final recheck is caught by I1 NO_FINAL_RECHECK, in exactly the rounds with an ELIGIBLE publish', async () => {
    const report = await campaign('mutant:no-final-recheck');
    const codes = new Set(
      report.failingRounds.flatMap((round) => round.violations.map((v) => `${v.invariant} ${v.code}`)),
    );
    expect(codes).toEqual(new Set(['I1 NO_FINAL_RECHECK']));
    // Without the recheck every ELIGIBLE publish lacks its proof, and nothing else changes: the
    // failing rounds are exactly those where the mutant published ELIGIBLE at least once.
    const eligibleRounds: number[] = [];
    for (let round = 0; round < 40; round += 1) {
      const { run } = await runAndCheck(
        '1',
        round,
        loadScenario('default'),
        resolveCore('mutant:no-final-recheck'),
        'mutant:no-final-recheck',
      );
      if (run.events.some((event) => event.type === 'published' && event.status === 'ELIGIBLE'))
        eligibleRounds.push(round);
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

  it("a cache keyed without the tenant, which labels every entry with the asker's own key, is caught by what it showed: I4 FOREIGN_TOOL, never by its labels", async () => {
    const report = await campaign('mutant:key-without-tenant');
    expect(report.violationsByInvariant.I4).toBeGreaterThan(0);
    const codes = new Set(
      report.failingRounds.flatMap((round) => round.violations.map((v) => `${v.invariant} ${v.code}`)),
    );
    expect(codes.has('I4 FOREIGN_TOOL')).toBe(true);
    expect(codes.has('I4 FOREIGN_KEY')).toBe(false);
  });

  it("a gate that trusts the plan's generation instead of re-checking the active one is caught by I8 (every such finding a call the reference gate refused as STALE_CATALOG) and by I28 after a rollback", async () => {
    const core = 'mutant:no-recheck-at-call';
    const report = await campaign(core);
    // Seed "1", rounds 0-39: worked out by running this campaign and replaying each failing round
    // on both cores (below; npx catsim replay --seed 1 --round R --core mutant:no-recheck-at-call).
    // On the merged default scenario (F18-F23, and each fault's enabling drawn from its own
    // swarm/<fault id> stream) the planners' stale plans meet a changed generation in rounds 18
    // (faults F1 F9 F10 F11 F13 F15 F21 F22: one TOOL_NOT_IN_GENERATION, one STALE_PLAN_ADMITTED),
    // 26 (one TOOL_NOT_IN_GENERATION) and 28 (two); rounds 11, 17 and 25 of the earlier plans no
    // longer have such a call. With F19, round 4 (faults F2 F3 F7 F9 F10 F14 F15 F16 F19) has a plan
    // from generation 6 of s1 globex.dev whose call comes right after a trigger's rollback to an earlier
    // generation with the same descriptor: the mutant admits (and leases) it against 6, the
    // generation the rollback rolled away (I28); the reference admits it against the active one.
    // Since the barrier waits for a scan that walked to the server's last answer (issue 27), a call
    // held across a walk cut short is decided later, against a newer generation: rounds 13 and 20
    // each add one STALE_PLAN_ADMITTED (the reference refuses both as STALE_CATALOG).
    // With F18 in the default scenario (issue 27.4), round 26 restarts the host (a crash inside a
    // publish at t=371, boot 1 at 412) and no longer has such a call, and round 28 has one
    // TOOL_NOT_IN_GENERATION instead of two.
    // With modern servers in the default scenario (issue 29 item 1), round 4 (now also F18 F27 F28
    // F30; its servers all modern, over Streamable HTTP) has both kinds: plan p1 of s0/acme.dev is
    // admitted at seq 585 against generation 5 while generation 6 (published at seq 581) is active
    // (one STALE_PLAN_ADMITTED; the reference refuses it as STALE_CATALOG), and the rollback at seq
    // 839 rolls away generation 8 of s1 globex.dev, which the mutant then leases for plan p4 (I28;
    // the reference admits p4 against the active generation 9). The other rounds are as before.
    expect(report.failingRounds.map((round) => round.round)).toEqual([4, 13, 18, 20, 28]);
    expect(report.violationsByInvariant).toEqual({ I8: 6, I28: 1 });
    const codes = new Set(
      report.failingRounds.flatMap((round) => round.violations.map((v) => `${v.invariant} ${v.code}`)),
    );
    expect(codes).toEqual(
      new Set(['I8 STALE_PLAN_ADMITTED', 'I8 TOOL_NOT_IN_GENERATION', 'I28 LEASE_FOR_ROLLED_AWAY']),
    );
    // Each finding points at an ADMIT; the reference gate, which re-checks the active generation
    // and its expiry, refused that same call (session and plan) in the same round.
    const refusedByReference: string[] = [];
    for (const failing of report.failingRounds) {
      const mutantRun = (await runAndCheck('1', failing.round, loadScenario('default'), resolveCore(core), core)).run;
      const referenceRun = (
        await runAndCheck('1', failing.round, loadScenario('default'), resolveCore('reference'), 'reference')
      ).run;
      const bySeq = new Map(mutantRun.events.map((event) => [event.seq, event]));
      const referenceDecision = new Map(
        referenceRun.events.flatMap((event) =>
          event.type === 'gate_decision' ? [[event.callId, event.decision] as const] : [],
        ),
      );
      for (const violation of failing.violations) {
        const decision = violation.seq === null ? undefined : bySeq.get(violation.seq);
        if (decision?.type !== 'gate_decision')
          throw new Error(`violation seq ${violation.seq} is not a gate decision`);
        expect(decision.decision).toBe('ADMIT');
        refusedByReference.push(`${violation.code} ${String(referenceDecision.get(decision.callId))}`);
      }
    }
    expect(refusedByReference.sort()).toEqual([
      'LEASE_FOR_ROLLED_AWAY ADMIT',
      'STALE_PLAN_ADMITTED STALE_CATALOG',
      'STALE_PLAN_ADMITTED STALE_CATALOG',
      'STALE_PLAN_ADMITTED STALE_CATALOG',
      'STALE_PLAN_ADMITTED STALE_CATALOG',
      'TOOL_NOT_IN_GENERATION STALE_CATALOG',
      'TOOL_NOT_IN_GENERATION STALE_CATALOG',
    ]);
  });

  it('a DISABLE that is reported but never enforced is caught by I29 from the call the world saw leave: round 207 of seed 1, the first such round in 0..299', async () => {
    const core = 'mutant:disable-not-enforced';
    const { summary } = await runAndCheck('1', 207, loadScenario('default'), resolveCore(core), core);
    // The missing-tool-rate trigger at seq 433 found no qualifying generation: DISABLED at 435 (key
    // s1 acme.dev), yet generation 2 kept being shown and admitted (I11), and plan p1's call of
    // list_directory left for s1 at 705 (I29). Before the default scenario had modern servers
    // (issue 29 item 1; round 207 now also enables F25 F27-F30) the same finding sat at seqs 424,
    // 427 and 734. Still the first round in 0..299 with an I29 (`catsim run --core
    // mutant:disable-not-enforced --rounds 300`: I29 4, and no I29 in any failing round before 207).
    expect(summary.violations.filter((v) => v.invariant === 'I29').map((v) => [v.code, v.seq])).toEqual([
      ['CALL_WHILE_DISABLED', 705],
    ]);
    expect(summary.violations.filter((v) => v.invariant === 'I11').map((v) => v.seq)).toEqual([
      455, 695, 703, 798, 813, 981,
    ]);
    const reference = await runAndCheck('1', 207, loadScenario('default'), resolveCore('reference'), 'reference');
    expect(reference.summary.violations).toEqual([]);
    expect(reference.summary.metrics.rollbackTriggers).toEqual({ DISABLED: 1, 'rolled back': 1 });
  });

  it('a core without cursor-loop detection is caught by I13 CURSOR_REQUESTED_TWICE', async () => {
    const report = await campaign('mutant:no-cursor-loop-detection');
    const codes = report.failingRounds.flatMap((round) => round.violations.map((v) => `${v.invariant} ${v.code}`));
    expect(codes).toContain('I13 CURSOR_REQUESTED_TWICE');
  });
});
