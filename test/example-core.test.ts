/**
 * The template core a user copies (examples/list-once-host/core.ts) keeps working: loaded as
 * `--core` loads it, on rounds 0-9 of seed 1, it breaks exactly these invariants, each for the
 * host's own reason (read off the runs, and checked against the traces below).
 */
import { describe, expect, it } from 'vitest';
import { loadCore } from '../sim/campaign/cores.ts';
import { runAndCheck } from '../sim/campaign/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';

const EXAMPLE = './examples/list-once-host/core.ts';

describe('examples/list-once-host: a host that lists once per session and calls by name', () => {
  it('fails every one of rounds 0-9 of seed 1, on exactly these invariants, for the host\'s own defects', async () => {
    const core = await loadCore(EXAMPLE);
    const counts: Record<string, number> = {};
    const guessed: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      const { summary, run } = await runAndCheck('1', round, loadScenario('default'), core, EXAMPLE);
      expect(summary.status).toBe('settled');
      expect(summary.violations.length).toBeGreaterThan(0);
      const kindOfPlan = new Map(run.events.filter((event) => event.type === 'plan_made').map((event) => [`${event.session} ${event.planId}`, event.kind]));
      const planOfDecision = new Map(run.events.filter((event) => event.type === 'gate_decision').map((event) => [event.seq, `${event.session} ${event.planId}`]));
      for (const violation of summary.violations) {
        const code = `${violation.invariant} ${violation.code}`;
        counts[code] = (counts[code] ?? 0) + 1;
        if (code === 'I8 TOOL_NOT_IN_GENERATION' || code === 'I9 UNDISCLOSED_TOOL_ADMITTED') guessed.push(String(kindOfPlan.get(planOfDecision.get(violation.seq ?? -1) ?? '')));
      }
    }
    expect(counts).toEqual({
      // It never refreshes: a catalog that changed after the one walk never converges, and a walk
      // that never ends (cursor loops) or fails (a page the SDK's schema rejects) publishes nothing.
      'I12 NOT_PUBLISHED': 11,
      'I12 NOT_CONVERGED': 1,
      // It follows any cursor: loops are walked past every bound.
      'I13 CURSOR_REQUESTED_TWICE': 12,
      'I13 PAGE_LIMIT_EXCEEDED': 12,
      // It checks no descriptor and no revision (round 2 alone, with planted defects on both its
      // servers, has 25 of the I5 findings).
      'I5 DEFECT_ADMITTED': 46,
      'I2 MIXED_REVISIONS': 1,
      // It applies no whole-catalog limit (F23): in round 2 it publishes a catalog over the byte
      // limit; in round 7 one over the tool count, shows it 9 times and admits 40 calls from it.
      'I27 OVER_LIMIT_PUBLISHED': 2,
      'I27 OVER_LIMIT_DISCLOSED': 9,
      'I27 OVER_LIMIT_ADMITTED': 40,
      // It sends whatever its model asks for.
      'I3 UNCONFIRMED_WRITE_EXECUTED': 7,
      'I7 REVOKED_TOOL_ADMITTED': 3,
      'I8 TOOL_NOT_IN_GENERATION': 12,
      'I9 UNDISCLOSED_TOOL_ADMITTED': 12,
      'I9 UNDISCLOSED_TOOL_EXECUTED': 11,
    });
    // Every call to a tool it never showed is a name the model guessed (F17), sent as asked.
    expect(guessed).toEqual(Array(24).fill('guessed'));
  });
});
