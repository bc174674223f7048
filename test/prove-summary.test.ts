/**
 * `catsim prove`'s verdict per mutant and its summary line, on made-up results: a mutant counts
 * as caught only by one of its expected invariants, and the median is the nearest-rank p50 of the
 * rounds to detection (a mutant not caught counts as the cap).
 */
import { describe, expect, it } from 'vitest';
import { detectionSummary, mutantLine, violationLine, type MutantResult } from '../cli/commands/prove.ts';

const base = { caughtFirstByOther: null, expected: ['I7'] };
const quick: MutantResult = {
  ...base,
  name: 'quick',
  caught: true,
  rounds: 3,
  firstRound: 2,
  caughtBy: 'I7 REVOKED_TOOL_ADMITTED',
};
const late: MutantResult = {
  ...base,
  name: 'late',
  caught: true,
  rounds: 40,
  firstRound: 39,
  caughtBy: 'I7 REVOKED_TOOL_ADMITTED',
  caughtFirstByOther: { round: 5, caughtBy: 'I12 NOT_CONVERGED' },
};
const wrong: MutantResult = {
  ...base,
  name: 'wrong',
  caught: false,
  rounds: 1000,
  firstRound: null,
  caughtBy: null,
  caughtFirstByOther: { round: 0, caughtBy: 'I2 PAGE_FOREIGN' },
};

describe('catsim prove: expected catchers and the median', () => {
  it('prints what caught a mutant next to what was expected, and flags one caught only by another invariant', () => {
    expect(mutantLine(quick, 1000)).toBe(
      `  ${'quick'.padEnd(26)} yes     ${'3 (round 2)'.padEnd(26)} I7 REVOKED_TOOL_ADMITTED   (expected: I7)`,
    );
    expect(mutantLine(late, 1000)).toBe(
      `  ${'late'.padEnd(26)} yes     ${'40 (round 39)'.padEnd(26)} I7 REVOKED_TOOL_ADMITTED   (expected: I7); round 5 failed earlier, only I12 NOT_CONVERGED`,
    );
    expect(mutantLine(wrong, 1000)).toBe(
      `  ${'wrong'.padEnd(26)} NO      ${'not within 1000'.padEnd(26)} -   (expected: I7); caught only by I2 PAGE_FOREIGN (round 0), never by an expected invariant`,
    );
  });

  it('the median of 3, 40 and 1000 (the cap) is 40; the slowest is the one not caught', () => {
    expect(detectionSummary([quick, late, wrong], 100)).toBe(
      'median rounds to detection: 40 over 3 mutants (goal: at most 100); slowest: wrong, not within 1000',
    );
    // Of [3, 40] the nearest-rank median is the first: rank ceil(0.5 * 2) = 1.
    expect(detectionSummary([late, quick], 100)).toBe(
      'median rounds to detection: 3 over 2 mutants (goal: at most 100); slowest: late, 40',
    );
  });

  it('a core beside the peers that lacks a capability says what went unjudged on its line, never a bare zero', () => {
    const zeros = `I1 0  I2 0  I3 0  I4 0  I5 0  I6 0  I7 0  I8 0  I9 0  I10 0  I11 0  I12 0  I13 0  I14 0  I15 0  I16 0  I17 0  I18 0  I19 0  I20 0  I21 0  I22 0  I23 0  I24 0  I25 0  I26 0  I27 0  I28 0  I29 0  I30 0  I31 0  I32 0  I33 0  I34 0  I35 0  I36 0  I37 0  I38 0  I39 0  I40 0`;
    const report = {
      violationsByInvariant: {},
      failingRounds: [],
      roundsRun: 20,
      notJudged: [{ capability: 'rollback' as const, rounds: 6, count: 11, accepted: false }],
    };
    expect(violationLine('peer:list-once', report)).toBe(
      `  ${'peer:list-once'.padEnd(24)}      0 violations in 0/20 rounds   ${zeros}   not judged: rollback (11 rollback triggers in 6 rounds)`,
    );
    expect(violationLine('reference', { ...report, notJudged: [] })).toBe(
      `  ${'reference'.padEnd(24)}      0 violations in 0/20 rounds   ${zeros}`,
    );
  });
});
