/**
 * The oracle judges a core without trusting it (SPEC section 12a, docs/CORE-API.md): a core that
 * emits nothing, does nothing, or lies fails, never passes. The three cores are the public-API
 * modules in examples/testing/, loaded the way `--core ./FILE.ts` loads them, on rounds 0-9 of
 * seed 1 of the default scenario (the totals were read off these runs and each one checked
 * against the traces below: they are what the cores did, not a guess). The silent and the lying
 * core speak MCP 2025-11-25 only (an SDK 1.x client), and the default scenario draws nine of
 * these ten rounds with only 2026-07-28 servers, which refuse them: they are judged on the same
 * rounds with every server of the legacy era (`LEGACY`), where they have a world to lie about.
 */
import { describe, expect, it } from 'vitest';
import type { Violation } from '../oracle/index.ts';
import { loadCore } from '../cores/index.ts';
import { runAndCheck } from '../runner/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import type { Scenario } from '../sim/plan/scenario-types.ts';
import type { TraceEvent } from '../sim/trace/recorder.ts';

const ROUNDS = 10;

interface Round {
  events: TraceEvent[];
  violations: Violation[];
}

/** The tool-version faults (issue 30, SPEC section 9): operator orders through optional core API methods. */
const TOOL_VERSION_FAULTS = new Set(['F26', 'F31', 'F32', 'F33', 'F34', 'F35', 'F36', 'F37']);

/**
 * The default scenario with every server of the legacy era (MCP 2025-11-25) and without the
 * tool-version faults: the same draws for every other fault (each fault draws on its own stream,
 * sim/faults/independence.test.ts), and no modern server. The silent and the lying core implement
 * none of `emergencyDisable`, `deprecate`, `alias`, `remove` and `attachBackup`, so the tool-version rounds are NOT
 * JUDGED for them (test/not-judged.test.ts); what these tests judge is what the wire shows of a
 * catalog core, on the world the counts below were worked out on. F30's edits are drawn per server
 * before the round draws its eras, so rounds 2 and 9, which enable F30, keep its 1 or 2 edits of
 * each drawn server's list although no `ttlMs` is served (sim/faults/f30-ttl.ts); F24, F25 and
 * F27-F29 act on modern servers only.
 */
const LEGACY: Scenario = (() => {
  const scenario = loadScenario('default');
  return {
    ...scenario,
    eraMix: ['legacy'],
    faults: scenario.faults.filter((fault) => !TOOL_VERSION_FAULTS.has(fault)),
  };
})();

/** Rounds 0..9 of seed 1 on the core module at `path`, on `scenario` (the default one unless given). */
async function rounds(path: string, scenario: Scenario = loadScenario('default')): Promise<Round[]> {
  const core = await loadCore(path);
  const out: Round[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const { summary, run } = await runAndCheck('1', round, scenario, core, path);
    out.push({ events: run.events, violations: summary.violations });
  }
  return out;
}

/** Violations counted by `invariant code`. */
function codes(all: Round[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const violation of all.flatMap((round) => round.violations)) {
    const code = `${violation.invariant} ${violation.code}`;
    counts[code] = (counts[code] ?? 0) + 1;
  }
  return counts;
}

function at(round: Round, seq: number, invariant: string): Violation[] {
  return round.violations.filter((violation) => violation.seq === seq && violation.invariant === invariant);
}

describe('a core that does nothing at all (examples/testing/inert-core.ts)', () => {
  it('fails I12 NOT_PUBLISHED for every key the planners asked about, though it never connected', async () => {
    const all = await rounds('./examples/testing/inert-core.ts');
    // 4 + 5 + 2 keys in rounds 3, 4 and 5: round 3 has s0 (acme.dev) and s1 (three audiences),
    // round 4 two servers with five audiences between them, round 5 one server s0 with two (its
    // PLANTED:F6 is a planted defect in a tool, not a server trait that excuses liveness).
    expect(codes(all)).toEqual({ 'I12 NOT_PUBLISHED': 11 });
    // Three of the ten rounds fail. In the seven that pass, 0, 1, 2, 6, 7, 8 and 9, every server
    // carries a trait that disqualifies it from liveness by design (oracle/ground-truth.ts
    // DISQUALIFYING_TRAIT_PREFIXES): an F23 over-limit catalog a correct core quarantines (0: s0
    // F23:bytes; 1: s0 F23:bytes; 9: s0 F23:tools) or an F5 cursor trait (6: s0 F5:cycle; 7: s0
    // F5:never-ending and s1 F5:always-empty; 8: s0 F5:always-empty), or both (2: s0 F5:ignored and
    // s1 F5:repeat, each with F23:bytes). Nothing was owed there.
    expect(all.map((round, index) => (round.violations.length > 0 ? index : -1)).filter((index) => index >= 0)).toEqual(
      [3, 4, 5],
    );
    for (const index of [0, 1, 2, 6, 7, 8, 9]) {
      const traits = all[index]?.events
        .filter((event) => event.type === 'server_up')
        .map((event) => (event.traits as string[]).some((trait) => trait.startsWith('F5') || trait.startsWith('F23')));
      expect(new Set(traits)).toEqual(new Set([true]));
    }
    for (const round of all) {
      // It never connected: no session was opened, so the old rule (liveness owed only to the
      // audiences a client connected as) owed it nothing and every round passed.
      expect(round.events.some((event) => event.type === 'session_opened')).toBe(false);
      const asked = new Set(
        round.events
          .filter((event) => event.type === 'disclosure_refused')
          .map((event) => `${event.server} ${event.audience}`),
      );
      for (const violation of round.violations)
        expect(
          [...asked].some(
            (pair) =>
              violation.evidence.startsWith(`server ${pair.split(' ')[0]} key `) &&
              violation.evidence.includes(`|${pair.split(' ')[1]} at revision`),
          ),
        ).toBe(true);
    }
  });
});

