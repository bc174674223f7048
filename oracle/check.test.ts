/**
 * Whole-verdict tests of clean rounds: nothing is reported and every invariant shows its work
 * count, so a group that silently stopped looking would fail here.
 */
import { describe, expect, it } from 'vitest';
import { checkEvents, checkTrace } from './check.ts';
import { cleanRound, disclosureRound } from './testing/scenarios.ts';
import { INVARIANT_IDS } from './violation.ts';

const ROUND = 17;

describe('clean rounds', () => {
  it('the plain clean round has no disclosures, defects or rollbacks to judge', () => {
    expect(checkTrace(cleanRound().build())).toEqual({
      round: ROUND, violations: [], checked: { I1: 2, I2: 2, I4: 0, I5: 0, I10: 2, I11: 0, I12: 2, I13: 4 },
    });
  });

  it('the disclosure round passes every invariant with exact work counts', () => {
    const { builder, seqs } = disclosureRound();
    expect(seqs).toEqual({ devPublish: 14, opsPublish: 21, dev4Publish: 35, rollback: 36, dev4bPublish: 46, disclosures: [22, 23, 37, 47] });
    // I1, I2, I10: 5 publishes (rollback included); I4: 4 disclosures; I5: tool c in the 4 acme.dev
    // publishes; I11: 4 disclosures + 1 rollback; I12: 2 session audiences; I13: 4 scans from each side.
    expect(checkTrace(builder.build())).toEqual({
      round: ROUND, violations: [], checked: { I1: 5, I2: 5, I4: 4, I5: 4, I10: 5, I11: 5, I12: 2, I13: 8 },
    });
  });

  it('reports a work count for every invariant id, in id order', () => {
    const { builder } = disclosureRound();
    const trace = builder.build();
    expect(Object.keys(checkEvents(trace.header, trace.events).checked)).toEqual([...INVARIANT_IDS]);
  });
});
