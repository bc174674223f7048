/**
 * The campaign report: round summaries folded into the gate verdict. Everything in it except
 * `elapsedMs` and `roundsPerSecond` depends only on (seed, rounds, scenario, core), never on
 * the number of workers or the order in which rounds finished.
 */
import type { Violation } from '../../oracle/index.ts';
import type { FaultId } from '../plan/types.ts';
import { percentile } from '../../oracle/index.ts';
import { PROBES } from './probes.ts';
import type { RoundSummary } from './round-check.ts';

/** One failing round: a violation, an UNDECIDED end, or both. */
export interface FailingRound {
  round: number;
  undecided: boolean;
  violations: Violation[];
}

/** The result of a campaign. */
export interface CampaignReport {
  seed: string;
  /** The scenario's name, followed by `+catalog:NAME` when the run used a catalog file. */
  scenario: string;
  /** The catalog file the run used (`run --catalog PATH`, path as given), or null. */
  catalog: { name: string; path: string } | null;
  core: string;
  firstRound: number;
  roundsPlanned: number;
  roundsRun: number;
  interrupted: boolean;
  /**
   * The first round not run: resuming with `--from` this value runs every round that was not
   * (workers finish rounds out of order, so some later rounds may run twice; none is skipped).
   */
  resumeFrom: number;
  violationsByInvariant: Record<string, number>;
  undecidedRounds: number;
  endStates: Record<string, number>;
  endReasons: Record<string, number>;
  faultsEnabled: Record<string, number>;
  failingRounds: FailingRound[];
  /** Coverage probes: rounds that hit each probe (every probe listed, zero included). */
  probes: Record<string, number>;
  /** Required probes with zero hits, when the probe gate applies (reference core, enough rounds); else empty. */
  probesMissed: string[];
  /** Gate decisions over the campaign, by decision (`ADMIT` or a refusal code). */
  decisions: Record<string, number>;
  /**
   * Revocation propagation (simulated ms from a revocation to the core seeing its epoch):
   * nearest-rank p50 and p99 over every revocation, and how many were never seen (censored at the
   * round's end). Null percentiles when no revocation happened.
   */
  revocation: { count: number; censored: number; p50Ms: number | null; p99Ms: number | null; maxMs: number | null };
  /** Calls the servers executed, and how many have exactly one valid receipt (I6). */
  receipts: { executed: number; covered: number };
  /** Admissions of tools planted with an unknown JSON Schema dialect (must be 0). */
  unknownDialectAdmissions: number;
  /** Quiet-tail probe calls ground truth says a correct core must admit, and how many it did. */
  probeCalls: { expected: number; admitted: number };
  /** Rounds replayed in a fresh world by the determinism self-check, and how many differed. */
  determinism: { replayed: number; mismatches: { round: number; firstDifferingSeq: number | null }[] };
  elapsedMs: number;
  roundsPerSecond: number;
}

/** Folds round summaries (any order) into a report. */
export class ReportBuilder {
  readonly #summaries = new Map<number, RoundSummary>();
  readonly #mismatches: { round: number; firstDifferingSeq: number | null }[] = [];
  #replayed = 0;

  constructor(
    private readonly meta: { seed: string; scenario: string; catalog: CampaignReport['catalog']; core: string; firstRound: number; roundsPlanned: number; faults: readonly FaultId[] },
    private readonly probeGate: { rounds?: number; required?: readonly string[] } = {},
  ) {}

  #resumeFrom(): number {
    const end = this.meta.firstRound + this.meta.roundsPlanned;
    for (let round = this.meta.firstRound; round < end; round += 1) if (!this.#summaries.has(round)) return round;
    return end;
  }