describe('a core that works but emits nothing (examples/testing/silent-core.ts)', () => {
  it('fails I4 at every disclosure, I6 at every executed call, I3, I9, I12, I13, I18 and I19', async () => {
    const all = await rounds('./examples/testing/silent-core.ts', LEGACY);
    expect(codes(all)).toEqual({
      'I3 UNCONFIRMED_WRITE_EXECUTED': 60,
      // F18 is in the default scenario (issue 27.4): rounds 0, 1 and 7 restart the host.
      'I4 DISCLOSED_UNKNOWN_GENERATION': 172,
      'I6 CALL_WITHOUT_RECEIPT': 228,
      // Its F17 guesses the servers ran. Names shown are read from the world's views of the disclosed
      // digests (issue 27), so a call of a tool it did show by name is no longer counted for want of
      // a publish to read names from (12 before; 8 before F18 was in the default).
      'I9 UNDISCLOSED_TOOL_EXECUTED': 6,
      // The same 11 keys the inert core leaves unpublished (rounds 3, 4 and 5).
      'I12 NOT_PUBLISHED': 11,
      // Probes are owed only on servers without a disqualifying trait (F23 servers have one):
      // 5 + 10 + 2 in rounds 3, 4 and 5.
      'I12 PROBE_NOT_DECIDED': 17,
      // It follows every cursor up to pageCountMax with no loop check, and labels no walk with a
      // scanId; I13 ties its requests into walks by cursor (issue 27.1): each F5 server whose cursors
      // loop gets a cursor requested twice in one walk, 2 + 3 + 3 + 2 in rounds 2 (repeat, ignored),
      // 6 (cycle), 7 (always-empty, twice on s1 acme.dev across the host restart) and 8 (always-empty).
      'I13 CURSOR_REQUESTED_TWICE': 10,
      // It shows whatever it listed, F23's over-limit catalogs included (rounds 0, 1, 2, 7, 8, 9:
      // 1 + 10 + 8 + 1 + 7 + 7).
      'I27 OVER_LIMIT_DISCLOSED': 34,
      // It reads each catalog once, at connect, and never again: every call the world saw leave
      // after a list_changed reached it went before any fresh tools/list (it reports no scan and no
      // receipt, so only the world's side of I18 can see this). Round 2's 75 calls count here
      // since F30's edits of its server send list_changed there.
      'I18 CALL_BEFORE_RELIST': 225,
      // Issue 27: judged on the pages the world served, a core that never lists again (and reports
      // no scan) is owed a fresh list after every list_changed whose deadline falls inside the round
      // and that nothing excuses, and the server answers none in time: 12 + 6 + 4 + 45 + 4 + 4 + 13
      // + 5 + 2 + 48 in rounds 0-9 (round 2's 4 and 12 of round 9's follow F30's edits); after a
      // restart the new boot's first walk may be the late "next fresh tools/list".
      'I19 REFRESH_STARVED': 143,
      // Its lease ids (silent-1, ...) start again in each boot: round 7 has a lease spent before
      // the crash and spent again after the restart (the servers executed both).
      'I16 EXECUTED_WITHOUT_RECEIPT': 1,
      // Issue 27: an F17 guess it sent that the server refused (never recorded as executed: I9 read
      // only executed calls before).
      'I9 UNDISCLOSED_TOOL_SENT': 1,
    });
    for (const round of all) {
      for (const violation of round.violations) {
        const seq = violation.seq ?? -1;
        const anchor = round.events[seq];
        if (violation.code === 'REFRESH_STARVED') {
          // Anchored at a delivery after which the server answered that audience no fresh page 1 in time.
          expect(anchor?.type).toBe('notification_delivered');
          expect(violation.evidence).toMatch(
            /but the server answered (no fresh tools\/list for that audience after it|the next fresh tools\/list for that audience at t=\d+)/,
          );
        }
        if (violation.code === 'UNDISCLOSED_TOOL_SENT') {
          expect(anchor?.type).toBe('call_refused_by_server');
          const guessed = round.events.some(
            (event) => event.type === 'plan_made' && event.kind === 'guessed' && event.seq < seq,
          );
          expect(guessed).toBe(true);
        }
      }
    }
    let disclosures = 0;
    let executed = 0;
    for (const round of all) {
      for (const event of round.events) {
        // Nothing the core did is in the trace but what the world saw.
        expect(event.src).toBe('world');
        // What it showed has no publish behind it; what it sent has no receipt.
        if (event.type === 'disclosure') {
          disclosures += 1;
          expect(at(round, event.seq, 'I4').map((violation) => violation.code)).toEqual([
            'DISCLOSED_UNKNOWN_GENERATION',
          ]);
        }
        if (event.type === 'call_executed') {
          executed += 1;
          expect(at(round, event.seq, 'I6').map((violation) => violation.code)).toEqual(['CALL_WITHOUT_RECEIPT']);
        }
      }
    }
    expect({ disclosures, executed }).toEqual({ disclosures: 172, executed: 228 });
  });
});

