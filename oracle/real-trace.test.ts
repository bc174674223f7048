/**
 * A real trace: round 11 of seed 3 of the default scenario, run on the reference core and written
 * by `catsim replay --seed 3 --round 11 --trace oracle/testing/fixtures/seed3-round11.jsonl`. Its
 * server is unversioned; the round has a planted defect, a revocation, confirmations, a guessed
 * tool, refusals and quiet-tail probes. The file is frozen: it checks the oracle against what the
 * simulator really writes, whatever the simulator writes today.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkEvents, checkTrace } from './check.ts';
import { parseTrace, type Trace, type TraceEvent } from './trace.ts';
import { checkedCounts } from './testing/verdicts.ts';
import { noSurfaceMetrics } from './metrics.ts';

const FIXTURE = new URL('./testing/fixtures/seed3-round11.jsonl', import.meta.url);

function fixture(): Trace {
  return parseTrace(readFileSync(FIXTURE, 'utf8'));
}

/** The fixture's events without those `drop` selects, renumbered so that seq is the index again. */
function without(trace: Trace, drop: (event: TraceEvent) => boolean): TraceEvent[] {
  return trace.events.filter((event) => !drop(event)).map((event, seq) => ({ ...event, seq }));
}

/** A violation as [invariant, code, tool of the executed call it names]. */
function brief(violation: { invariant: string; code: string; evidence: string }): string[] {
  return [violation.invariant, violation.code, /executed "([^"]+)"/.exec(violation.evidence)?.[1] ?? ''];
}

describe('a real round of the reference core (seed 3, round 11)', () => {
  it('has no violation, with exact work counts and metrics', () => {
    // The fixture has 6 receipt outcomes (I6 12 + 6), 2 policy_seen (I7 6 + 2) and 27 page reads
    // (I13 28 + 27) besides what the other counts name.
    expect(checkTrace(fixture())).toEqual({
      round: 11,
      violations: [],
      checked: checkedCounts({
        I1: 0,
        I2: 11,
        I3: 6,
        I4: 10,
        I5: 13,
        I6: 18,
        I7: 8,
        I8: 6,
        I9: 12,
        I10: 11,
        I11: 16,
        I12: 6,
        I13: 55,
      }),
      metrics: {
        decisions: { ADMIT: 6, ARGS_INVALID: 1, TOOL_QUARANTINED: 2, UNDISCLOSED_TOOL: 1 },
        revocationDelaysMs: [372],
        revocationsCensored: 0,
        receipts: { executed: 6, covered: 6 },
        unknownDialectAdmissions: 0,
        probes: { expected: 5, admitted: 5 },
        surface: noSurfaceMetrics(),
      },
    });
  });

  it('I3: without its confirmations, both confirmed writes become violations', () => {
    const trace = fixture();
    const verdict = checkEvents(
      trace.header,
      without(trace, (event) => event.type === 'confirmation'),
    );
    expect(verdict.violations.map(brief)).toEqual([
      ['I3', 'UNCONFIRMED_WRITE_EXECUTED', 'merge_pull_request'],
      ['I3', 'UNCONFIRMED_WRITE_EXECUTED', 'deploy_service'],
    ]);
  });

  it('I6: without one receipt, its executed call has none, and its outcome follows no receipt', () => {
    const trace = fixture();
    const verdict = checkEvents(
      trace.header,
      without(trace, (event) => event.type === 'receipt' && event['leaseId'] === 'lease-2'),
    );
    expect(verdict.violations.map(brief)).toEqual([
      ['I6', 'CALL_WITHOUT_RECEIPT', 'get_metrics'],
      ['I6', 'OUTCOME_WITHOUT_RECEIPT', ''],
    ]);
    expect(verdict.metrics.receipts).toEqual({ executed: 6, covered: 5 });
  });
});