  /** The probe gate (SPEC section 11) is judged on the reference core only, for campaigns of the gate's size. */
  #missedProbes(report: CampaignReport): string[] {
    if (report.core !== 'reference' || this.probeGate.rounds === undefined || report.roundsRun < this.probeGate.rounds) return [];
    const required = this.probeGate.required ?? PROBES.map((probe) => probe.name);
    return required.filter((name) => (report.probes[name] ?? 0) === 0);
  }

  add(summary: RoundSummary): void {
    this.#summaries.set(summary.round, summary);
  }

  /** Records one determinism replay; `firstDifferingSeq` null means identical. */
  addReplay(round: number, firstDifferingSeq: number | null | 'same'): void {
    this.#replayed += 1;
    if (firstDifferingSeq !== 'same') this.#mismatches.push({ round, firstDifferingSeq });
  }

  get roundsRun(): number {
    return this.#summaries.size;
  }

  build(elapsedMs: number, interrupted: boolean): CampaignReport {
    const summaries = [...this.#summaries.values()].sort((a, b) => a.round - b.round);
    const { faults, ...meta } = this.meta;
    const report: CampaignReport = {
      ...meta,
      roundsRun: summaries.length,
      interrupted,
      resumeFrom: this.#resumeFrom(),
      violationsByInvariant: {},
      undecidedRounds: 0,
      endStates: {},
      endReasons: {},
      faultsEnabled: Object.fromEntries(faults.map((fault) => [fault, 0])),
      failingRounds: [],
      probes: Object.fromEntries(PROBES.map((probe) => [probe.name, 0])),
      probesMissed: [],
      decisions: {},
      revocation: { count: 0, censored: 0, p50Ms: null, p99Ms: null, maxMs: null },
      receipts: { executed: 0, covered: 0 },
      unknownDialectAdmissions: 0,
      probeCalls: { expected: 0, admitted: 0 },
      determinism: { replayed: this.#replayed, mismatches: [...this.#mismatches].sort((a, b) => a.round - b.round) },
      elapsedMs,
      roundsPerSecond: elapsedMs > 0 ? (summaries.length * 1000) / elapsedMs : 0,
    };
    for (const summary of summaries) fold(report, summary);
    const delays = summaries.flatMap((summary) => summary.metrics.revocationDelaysMs).sort((a, b) => a - b);
    report.revocation = {
      count: delays.length,
      censored: summaries.reduce((sum, summary) => sum + summary.metrics.revocationsCensored, 0),
      p50Ms: delays.length === 0 ? null : percentile(delays, 50),
      p99Ms: delays.length === 0 ? null : percentile(delays, 99),
      maxMs: delays.at(-1) ?? null,
    };
    report.probesMissed = this.#missedProbes(report);
    return report;
  }
}

function fold(report: CampaignReport, summary: RoundSummary): void {
  for (const fault of summary.faults) add(report.faultsEnabled, fault, 1);
  for (const [state, count] of Object.entries(summary.endStates)) add(report.endStates, state, count);
  for (const [reason, count] of Object.entries(summary.endReasons)) add(report.endReasons, reason, count);
  for (const violation of summary.violations) add(report.violationsByInvariant, violation.invariant, 1);
  for (const probe of summary.probes) add(report.probes, probe, 1);
  for (const [decision, count] of Object.entries(summary.decisions)) add(report.decisions, decision, count);
  report.receipts.executed += summary.metrics.receipts.executed;
  report.receipts.covered += summary.metrics.receipts.covered;
  report.unknownDialectAdmissions += summary.metrics.unknownDialectAdmissions;
  report.probeCalls.expected += summary.metrics.probes.expected;
  report.probeCalls.admitted += summary.metrics.probes.admitted;
  const undecided = summary.status === 'undecided';
  if (undecided) report.undecidedRounds += 1;
  if (undecided || summary.violations.length > 0) report.failingRounds.push({ round: summary.round, undecided, violations: summary.violations });
}

function add(counts: Record<string, number>, key: string, by: number): void {
  counts[key] = (counts[key] ?? 0) + by;
}

/** The exit code of a campaign (SPEC section 13): 3 testbed failure, 1 violation or UNDECIDED, else 0. */
export function exitCodeOf(report: CampaignReport): number {
  if (report.determinism.mismatches.length > 0) return 3;
  if (report.failingRounds.length > 0 || report.interrupted || report.probesMissed.length > 0) return 1;
  return 0;
}
