/**
 * The second template (examples/model-loop-host/core.ts, issue 33 item 2): a host whose agent loop
 * lists tools, runs a model turn and calls the model's pick, over an MCP client it brings itself,
 * taken onto the simulated transport through `connector.connectTransport` and `WireWatch.tap`.
 * Loaded as `--core` loads it, on rounds 0-4 of seed 1 it breaks exactly these invariants (read off
 * the runs with runAndCheck, the figures `catsim replay --seed 1 --round R --core
 * ./examples/model-loop-host/core.ts` prints).
 */
import { describe, expect, it } from 'vitest';
import { loadCore } from '../cores/index.ts';
import { runAndCheck } from '../runner/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';

const EXAMPLE = './examples/model-loop-host/core.ts';

describe('examples/model-loop-host: an agent loop that lists, runs a model turn and calls the pick', () => {
  it('fails rounds 0, 1, 3 and 4 of seed 1 and round 2 on its cursor loop, on exactly these invariants', async () => {
    const core = await loadCore(EXAMPLE);
    const counts: Record<string, number> = {};
    const decisions: Record<string, number> = {};
    const sent: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const { summary, run } = await runAndCheck('1', round, loadScenario('default'), core, EXAMPLE);
      expect(summary.status).toBe('settled');
      for (const violation of summary.violations) {
        const code = `${violation.invariant} ${violation.code}`;
        counts[code] = (counts[code] ?? 0) + 1;
      }
      for (const event of run.events)
        if (event.type === 'gate_decision') decisions[event.decision] = (decisions[event.decision] ?? 0) + 1;
      sent.push(run.events.filter((event) => event.type === 'call_sent').length);
    }
    // Every call that left is an ADMIT with a receipt (the lease convention); a pick the fresh list
    // did not hold is not called (round 0: UNDISCLOSED_TOOL once), and a turn with no list to show
    // the model is INCOMPLETE_DISCOVERY (round 0: 3 while its host restarted; round 4: 8 on s1,
    // whose walks never completed). Round 2's one server loops its cursor: no list, no call.
    expect(decisions).toEqual({ ADMIT: 61, INCOMPLETE_DISCOVERY: 11, UNDISCLOSED_TOOL: 1 });
    expect(sent).toEqual([2, 28, 0, 12, 19]);
    expect(counts).toEqual({
      // It checks no descriptor, revision or catalog size (rounds 0 and 1: planted defects and
      // duplicate names; rounds 0 and 3: walks that mix revisions; F23's over-limit catalogs shown
      // and, in round 1, called from).
      'I5 DEFECT_ADMITTED': 55,
      'I2 MIXED_REVISIONS': 4,
      'I27 OVER_LIMIT_PUBLISHED': 24,
      'I27 OVER_LIMIT_DISCLOSED': 11,
      'I27 OVER_LIMIT_ADMITTED': 20,
      // It re-lists only when a turn runs, never on a list_changed: the refresh is starved (I19);
      // a turn's call leaves after its own fresh walk, so the world's side of I18 finds only 2 calls
      // sent before a whole fresh list was served (a walk a notification cut). The template reports
      // no scan, so the receipt side of I18 does not judge it: the 52 CALL_BEFORE_FRESH_LIST it
      // counted before (receipts after a notification whose calls the world's rule had passed:
      // each left after a whole fresh list was served) are gone, and the 2 above are unchanged.
      'I19 REFRESH_STARVED': 58,
      'I18 CALL_BEFORE_RELIST': 2,
      // No gate: revoked tools and unconfirmed writes are called (rounds 1 and 3), and a plan made
      // from an older generation is called from the turn's fresh one (round 4, I8).
      'I7 REVOKED_TOOL_ADMITTED': 3,
      'I3 UNCONFIRMED_WRITE_EXECUTED': 2,
      'I8 STALE_PLAN_ADMITTED': 1,
      // The loop calls only a name its fresh list holds, so a guessed name reaches the server only
      // when the server lists it to this audience although it was never disclosed (round 4, once).
      'I9 UNDISCLOSED_TOOL_EXECUTED': 1,
      // A cursor loop is asked for again (round 2), and the list lives in memory only across the
      // host restarts of rounds 0 and 1 (F18).
      'I13 CURSOR_REQUESTED_TWICE': 2,
      'I10 GENERATION_REPEATED': 5,
      'I15 COMMITTED_PUBLISH_LOST': 5,
      // Keys whose walks never complete have no catalog (rounds 3 and 4: 1 + 3 keys), so their
      // probes are refused and nothing converges there.
      'I12 NOT_CONVERGED': 2,
      'I12 NOT_PUBLISHED': 4,
      'I12 PROBE_REFUSED': 6,
    });
  }, 300_000);
});
