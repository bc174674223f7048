/**
 * The template core a user copies (examples/list-once-host/core.ts) keeps working: loaded as
 * `--core` loads it, on rounds 0-9 of seed 1, it breaks exactly these invariants, each for the
 * host's own reason (read off the runs, and checked against the traces below).
 */
import { describe, expect, it } from 'vitest';
import { loadCore } from '../cores/index.ts';
import { runAndCheck } from '../runner/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';

const EXAMPLE = './examples/list-once-host/core.ts';

describe('examples/list-once-host: a host that lists once per session and calls by name', () => {
  it("fails every one of rounds 0-9 of seed 1, on exactly these invariants, for the host's own defects", async () => {
    const core = await loadCore(EXAMPLE);
    const counts: Record<string, number> = {};
    const guessed: string[] = [];
    const starvedEvidence: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      const { summary, run } = await runAndCheck('1', round, loadScenario('default'), core, EXAMPLE);
      expect(summary.status).toBe('settled');
      expect(summary.violations.length).toBeGreaterThan(0);
      const kindOfPlan = new Map(
        run.events
          .filter((event) => event.type === 'plan_made')
          .map((event) => [`${event.session} ${event.planId}`, event.kind]),
      );
      const planOfDecision = new Map(
        run.events
          .filter((event) => event.type === 'gate_decision')
          .map((event) => [event.seq, `${event.session} ${event.planId}`]),
      );
      for (const violation of summary.violations) {
        const code = `${violation.invariant} ${violation.code}`;
        counts[code] = (counts[code] ?? 0) + 1;
        if (code === 'I19 REFRESH_STARVED') starvedEvidence.push(violation.evidence);
        if (code === 'I8 TOOL_NOT_IN_GENERATION' || code === 'I9 UNDISCLOSED_TOOL_ADMITTED')
          guessed.push(String(kindOfPlan.get(planOfDecision.get(violation.seq ?? -1) ?? '')));
      }
    }
    // Worked out per round with runAndCheck on rounds 0-9 (the same figures `npx catsim replay
    // --seed 1 --round R --core ./examples/list-once-host/core.ts` prints), after F18-F23, I14-I27
    // and the per-fault swarm streams (swarm/<fault id>) changed seed 1's plans, and re-measured
    // when F18 entered the default scenario (issue 27.4): rounds 0 and 1 now restart the host.
    expect(counts).toEqual({
      // It never refreshes: a catalog that changed after the one walk never converges (rounds 3,
      // 4 and 5: 3 + 2 + 2 keys), and a key whose one walk published nothing stays empty (round 3's
      // server s0, round 4's s1 on all three audiences).
      'I12 NOT_PUBLISHED': 4,
      'I12 NOT_CONVERGED': 7,
      // It follows any cursor (F5, rounds 2, 6, 7, 8): a repeated cursor is asked for again in
      // 2 + 3 + 3 + 2 scans, and rounds 7 and 8's loops are walked past the 32-page bound in 7 + 2
      // (before F18 was in the default: 2 + 3 + 2 + 2 and 3 + 2).
      'I13 CURSOR_REQUESTED_TWICE': 10,
      'I13 PAGE_LIMIT_EXCEEDED': 9,
      // It checks no descriptor and no revision: round 0 publishes planted defects (F13:
      // OVERSIZED_DESCRIPTOR, UNRESOLVED_REF), rounds 1, 5 and 9 publish and call duplicate names
      // (4 + 7 + 5 + 7 of the findings: rounds 0 and 1 publish again after their restart); rounds 0
      // and 3 each publish a walk that mixes revisions.
      'I5 DEFECT_ADMITTED': 23,
      'I2 MIXED_REVISIONS': 2,
      // It applies no whole-catalog limit (F23): rounds 0 and 1 each publish a catalog over the
      // byte limit before and again after their restart (2 + 2), round 9 one of 34 tools (of 32);
      // it shows them 1 + 10 + 7 times and admits 1 + 20 + 37 calls from them.
      'I27 OVER_LIMIT_PUBLISHED': 5,
      'I27 OVER_LIMIT_DISCLOSED': 18,
      'I27 OVER_LIMIT_ADMITTED': 58,
      // It never re-lists after a list_changed (I18, the barrier): every call that
      // leaves after a notification reached the host goes out before the server answered any
      // fresh tools/list (rounds 0, 1, 3, 4, 5, 9: 2 + 27 + 12 + 12 + 10 + 50 calls the world saw
      // sent), so the world's rule reports each of them (the receipt rule, which would too, stays silent).
      'I18 CALL_BEFORE_RELIST': 113,
      // Nor is its refresh ever due (issue 27: I19 judged on the pages the world served): each
      // list_changed whose deadline falls inside the round and that no rotation, cut link or
      // served quarantine excuses is followed by no fresh tools/list at all (rounds 0, 1, 3, 4, 5,
      // 6, 7, 9: 18 + 10 + 45 + 4 + 4 + 13 + 2 + 39).
      'I19 REFRESH_STARVED': 135,
      // It keeps nothing across a host restart (F18, rounds 0 and 1): the new boot publishes
      // generation 1 of 3 + 2 keys again after it was reported published (I15), one number for two
      // snapshots each time (I10).
      'I15 COMMITTED_PUBLISH_LOST': 5,
      'I10 GENERATION_REPEATED': 5,
      // It sends whatever its model asks for: writes without a confirmation (rounds 1 and 9),
      // tools revoked seconds before (rounds 1, 3, 9: 2 + 1 + 2), and names the model guessed
      // (F17, round 0 once, round 9 three times: each is both I8 and I9, and each was executed).
      'I3 UNCONFIRMED_WRITE_EXECUTED': 5,
      'I7 REVOKED_TOOL_ADMITTED': 5,
      'I8 TOOL_NOT_IN_GENERATION': 4,
      'I9 UNDISCLOSED_TOOL_ADMITTED': 4,
      'I9 UNDISCLOSED_TOOL_EXECUTED': 4,
    });
    expect(guessed).toEqual(Array(8).fill('guessed'));
    // No fresh list at all, or (rounds 0 and 1) only the walk of the boot after a restart, past the deadline.
    expect(
      starvedEvidence.every(
        (evidence) =>
          evidence.endsWith('but the server answered no fresh tools/list for that audience after it') ||
          /but the server answered the next fresh tools\/list for that audience at t=\d+ \(seq \d+\)$/.test(evidence),
      ),
    ).toBe(true);
  });

  it('on host-restart rounds 0-9 of seed 1 it fails only for what it loses across a restart (issue 27.4)', async () => {
    // Rounds 0 and 5 restart the host once. The template keeps nothing on the disk: the new boot
    // publishes generation 1 of a key again after generation 1 of it was reported published (I15
    // COMMITTED_PUBLISH_LOST, 2 + 2 keys; I15 reads what the boot does, not the disk, so a key the
    // new boot never publishes again is not judged: read off catsim's tables it was 3 + 2), and
    // that is one number for two snapshots (I10 GENERATION_REPEATED, 2 + 2), which only a core that
    // keeps its generations can avoid. Before its ids carried the boot (b1-c0-0, lease-b1-...) and
    // I14 read the world's pages, the same rounds also gave I4 FOREIGN_PAGES 22 (scan ids of boot 0
    // read as the new boot's) and I14 SCAN_RESUMED_AFTER_RESTART 4 (a core that reports no
    // scan_started read as resuming one).
    const core = await loadCore(EXAMPLE);
    const restartFamily: Record<string, number> = {};
    const restartRounds: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      const { summary, run } = await runAndCheck('1', round, loadScenario('host-restart'), core, EXAMPLE);
      if (run.events.some((event) => event.type === 'host_restarted')) restartRounds.push(round);
      for (const violation of summary.violations) {
        if (!['I4', 'I6', 'I10', 'I14', 'I15', 'I16', 'I17'].includes(violation.invariant)) continue;
        const code = `${violation.invariant} ${violation.code}`;
        restartFamily[code] = (restartFamily[code] ?? 0) + 1;
      }
    }
    expect(restartRounds).toEqual([0, 5]);
    expect(restartFamily).toEqual({ 'I15 COMMITTED_PUBLISH_LOST': 4, 'I10 GENERATION_REPEATED': 4 });
  });
});
