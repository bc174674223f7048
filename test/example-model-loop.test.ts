/**
 * The second template (examples/model-loop-host/core.ts, issue 33 item 2): a host whose agent loop
 * lists tools, runs a model turn and calls the model's pick, over an MCP client it brings itself,
 * taken onto the simulated transport through `connector.connectTransport` and `WireWatch.tap`.
 * Loaded as `--core` loads it, on the rounds of seed 1 among 0-14 where it has a server to speak to,
 * it breaks exactly these invariants (read off the runs with runAndCheck, the figures `catsim replay
 * --seed 1 --round R --core ./examples/model-loop-host/core.ts` prints).
 */
import { describe, expect, it } from 'vitest';
import { loadCore } from '../cores/index.ts';
import { runAndCheck } from '../runner/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';

const EXAMPLE = './examples/model-loop-host/core.ts';

describe('examples/model-loop-host: an agent loop that lists, runs a model turn and calls the pick', () => {
  it('fails rounds 0, 9, 10, 11, 13 and 14 of seed 1, where a legacy-era server answers it, on exactly these invariants', async () => {
    // Its client speaks 2025-11-25 only. The default scenario draws each round's era mix (issue
    // 29): rounds 1-8 and 12 of seed 1 have only 2026-07-28 servers, which refuse its initialize
    // (-32022), so it opens no session there (the list-once template's test shows what that
    // costs); these six rounds each have a server it can speak to: legacy (0, 9, 13), legacy
    // beside a modern one (11), or a modern one behind a legacy-era gateway (10, 14).
    const rounds = [0, 9, 10, 11, 13, 14];
    const core = await loadCore(EXAMPLE);
    const counts: Record<string, number> = {};
    const decisions: Record<string, number> = {};
    const sent: number[] = [];
    for (const round of rounds) {
      const { summary, run } = await runAndCheck('1', round, loadScenario('default'), core, EXAMPLE);
      expect(summary.status).toBe('settled');
      expect(run.events.some((event) => event.type === 'server_up' && !event.traits.includes('ERA:modern'))).toBe(true);
      for (const violation of summary.violations) {
        const code = `${violation.invariant} ${violation.code}`;
        counts[code] = (counts[code] ?? 0) + 1;
      }
      for (const event of run.events)
        if (event.type === 'gate_decision') decisions[event.decision] = (decisions[event.decision] ?? 0) + 1;
      sent.push(run.events.filter((event) => event.type === 'call_sent').length);
    }
    // Re-measured when the default scenario took in the tool-version faults (issue 30): rounds 0
    // (F26, F35, F36), 10 (F31 to F36), 13 (F26, F32, F34, F35) and 14 (F26, F34, F35, F36) moved.
    // Their history entries (F32's description change, F35's walk, F36's contract changes) add
    // list_changed, and F34's, F35's and F36's choice rules have the planners call the operator's
    // tool on half their calls, so the turns and picks fall elsewhere; rounds 9 and 11 are as before.
    // Every call that left is an ADMIT with a receipt (the lease convention); a pick the fresh list
    // did not hold is not called (UNDISCLOSED_TOOL: round 9 twice, round 14 three times), and a
    // turn with no list to show the model is INCOMPLETE_DISCOVERY (2 while round 0's host
    // restarted, 10 in round 13, 2 in round 9 and 1 in round 14). Round 11's planners ask nothing
    // of it. With F37 in the default, rounds 11 and 13 have a primary outage (s1 from 1,645 to
    // 1,969; s0 from 2,195 to 2,496; the template has no attachBackup, so each is written
    // `unsupported`): round 13's two calls, and its I8 with them, fall in the outage and become two
    // more INCOMPLETE_DISCOVERY turns.
    expect(decisions).toEqual({ ADMIT: 83, INCOMPLETE_DISCOVERY: 15, UNDISCLOSED_TOOL: 5 });
    expect(sent).toEqual([2, 46, 7, 0, 0, 28]);
    expect(counts).toEqual({
      // It checks no descriptor, revision or catalog size (planted defects, F13, and duplicate
      // names, F6, in rounds 0, 9 and 14; walks that mix revisions in rounds 0, 10 and 14; F23's
      // over-limit catalogs shown and, in round 9, called from).
      'I5 DEFECT_ADMITTED': 46,
      'I2 MIXED_REVISIONS': 4,
      'I27 OVER_LIMIT_PUBLISHED': 39,
      'I27 OVER_LIMIT_DISCLOSED': 8,
      'I27 OVER_LIMIT_ADMITTED': 35,
      // It re-lists only when a turn runs, never on a list_changed: the refresh is starved (I19,
      // rounds 0, 9, 11, 13: 16 + 36 + 10 + 11; round 11's 31 before F37's outage cut its
      // connection, after which no list_changed reached it); a turn's call leaves after its own fresh walk, so
      // the world's side of I18 finds only 1 + 4 calls sent before a whole fresh list was served (a
      // walk a notification cut). The template reports no scan, so the receipt side of I18 does
      // not judge it.
      'I19 REFRESH_STARVED': 73,
      'I18 CALL_BEFORE_RELIST': 5,
      // Behind round 14's gateway no list_changed ever comes, and it does not poll either: each
      // unpushed change waits for the next turn's walk, past R = 800 ms (I33, 8).
      'I33 NOT_POLLED': 8,
      // No gate: revoked tools and an unconfirmed write are called (rounds 9 and 14: 2 + 7
      // revoked; round 10's one revoked call is gone since its picks moved). Round 13's plan made
      // from an older generation and called from the turn's fresh one (I8) fell in F37's outage.
      'I7 REVOKED_TOOL_ADMITTED': 9,
      'I3 UNCONFIRMED_WRITE_EXECUTED': 1,
      // A cursor loop is asked for again and walked past the page bound (rounds 10 and 14, F5), and
      // the list lives in memory only across the host restarts of rounds 0 and 13 (F18).
      'I13 CURSOR_REQUESTED_TWICE': 7,
      'I13 PAGE_LIMIT_EXCEEDED': 4,
      'I10 GENERATION_REPEATED': 5,
      'I15 COMMITTED_PUBLISH_LOST': 5,
      // Keys with nothing published by the round's end: round 11's (two of its modern s0, which it
      // cannot speak to, and the legacy s1's acme.ops, which no turn asked it to list) and one of
      // round 13's; one more key of round 13 ends short of the world's final catalog.
      'I12 NOT_PUBLISHED': 4,
      'I12 NOT_CONVERGED': 1,
    });
  }, 300_000);
});
