/**
 * Whole-verdict tests of clean rounds: nothing is reported and every invariant shows its work
 * count, so a group that silently stopped looking would fail here.
 */
import { describe, expect, it } from 'vitest';
import { checkEvents, checkTrace } from './check.ts';
import { admissionRound, cleanRound, disclosureRound } from './testing/scenarios.ts';
import { INVARIANT_IDS } from './violation.ts';
import { NO_CALL_METRICS, checkedCounts } from './testing/verdicts.ts';
import { noSurfaceMetrics } from './metrics.ts';

const ROUND = 17;

describe('clean rounds', () => {
  it('the plain clean round has no disclosures, defects or rollbacks to judge', () => {
    // I13: 2 scans from each side + 5 pages read (2 pages and a recheck, 1 page and a recheck).
    expect(checkTrace(cleanRound().build())).toEqual({
      round: ROUND,
      violations: [],
      checked: checkedCounts({ I1: 2, I2: 2, I4: 0, I5: 0, I10: 2, I11: 0, I12: 2, I13: 9 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('the disclosure round passes every invariant with exact work counts', () => {
    const { builder, seqs } = disclosureRound();
    expect(seqs).toEqual({
      devPublish: 14,
      opsPublish: 21,
      dev4Publish: 35,
      rollback: 36,
      dev4bPublish: 46,
      disclosures: [22, 23, 37, 47],
    });
    // I1, I2, I10: 5 publishes (rollback included); I4: 4 disclosures; I5: tool c in the 4 acme.dev
    // publishes; I11: 4 disclosures + 1 rollback; I12: 2 session audiences; I13: 4 scans from each
    // side + 11 pages read (3 + 2 + 3 + 3 over the 4 walks); I28: the 1 rollback (no trigger: no I21, I29 work).
    expect(checkTrace(builder.build())).toEqual({
      round: ROUND,
      violations: [],
      checked: checkedCounts({ I1: 5, I2: 5, I4: 4, I5: 4, I10: 5, I11: 5, I12: 2, I13: 19, I28: 1 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('the admission round passes every invariant with exact work counts and metrics', () => {
    const { builder, seqs } = admissionRound();
    expect(seqs).toEqual({
      devPublish: 17,
      disclosure: 25,
      write: {
        plan: 26,
        confirmation: null,
        decision: 27,
        receipt: 28,
        executed: 29,
        outcome: 30,
        leaseId: 'lease-p0',
      },
      revocation: 31,
      revocationSeen: 33,
      revoked: {
        plan: 34,
        confirmation: null,
        decision: 35,
        receipt: null,
        executed: null,
        outcome: null,
        leaseId: null,
      },
      probeDisclosure: 37,
      probe: {
        plan: 38,
        confirmation: null,
        decision: 39,
        receipt: 40,
        executed: 41,
        outcome: 42,
        leaseId: 'lease-p2',
      },
      roundEnd: 43,
    });
    // I3: no unversioned source; I6: 2 executed calls + 2 receipts + 2 outcomes; I7: 2 ADMITs + 3
    // policy_seen; I8: 2 ADMITs; I9: 2 ADMITs + 2 executed calls; I11: 2 disclosures + 2 ADMITs;
    // I12: 2 session audiences + 1 expected probe; I13: 2 scans from each side + 5 pages read.
    expect(checkTrace(builder.build())).toEqual({
      round: ROUND,
      violations: [],
      checked: checkedCounts({
        I1: 2,
        I2: 2,
        I3: 0,
        I4: 2,
        I5: 0,
        I6: 6,
        I7: 5,
        I8: 2,
        I9: 4,
        I10: 2,
        I11: 4,
        I12: 3,
        I13: 9,
      }),
      metrics: {
        decisions: { ADMIT: 2, POLICY_REVOKED: 1 },
        revocationDelaysMs: [40],
        revocationsCensored: 0,
        receipts: { executed: 2, covered: 2 },
        unknownDialectAdmissions: 0,
        probes: { expected: 1, admitted: 1 },
        surface: noSurfaceMetrics(),
      },
    });
  });

  it('reports a work count for every invariant id, in id order', () => {
    const { builder } = disclosureRound();
    const trace = builder.build();
    expect(Object.keys(checkEvents(trace.header, trace.events).checked)).toEqual([...INVARIANT_IDS]);
  });
});
