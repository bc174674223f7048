/**
 * The campaign report: round summaries folded into the gate verdict. Everything in it except
 * `elapsedMs` and `roundsPerSecond` depends only on (seed, rounds, scenario, core), never on
 * the number of workers or the order in which rounds finished.
 */
import { createHash } from 'node:crypto';
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
  /**
   * The scenario file as given to `run --scenario` when it was a path (ends in `.json`), or null
   * for a built-in scenario name; the replay lines name it, since its `name` field may not be a
   * built-in one (or may be, for a different file).
   */
  scenarioPath: string | null;
  /** sha256 (hex) of the scenario's RFC 8785 canonical JSON: `catsim merge` refuses shards whose scenarios differ. */
  scenarioDigest: string;
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
  /**
   * sha256 over every round's trace digest in round order ({@link campaignDigest}); the same
   * seed, rounds, scenario and core give the same value on any machine and any number of
   * workers. Null when no round ran.
   */
  campaignDigest: string | null;
  /**
   * Set when this run was one shard of a campaign (`run --shard i/n`): the whole campaign's
   * first round and round count; this report's `firstRound` and `roundsPlanned` are the shard's
   * block. Null for a whole campaign and for the report `catsim merge` builds.
   */
  shard: ShardOfCampaign | null;
  /** What `catsim merge` needs besides the totals; present only on shard reports. */
  shardData?: ShardData;
  /** Real time the campaign took, ms (a merged report: the sum over its shards). */
  elapsedMs: number;
  roundsPerSecond: number;
}

/** Which shard of which campaign a report covers (`--shard index/count`, 1-based). */
export interface ShardOfCampaign {
  index: number;
  count: number;
  /** The whole campaign's first round and number of rounds. */
  firstRound: number;
  rounds: number;
}

/** The per-round facts of a shard that totals cannot carry, for an exact merge. */
export interface ShardData {
  /** Trace digest of each round of the shard's block, in round order (from `firstRound`). */
  roundDigests: string[];
  /** Every revocation delay of the shard (simulated ms), ascending, for exact percentiles. */
  revocationDelaysMs: number[];
  revocationsCensored: number;
  /** The scenario's probe gate, judged by merge over all shards (never by one shard). */
  probeGate: { rounds?: number; required?: string[] };
}

/**
 * The block of rounds shard `index` of `count` runs, of the campaign [firstRound, firstRound +
 * rounds): contiguous, sizes differing by at most one, together exactly the campaign.
 * @returns the shard's first round and its number of rounds.
 */
export function shardBlock(firstRound: number, rounds: number, index: number, count: number): { firstRound: number; rounds: number } {
  const start = Math.floor(((index - 1) * rounds) / count);
  const end = Math.floor((index * rounds) / count);
  return { firstRound: firstRound + start, rounds: end - start };
}

/**
 * Folds round summaries (any order) into a report as they arrive. It keeps the counts, the
 * failing rounds, every revocation delay (one number each, for exact percentiles) and every
 * round's trace digest (for the campaign digest), never the summaries themselves: memory grows
 * by about 100 bytes a round, not by a summary (~1.4 KB).
 */
export class ReportBuilder {
  readonly #totals: Totals;
  /** Trace digest of every round run, by round. */
  readonly #traceDigests = new Map<number, string>();
  readonly #revocationDelaysMs: number[] = [];
  #revocationsCensored = 0;
  readonly #mismatches: { round: number; firstDifferingSeq: number | null }[] = [];
  #replayed = 0;

