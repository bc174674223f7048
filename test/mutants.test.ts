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
    // With the tool-version faults in the default scenario (issue 30 item 7: F26 and F31-F37 beside
    // the others, every round's draws moved) and the reference's walk after a lost connection
    // (issue 29), the planners' stale plans meet a changed generation in rounds 3, 11, 13, 18, 20,
    // 27 and 35: two TOOL_NOT_IN_GENERATION (round 3, refund_payment at seq 390; round 11,
    // search_files_v7 at 1005) and five STALE_PLAN_ADMITTED (round 13 at 447, 18 at 839, 20 at
    // 705, 27 at 2139, 35 at 226); the reference refuses all seven as STALE_CATALOG. Five of those
    // calls go to a server the operator described (F32's operator_manifest), and the mutant's
    // receipt of each, bound to the stale generation, names no version (I35
    // RECEIPT_WITHOUT_VERSION, at the seq right after the admission); rounds 11's and 35's go to a
    // server with no manifest. Before F37 joined the default and the reference walked after a lost
    // connection, the failing rounds were 3, 13, 18, 19, 20, 27 and 35 (I8 10, I35 9); before
    // issue 30 item 7, 4, 13, 18, 20 and 28 with I8 6 and I28 1 (round 4's rollback). No round in
    // 0-39 now has a call bound to a generation a rollback rolled away, so I28 is shown on round 84
    // below.
    expect(report.failingRounds.map((round) => round.round)).toEqual([3, 11, 13, 18, 20, 27, 35]);
    expect(report.violationsByInvariant).toEqual({ I8: 7, I35: 5 });
    const codes = new Set(
      report.failingRounds.flatMap((round) => round.violations.map((v) => `${v.invariant} ${v.code}`)),
    );
    expect(codes).toEqual(
      new Set(['I8 STALE_PLAN_ADMITTED', 'I8 TOOL_NOT_IN_GENERATION', 'I35 RECEIPT_WITHOUT_VERSION']),
    );
    // Each I8 finding points at an ADMIT; the reference gate, which re-checks the active generation
    // and its expiry, refused that same call (session and plan) in the same round. Each I35 finding
    // is the receipt written right after one of those admissions.
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
      const admittedAt = new Set(failing.violations.flatMap((v) => (v.invariant === 'I8' ? [v.seq] : [])));
      for (const violation of failing.violations) {
        const event = violation.seq === null ? undefined : bySeq.get(violation.seq);
        if (violation.invariant === 'I35') {
          expect([event?.type, admittedAt.has((violation.seq ?? 0) - 1)]).toEqual(['receipt', true]);
          continue;
        }
        if (event?.type !== 'gate_decision') throw new Error(`violation seq ${violation.seq} is not a gate decision`);
        expect(event.decision).toBe('ADMIT');
        refusedByReference.push(`${violation.code} ${String(referenceDecision.get(event.callId))}`);
      }
    }
    expect(refusedByReference.sort()).toEqual([
      'STALE_PLAN_ADMITTED STALE_CATALOG',
      'STALE_PLAN_ADMITTED STALE_CATALOG',
      'STALE_PLAN_ADMITTED STALE_CATALOG',
      'STALE_PLAN_ADMITTED STALE_CATALOG',
      'STALE_PLAN_ADMITTED STALE_CATALOG',
      'TOOL_NOT_IN_GENERATION STALE_CATALOG',
      'TOOL_NOT_IN_GENERATION STALE_CATALOG',
    ]);
    // I28: round 84 (faults F6 F9 F10 F11 F12 F14 F19 F20 F21 F22 F23 F26 F30 F32 F34), the first
    // round of seed 1 where the mutant is caught by it (`catsim run --core mutant:no-recheck-at-call
    // --from 40 --rounds 160`: I28 in rounds 84 and 115). F10's stale plan p0 of s1/acme.ops is made
    // at seq 334 from generation 3; F19's missing-tool-rate trigger at 360 rolls back, republishing
    // an earlier snapshot as generation 4 at 363, which rolls generation 3 away. At seq 679 the
    // mutant admits (and leases) p0 against generation 3; the reference admits the same call against
    // the active generation 7, whose search_files has the same descriptor (so no I8).
    const rolledAway = await runAndCheck('1', 84, loadScenario('default'), resolveCore(core), core);
    expect(rolledAway.summary.violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I28', 'LEASE_FOR_ROLLED_AWAY', 679],
    ]);
    const reference = await runAndCheck('1', 84, loadScenario('default'), resolveCore('reference'), 'reference');
    expect(reference.summary.violations).toEqual([]);
    const decisionOf = (events: typeof reference.run.events) =>
      events.flatMap((event) =>
        event.type === 'gate_decision' && event.callId === 's1/acme.ops#p0'
          ? [[event.seq, event.decision, event.generation]]
          : [],
      );
    expect([decisionOf(rolledAway.run.events), decisionOf(reference.run.events)]).toEqual([
      [[679, 'ADMIT', 3]],
      [[679, 'ADMIT', 7]],
    ]);
  });

  it('a DISABLE that is reported but never enforced is caught by I29 from the call the world saw leave: round 76 of seed 1, the first such round in 0..299', async () => {
    const core = 'mutant:disable-not-enforced';
    const { summary } = await runAndCheck('1', 76, loadScenario('default'), resolveCore(core), core);
    // The missing-tool-rate trigger at seq 483 found no qualifying generation: DISABLED at 484 (key
    // s0 acme.ops), yet generation 1 kept being shown (disclosures 497, 597) and admitted (gate
    // decisions 532, 600) (I11), and plan p2's call of write_file left for s0 at 534 (I29); the
    // reference refuses that call as SERVER_DISABLED. write_file is s0's F36 tool (its compatible
    // control change, contract_changed at 467), and p2 (plan_made at seq 383, t=1662, against
    // generation 1) is one of F36's late calls, decided at t=2580, after the DISABLE at t=2030.
    // Until the default scenario had the tool-version faults (issue 30 item 7; round 76 enables
    // F5 F9 F11 F14 F15 F17 F19 F21 F22 F24 F25 F27 F35 F36) the first round in 0..299 with an I29
    // was round 207, where the same finding now sits at seq 706 (I29), after I11 at 456, 696 and
    // 704. `catsim run --core mutant:disable-not-enforced --rounds 208`: I29 2, in rounds 76 and
    // 207, and no I29 in any failing round before 76; with `--from 208 --rounds 92`, one more in
    // round 237. Since F35's walk begins with `announce` (its order at seq 93, t=215, of round
    // 76) every seq after it is one more than when this was first worked out.
    expect(summary.violations.filter((v) => v.invariant === 'I29').map((v) => [v.code, v.seq])).toEqual([
      ['CALL_WHILE_DISABLED', 534],
    ]);
    expect(summary.violations.filter((v) => v.invariant === 'I11').map((v) => v.seq)).toEqual([497, 532, 597, 600]);
    const reference = await runAndCheck('1', 76, loadScenario('default'), resolveCore('reference'), 'reference');
    expect(reference.summary.violations).toEqual([]);
    expect(reference.summary.metrics.rollbackTriggers).toEqual({ DISABLED: 1, 'rolled back': 1 });
  });

  it('a core without cursor-loop detection is caught by I13 CURSOR_REQUESTED_TWICE', async () => {
    const report = await campaign('mutant:no-cursor-loop-detection');
    const codes = report.failingRounds.flatMap((round) => round.violations.map((v) => `${v.invariant} ${v.code}`));
    expect(codes).toContain('I13 CURSOR_REQUESTED_TWICE');
  });
});
