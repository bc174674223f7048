import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PROBES } from '../oracle/probes/index.ts';
import { ReportBuilder, campaignDigest } from './report.ts';
import type { RoundSummary } from './round-check.ts';
import { noSurfaceMetrics } from '../oracle/metrics.ts';

/** A round summary with everything zero except what the test sets. */
function summary(
  round: number,
  over: Partial<RoundSummary> & { delays?: number[]; censored?: number; executed?: number; covered?: number } = {},
): RoundSummary {
  const { delays = [], censored = 0, executed = 0, covered = 0, ...rest } = over;
  return {
    round,
    status: 'settled',
    faults: [],
    endStates: {},
    endReasons: {},
    violations: [],
    probes: [],
    decisions: {},
    metrics: {
      revocationDelaysMs: delays,
      revocationsCensored: censored,
      receipts: { executed, covered },
      unknownDialectAdmissions: 0,
      probes: { expected: 0, admitted: 0 },
      surface: noSurfaceMetrics(),
    },
    traceDigest: `digest-${round}`,
    events: 1,
    endedEarly: false,
    ...rest,
  };
}

const META = {
  seed: '9',
  scenario: 'default',
  scenarioPath: null,
  scenarioDigest: '0'.repeat(64),
  catalog: null,
  core: 'reference',
  firstRound: 10,
  roundsPlanned: 4,
  faults: ['F1', 'F8'] as const,
};

