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
  it("fails rounds 0, 3, 4, 5 and 9 of seed 1 on exactly these invariants, for the host's own defects", async () => {
    const core = await loadCore(EXAMPLE);
    const counts: Record<string, number> = {};
    const guessed: string[] = [];
    const starvedEvidence: string[] = [];
    const failing: number[] = [];
    const passingEras: string[][] = [];
    for (let round = 0; round < 10; round += 1) {
      const { summary, run } = await runAndCheck('1', round, loadScenario('default'), core, EXAMPLE);
      expect(summary.status).toBe('settled');
      if (summary.violations.length > 0) failing.push(round);
      else
        passingEras.push(
          run.events.flatMap((event) =>
            event.type === 'server_up' ? event.traits.filter((trait) => trait.startsWith('ERA:')) : [],
          ),
        );
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
    // The default scenario draws each round's era mix (issue 29). Rounds 1, 2, 6, 7 and 8 of seed 1
    // have only 2026-07-28 servers: they refuse the template's 2025-11-25 initialize (-32022), so
    // it opens no session there, and it passes them only because what a correct host shows there
    // is nothing: every server's list is one no core may publish (round 1's duplicate names and
    // over-limit bytes, F6 and F23; round 2's cursor loop and duplicates; rounds 6, 7 and 8's
    // cursor faults, F5 cycle, never-ending and always-empty). Where a catalog is owed on modern
    // servers it fails I12 (rounds 3, 4, 5 below).
    expect(failing).toEqual([0, 3, 4, 5, 9]);
    expect(passingEras.every((eras) => eras.length > 0 && eras.every((era) => era === 'ERA:modern'))).toBe(true);
    // Worked out per round with runAndCheck on rounds 0-9 (the same figures `npx catsim replay
    // --seed 1 --round R --core ./examples/list-once-host/core.ts` prints), re-measured when the
    // default scenario took in modern-era servers (issue 29) and the tool-version faults (issue 30:
    // only round 0 moved).
    expect(counts).toEqual({
      // It opens no session with a modern server, and never refreshes: rounds 3, 4 and 5 have only
      // modern servers (round 3: s0 under F25 and s1 over Streamable HTTP), so every key the world
      // owes a catalog there ends with nothing published (4 + 5 + 2 keys).
      'I12 NOT_PUBLISHED': 11,
      // It checks no descriptor and no revision: round 0 publishes planted defects (F13) and round
      // 9 duplicate names (5 + 7 of the findings: round 0 publishes again after its restart, and
      // its gate admits a call of write_file_s0d0, planted UNRESOLVED_REF, which the globex.dev
      // planner picks since the default has the tool-version faults: F36's choice rule moved the
      // planners' draws); round 0 publishes a walk that mixes revisions.
      'I5 DEFECT_ADMITTED': 12,
      'I2 MIXED_REVISIONS': 1,
      // It applies no whole-catalog limit (F23): round 0 publishes a catalog over the byte limit
      // before and again after its restart, round 9 one of 34 tools (of 32); it shows them 1 + 7
      // times and admits 1 + 37 calls from them.
      'I27 OVER_LIMIT_PUBLISHED': 3,
      'I27 OVER_LIMIT_DISCLOSED': 8,
      'I27 OVER_LIMIT_ADMITTED': 38,
      // It never re-lists after a list_changed (I18, the barrier): every call that leaves after a
      // notification reached the host goes out before the server answered any fresh tools/list
      // (rounds 0 and 9: 2 + 50 calls the world saw sent).
      'I18 CALL_BEFORE_RELIST': 52,
      // Nor is its refresh ever due (issue 27: I19 judged on the pages the world served): each
      // list_changed whose deadline falls inside the round and that no rotation, cut link or
      // served quarantine excuses is followed by no fresh tools/list at all (rounds 0 and 9:
      // 19 + 51; round 0's F36 changes two contracts of the acme.ops server, at t=1487 and 1609,
      // so its list_changed fall at other times: 13 there, 12 before F36 was in the default).
      'I19 REFRESH_STARVED': 70,
      // It keeps nothing across a host restart (F18, round 0): the new boot publishes generation 1
      // of 3 keys again after it was reported published (I15), one number for two snapshots each
      // time (I10).
      'I15 COMMITTED_PUBLISH_LOST': 3,
      'I10 GENERATION_REPEATED': 3,
      // It sends whatever its model asks for (round 9 but for round 0's one guess): writes without
      // a confirmation (3), tools revoked seconds before (2), and names the model guessed (F17,
      // round 0 once, round 9 three times: each is both I8 and I9, and each was executed).
      'I3 UNCONFIRMED_WRITE_EXECUTED': 3,
      'I7 REVOKED_TOOL_ADMITTED': 2,
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