describe('a core that lies (examples/testing/lying-core.ts)', () => {
  it('fails I2 at every publish (its claimed scan was never served) and I1 at every complete ELIGIBLE claim', async () => {
    const all = await rounds('./examples/testing/lying-core.ts', LEGACY);
    expect(codes(all)).toEqual({
      // F18 is in the default scenario (issue 27.4): rounds 0, 1 and 7 restart the host, and each
      // boot claims its catalogs again.
      'I1 CONTENT_MISMATCH': 7,
      'I1 NO_FINAL_RECHECK': 17,
      'I1 UNKNOWN_REVISION': 7,
      'I2 CHAIN_BROKEN': 15,
      // One per publish (39): none of its claimed pages was served as claimed.
      'I2 PAGE_NOT_SERVED': 39,
      'I5 DEFECT_ADMITTED': 12,
      // Liveness only in rounds 3, 4 and 5, the rounds with servers that owe it.
      'I12 NOT_CONVERGED': 7,
      'I12 NOT_PUBLISHED': 4,
      'I12 PROBE_NOT_DECIDED': 18,
      // Its claims copy the catalog the world served, F23's over-limit ones included (one publish
      // each in rounds 2 and 9, two in rounds 0 and 1, before and after the restart).
      'I27 OVER_LIMIT_PUBLISHED': 6,
      'I27 OVER_LIMIT_DISCLOSED': 28,
      // Issue 27: it reads each catalog once and claims the rest; the world served it no fresh
      // list after any list_changed in time, whatever it reports: 18 + 14 + 4 + 45 + 4 + 4 + 12 + 8
      // + 6 + 51 in rounds 0-9 (round 2's 4 and 12 of round 9's follow F30's edits).
      'I19 REFRESH_STARVED': 166,
      // Across a restart (rounds 0, 1, 7: 3 + 2 + 3 keys) it keeps nothing and numbers generation 1
      // again (I15, I10), and its scan ids (walk-0, ...) start again in each boot, so the oracle reads the new
      // boot's scans as the dead boot's (I14 SCAN_RESUMED_AFTER_RESTART 3 + 2 + 4; I13 CURSOR_REQUESTED_TWICE
      // 3 + 2 + 2 and PAGE_LIMIT_EXCEEDED 2 in round 7): ids must be unique across boots (docs/CORE-API.md).
      'I10 GENERATION_REPEATED': 8,
      'I15 COMMITTED_PUBLISH_LOST': 8,
      'I14 SCAN_RESUMED_AFTER_RESTART': 9,
      'I13 CURSOR_REQUESTED_TWICE': 7,
      'I13 PAGE_LIMIT_EXCEEDED': 2,
    });
    let publishes = 0;
    for (const round of all) {
      for (const event of round.events.filter((candidate) => candidate.type === 'published')) {
        publishes += 1;
        expect(event.status).toBe('ELIGIBLE');
        expect(at(round, event.seq, 'I2').map((violation) => violation.code)).toContain('PAGE_NOT_SERVED');
        const { pages } = event;
        if (pages.at(-1)?.cursorOut === null) expect(at(round, event.seq, 'I1').length).toBeGreaterThan(0);
      }
    }
    expect(publishes).toBe(39);
  });
});