describe('ReportBuilder', () => {
  it('folds rounds arriving out of order into the same report as in order', () => {
    const rounds = [
      summary(10, {
        faults: ['F8'],
        decisions: { ADMIT: 2, POLICY_REVOKED: 1 },
        delays: [100, 250],
        executed: 2,
        covered: 2,
        endStates: { SNAPSHOT_PROVEN: 3 },
      }),
      summary(11, {
        faults: ['F1', 'F8'],
        decisions: { ADMIT: 1 },
        delays: [50],
        censored: 1,
        executed: 1,
        covered: 1,
        probes: ['revoked-refused'],
      }),
      summary(12, { status: 'undecided', endReasons: { LIST_CHANGED: 2 } }),
      summary(13, {
        violations: [{ invariant: 'I8', code: 'X', seq: 4, evidence: 'e' } as never],
        decisions: { UNDISCLOSED_TOOL: 1 },
        delays: [300],
      }),
    ];
    const inOrder = new ReportBuilder({ ...META, faults: [...META.faults] });
    for (const round of rounds) inOrder.add(round);
    const shuffled = new ReportBuilder({ ...META, faults: [...META.faults] });
    for (const index of [3, 1, 0, 2]) shuffled.add(rounds[index] as RoundSummary);
    const a = inOrder.build(1000, false);
    const b = shuffled.build(2000, false);
    expect(JSON.stringify({ ...b, elapsedMs: 0, roundsPerSecond: 0 })).toBe(
      JSON.stringify({ ...a, elapsedMs: 0, roundsPerSecond: 0 }),
    );
    expect(a.roundsRun).toBe(4);
    expect(a.resumeFrom).toBe(14);
    expect(a.faultsEnabled).toEqual({ F1: 1, F8: 2 });
    expect(a.decisions).toEqual({ ADMIT: 3, POLICY_REVOKED: 1, UNDISCLOSED_TOOL: 1 });
    expect(Object.keys(b.decisions)).toEqual(['ADMIT', 'POLICY_REVOKED', 'UNDISCLOSED_TOOL']);
    // Delays 50, 100, 250, 300: nearest rank p50 = 2nd (100), p99 = 4th (300).
    expect(a.revocation).toEqual({ count: 4, censored: 1, p50Ms: 100, p99Ms: 300, maxMs: 300 });
    expect(a.receipts).toEqual({ executed: 3, covered: 3 });
    expect(a.undecidedRounds).toBe(1);
    expect(a.failingRounds.map((round) => [round.round, round.undecided, round.violations.length])).toEqual([
      [12, true, 0],
      [13, false, 1],
    ]);
    expect(a.probes['revoked-refused']).toBe(1);
    expect(Object.keys(a.probes)).toEqual(PROBES.map((probe) => probe.name));
    expect(a.roundsPerSecond).toBe(4);
  });

  it('covers only the rounds done without a gap: a round finished ahead of an unfinished one is left out, with its replay', () => {
    const builder = new ReportBuilder({ ...META, faults: [] });
    builder.add(summary(10), 'same');
    builder.add(summary(12, { violations: [{ invariant: 'I1', code: 'X', seq: 1, evidence: 'e' } as never] }), 3);
    const report = builder.build(10, true);
    // Round 11 never finished: the report, its digest and the resume point all stop at round 10.
    expect([report.roundsRun, report.resumeFrom, report.interrupted]).toEqual([1, 11, true]);
    expect(report.campaignDigest).toBe(campaignDigest(new Map([[10, 'digest-10']])));
    expect(report.mergeData.roundDigests).toEqual(['digest-10']);
    expect([report.failingRounds, report.determinism]).toEqual([[], { replayed: 1, mismatches: [] }]);
    // Once round 11 arrives, round 12 follows it in.
    builder.add(summary(11));
    const later = builder.build(10, true);
    expect([later.roundsRun, later.resumeFrom, later.mergeData.roundDigests]).toEqual([
      3,
      13,
      ['digest-10', 'digest-11', 'digest-12'],
    ]);
    expect(later.determinism).toEqual({ replayed: 2, mismatches: [{ round: 12, firstDifferingSeq: 3 }] });
  });

  it('refuses a round reported twice, folded or still waiting, and a round outside its block', () => {
    const builder = new ReportBuilder({ ...META, faults: [] });
    builder.add(summary(10));
    builder.add(summary(12));
    expect(() => builder.add(summary(10))).toThrow('round 10 was reported twice');
    expect(() => builder.add(summary(12))).toThrow('round 12 was reported twice');
    expect(() => builder.add(summary(14))).toThrow('round 14 is outside rounds 10..13');
  });

  it('the probe gate holds every core to the world probes it requires, and only the reference core to the others', () => {
    const gate = { rounds: 2, required: ['cursor-loop-served', 'cursor-loop-quarantined', 'aba-served-inside-walk'] };
    const missed = (core: string, rounds: number, probes: string[]) => {
      const builder = new ReportBuilder({ ...META, core, firstRound: 0, roundsPlanned: rounds, faults: [] }, gate);
      for (let round = 0; round < rounds; round += 1)
        builder.add(summary(round, { probes: round === 0 ? probes : [] }));
      return builder.build(1, false).probesMissed;
    };
    expect(missed('reference', 2, ['aba-served-inside-walk'])).toEqual([
      'cursor-loop-served',
      'cursor-loop-quarantined',
    ]);
    expect(missed('peer:list-once', 2, ['aba-served-inside-walk'])).toEqual(['cursor-loop-served']);
    expect(missed('./my-core.ts', 2, ['cursor-loop-served', 'aba-served-inside-walk'])).toEqual([]);
    // A campaign below the gate's size is held to nothing.
    expect(missed('peer:list-once', 1, [])).toEqual([]);
  });

  it('digests the rounds in round order, whatever order they finished in', () => {
    const expected = createHash('sha256').update('catsim.campaign.v1\n10 digest-10\n11 digest-11\n').digest('hex');
    expect(
      campaignDigest(
        new Map([
          [11, 'digest-11'],
          [10, 'digest-10'],
        ]),
      ),
    ).toBe(expected);
    expect(campaignDigest(new Map())).toBeNull();
    const builder = new ReportBuilder({ ...META, faults: [] });
    builder.add(summary(11));
    builder.add(summary(10));
    expect(builder.build(1, false).campaignDigest).toBe(expected);
  });
});