  constructor(
    private readonly meta: { seed: string; scenario: string; scenarioPath: string | null; scenarioDigest: string; catalog: CampaignReport['catalog']; core: string; firstRound: number; roundsPlanned: number; faults: readonly string[]; shard?: ShardOfCampaign | null },
    private readonly probeGate: { rounds?: number; required?: readonly string[] } = {},
  ) {
    this.#totals = {
      violationsByInvariant: {},
      undecidedRounds: 0,
      endStates: {},
      endReasons: {},
      faultsEnabled: Object.fromEntries(meta.faults.map((fault) => [fault, 0])),
      failingRounds: [],
      probes: Object.fromEntries(PROBES.map((probe) => [probe.name, 0])),
      decisions: {},
      receipts: { executed: 0, covered: 0 },
      unknownDialectAdmissions: 0,
      probeCalls: { expected: 0, admitted: 0 },
    };
  }

  #resumeFrom(): number {
    const end = this.meta.firstRound + this.meta.roundsPlanned;
    for (let round = this.meta.firstRound; round < end; round += 1) if (!this.#traceDigests.has(round)) return round;
    return end;
  }

  /** The probe gate (SPEC section 11) is judged on the reference core only, for campaigns of the gate's size. */
  #missedProbes(probes: Record<string, number>, roundsRun: number): string[] {
    if (this.#shard !== null) return []; // judged by merge, over every shard
    if (this.meta.core !== 'reference' || this.probeGate.rounds === undefined || roundsRun < this.probeGate.rounds) return [];
    const required = this.probeGate.required ?? PROBES.map((probe) => probe.name);
    return required.filter((name) => (probes[name] ?? 0) === 0);
  }

  /** Folds one round in. @throws Error when the round was already folded (a campaign runs each round once). */
  add(summary: RoundSummary): void {
    if (this.#traceDigests.has(summary.round)) throw new Error(`round ${summary.round} was reported twice`);
    this.#traceDigests.set(summary.round, summary.traceDigest);
    fold(this.#totals, summary);
    for (const delay of summary.metrics.revocationDelaysMs) this.#revocationDelaysMs.push(delay);
    this.#revocationsCensored += summary.metrics.revocationsCensored;
  }

  get #shard(): ShardOfCampaign | null {
    return this.meta.shard ?? null;
  }

  /**
   * Folds in a whole shard report (what `catsim merge` does, one call per shard).
   * @throws Error when the report carries no shard data or one of its rounds was already folded.
   */
  addShard(report: CampaignReport): void {
    const data = report.shardData;
    if (data === undefined) throw new Error(`rounds ${report.firstRound}.. are not a shard report`);
    data.roundDigests.forEach((digest, offset) => {
      const round = report.firstRound + offset;
      if (this.#traceDigests.has(round)) throw new Error(`round ${round} is in two shards`);
      this.#traceDigests.set(round, digest);
    });
    foldTotals(this.#totals, report);
    for (const delay of data.revocationDelaysMs) this.#revocationDelaysMs.push(delay);
    this.#revocationsCensored += data.revocationsCensored;
    this.#replayed += report.determinism.replayed;
    this.#mismatches.push(...report.determinism.mismatches);
  }

  /** Records one determinism replay; `firstDifferingSeq` null means identical. */
  addReplay(round: number, firstDifferingSeq: number | null | 'same'): void {
    this.#replayed += 1;
    if (firstDifferingSeq !== 'same') this.#mismatches.push({ round, firstDifferingSeq });
  }

  get roundsRun(): number {
    return this.#traceDigests.size;
  }

  /** The report so far; `elapsedMs` is real time (throughput only). Does not change the builder. */
  build(elapsedMs: number, interrupted: boolean): CampaignReport {
    const { faults: _faults, shard: _shard, ...meta } = this.meta;
    const totals = structuredClone(this.#totals);
    // Rounds arrive in the order workers finish them: sort what that order could change.
    totals.failingRounds.sort((a, b) => a.round - b.round);
    for (const field of ['violationsByInvariant', 'endStates', 'endReasons', 'decisions'] as const) totals[field] = byKey(totals[field]);
    const delays = [...this.#revocationDelaysMs].sort((a, b) => a - b);
    const roundsRun = this.roundsRun;
    return {
      ...meta,
      roundsRun,
      interrupted,
      resumeFrom: this.#resumeFrom(),
      ...totals,
      probesMissed: this.#missedProbes(totals.probes, roundsRun),
      revocation: {
        count: delays.length,
        censored: this.#revocationsCensored,
        p50Ms: delays.length === 0 ? null : percentile(delays, 50),
        p99Ms: delays.length === 0 ? null : percentile(delays, 99),
        maxMs: delays.at(-1) ?? null,
      },
      determinism: { replayed: this.#replayed, mismatches: [...this.#mismatches].sort((a, b) => a.round - b.round) },
      campaignDigest: campaignDigest(this.#traceDigests),
      shard: this.#shard,
      ...(this.#shard === null ? {} : { shardData: this.#shardData(delays) }),
      elapsedMs,
      roundsPerSecond: elapsedMs > 0 ? (roundsRun * 1000) / elapsedMs : 0,
    };
  }

  #shardData(sortedDelaysMs: number[]): ShardData {
    const roundDigests: string[] = [];
    const end = this.meta.firstRound + this.meta.roundsPlanned;
    for (let round = this.meta.firstRound; round < end && this.#traceDigests.has(round); round += 1) roundDigests.push(this.#traceDigests.get(round) as string);
    const probeGate: ShardData['probeGate'] = {};
    if (this.probeGate.rounds !== undefined) probeGate.rounds = this.probeGate.rounds;
    if (this.probeGate.required !== undefined) probeGate.required = [...this.probeGate.required];
    return { roundDigests, revocationDelaysMs: sortedDelaysMs, revocationsCensored: this.#revocationsCensored, probeGate };
  }
}

/**
 * sha256 of `catsim.campaign.v1\n` followed by one line `ROUND TRACE_DIGEST\n` per round run, in
 * round order: equal digests mean every round produced a byte-identical trace. Null when no round ran.
 */
export function campaignDigest(traceDigests: ReadonlyMap<number, string>): string | null {
  if (traceDigests.size === 0) return null;
  const hash = createHash('sha256').update('catsim.campaign.v1\n');
  for (const round of [...traceDigests.keys()].sort((a, b) => a - b)) hash.update(`${round} ${traceDigests.get(round)}\n`);
  return hash.digest('hex');
}

type Totals = Pick<CampaignReport, 'violationsByInvariant' | 'undecidedRounds' | 'endStates' | 'endReasons' | 'faultsEnabled' | 'failingRounds' | 'probes' | 'decisions' | 'receipts' | 'unknownDialectAdmissions' | 'probeCalls'>;

function fold(report: Totals, summary: RoundSummary): void {
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

/** `counts` with its keys in code-unit order, so the JSON report does not depend on arrival order. */
function byKey(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Adds the totals of a whole report to `into` (merging shards). */
function foldTotals(into: Totals, from: Totals): void {
  for (const field of ['violationsByInvariant', 'endStates', 'endReasons', 'faultsEnabled', 'probes', 'decisions'] as const) {
    for (const [key, count] of Object.entries(from[field])) add(into[field], key, count);
  }
  into.undecidedRounds += from.undecidedRounds;
  into.failingRounds.push(...from.failingRounds);
  into.receipts.executed += from.receipts.executed;
  into.receipts.covered += from.receipts.covered;
  into.unknownDialectAdmissions += from.unknownDialectAdmissions;
  into.probeCalls.expected += from.probeCalls.expected;
  into.probeCalls.admitted += from.probeCalls.admitted;
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
