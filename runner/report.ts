/**
 * The campaign report: round summaries folded into the gate verdict. Everything in it except
 * `elapsedMs` and `roundsPerSecond` depends only on (seed, rounds, scenario, core), never on
 * the number of workers or the order in which rounds finished.
 *
 * A report covers one contiguous block of rounds, exactly `firstRound .. firstRound + roundsRun -
 * 1`: rounds are folded in round order, and a round that finished ahead of an unfinished one (a
 * worker was faster) is left out of an interrupted report and run again on resume. So the
 * summary, the report and the resume point (`resumeFrom`) name the same rounds, and every report
 * carries what `catsim merge` needs (`mergeData`) to fold it with the reports of the other
 * rounds of its campaign (shards, or the remainder of an interrupted run).
 */
import { createHash } from 'node:crypto';
import type { Violation } from '../oracle/index.ts';
import { percentile } from '../oracle/index.ts';
import { noSurfaceMetrics, type SurfaceMetrics } from '../oracle/metrics.ts';
import { CAPABILITIES, unjudgedIn, type Capability } from '../oracle/not-judged.ts';
import { PROBES, WORLD_PROBE_NAMES } from '../oracle/probes/index.ts';
import { probesOfAbsentFaults } from '../sim/faults/index.ts';
import type { RoundSummary } from './round-check.ts';
import { EXIT } from './exit-codes.ts';

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
  /** The rounds this report covers are exactly `firstRound .. firstRound + roundsRun - 1`. */
  roundsRun: number;
  /** Stopped (Ctrl-C, SIGTERM) before `roundsPlanned` rounds were done. */
  interrupted: boolean;
  /**
   * The first round not covered, `firstRound + roundsRun`: `catsim run --from resumeFrom
   * --rounds (firstRound + roundsPlanned - resumeFrom)` runs the rest, and `catsim merge` folds
   * the two reports into the report of the uninterrupted run.
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
  /**
   * Required probes with zero hits, when the probe gate applies (a campaign of at least the
   * scenario's `probeGateRounds`); else empty. Every core is held to the required probes that read
   * only what the world did (`basis: 'world'`, oracle/probes/probe.ts); the reference core to every
   * required probe.
   */
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
  /**
   * The quiet tail (DESIGN.md section 10, "The early end"): how many rounds ended before T_end
   * with their work done, and which rounds ran the whole tail (drawn to, by the scenario's
   * `fullTailFraction`, or never done early), ascending. Absent in reports written before it.
   */
  tail?: { endedEarly: number; fullTailRounds: number[] };
  /**
   * The tool surface's model turns (F22; oracle/metrics.ts `SurfaceMetrics`), summed over the
   * rounds; `unsupportedRounds` counts rounds whose core had no surface stage although turns were
   * planned (absent in reports written before F22: read as none).
   */
  surface: SurfaceMetrics & { unsupportedRounds: number };
  /**
   * F19's rollback triggers by what became of them (oracle/metrics.ts `rollbackTriggers`), summed
   * over the rounds; `unsupported` ones were not judged (the core has no `rollback`). Absent in
   * reports written before F19: read as none.
   */
  rollbackTriggers?: Record<string, number>;
  /**
   * The capabilities the core left out that these rounds needed (oracle/not-judged.ts), in
   * `CAPABILITIES` order: how many rounds and units (rollback triggers, model turns) went
   * unjudged, and whether the user accepted it (`--not-judged`, the scenario's `notJudged`). An
   * accepted one is shown as skipped; one not accepted makes the verdict NOT JUDGED (exit 1).
   * Empty when the core was judged on everything the rounds exercised.
   */
  notJudged: NotJudged[];
  /** The capabilities the user accepts as not judged (`--not-judged` and the scenario's `notJudged`), in `CAPABILITIES` order. */
  notJudgedAccepted: Capability[];
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
  /** What `catsim merge` needs besides the totals (about 70 bytes a round). */
  mergeData: MergeData;
  /** Real time the campaign took, ms (a merged report: the sum over its shards). */
  elapsedMs: number;
  roundsPerSecond: number;
}

/** One capability the core left out, over the rounds of a report (see {@link CampaignReport.notJudged}). */
export interface NotJudged {
  capability: Capability;
  /** Rounds that needed it. */
  rounds: number;
  /** Units left unjudged: rollback triggers written `unsupported`, or model turns not run. */
  count: number;
  /** The user accepted it as not judged: skipped, never passed. */
  accepted: boolean;
}

/** Which shard of which campaign a report covers (`--shard index/count`, 1-based). */
export interface ShardOfCampaign {
  index: number;
  count: number;
  /** The whole campaign's first round and number of rounds. */
  firstRound: number;
  rounds: number;
}

/** The per-round facts of a report that totals cannot carry, for an exact merge. */
export interface MergeData {
  /** Trace digest of each round covered, in round order (from `firstRound`): `roundsRun` entries. */
  roundDigests: string[];
  /** Every revocation delay of the rounds covered (simulated ms), ascending, for exact percentiles. */
  revocationDelaysMs: number[];
  revocationsCensored: number;
  /** The scenario's probe gate, judged by merge over all the parts (never by one shard). */
  probeGate: { rounds?: number; required?: string[] };
}

/**
 * The block of rounds shard `index` of `count` runs, of the campaign [firstRound, firstRound +
 * rounds): contiguous, sizes differing by at most one, together exactly the campaign.
 * @returns the shard's first round and its number of rounds.
 */
export function shardBlock(
  firstRound: number,
  rounds: number,
  index: number,
  count: number,
): { firstRound: number; rounds: number } {
  const start = Math.floor(((index - 1) * rounds) / count);
  const end = Math.floor((index * rounds) / count);
  return { firstRound: firstRound + start, rounds: end - start };
}

/**
 * Folds round summaries into a report in round order. Summaries may arrive in any order: one
 * that arrives ahead of the next round in order waits (a few batches' worth at most) until the
 * rounds before it are in, so the report always covers a contiguous block from `firstRound`
 * and an interrupted campaign reports exactly the rounds a resume does not run again. It keeps
 * the counts, the failing rounds, every revocation delay (one number each, for exact
 * percentiles) and every round's trace digest (for the campaign digest), never the folded
 * summaries themselves: memory grows by about 100 bytes a round, not by a summary (~1.4 KB).
 */
export class ReportBuilder {
  readonly #totals: Totals;
  /** Trace digest of every round folded, by round, in round order. */
  readonly #traceDigests = new Map<number, string>();
  /** Rounds that arrived before the next round in order, with their determinism replay results. */
  readonly #ahead = new Map<number, { summary: RoundSummary; replay: RoundReplay }>();
  /** The next round to fold: every round before it (from `firstRound`) is in. */
  #next: number;
  readonly #revocationDelaysMs: number[] = [];
  #revocationsCensored = 0;
  readonly #mismatches: { round: number; firstDifferingSeq: number | null }[] = [];
  #replayed = 0;
  /** Rounds and units each left-out capability went unjudged in. */
  readonly #unjudged = new Map<Capability, { rounds: number; count: number }>();

  constructor(
    private readonly meta: {
      seed: string;
      scenario: string;
      scenarioPath: string | null;
      scenarioDigest: string;
      catalog: CampaignReport['catalog'];
      core: string;
      firstRound: number;
      roundsPlanned: number;
      faults: readonly string[];
      shard?: ShardOfCampaign | null;
      notJudgedAccepted?: readonly Capability[];
    },
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
      tail: { endedEarly: 0, fullTailRounds: [] },
      surface: { ...noSurfaceMetrics(), unsupportedRounds: 0 },
      rollbackTriggers: {},
    };
    this.#next = meta.firstRound;
  }

  /**
   * The probe gate (SPEC section 11), for campaigns of the gate's size: every core owes the
   * required probes that read only what the world did (the world serves a user's core the same
   * situations as the reference core); the reference core owes every required probe, those of its
   * own defences' outcomes too.
   */
  #missedProbes(probes: Record<string, number>, roundsRun: number): string[] {
    if (this.#shard !== null) return []; // judged by merge, over every shard
    if (this.probeGate.rounds === undefined || roundsRun < this.probeGate.rounds) return [];
    // Without a list, every probe is owed except those only faults the scenario leaves out can reach.
    const absent = probesOfAbsentFaults(this.meta.faults);
    const required = this.probeGate.required ?? PROBES.map((probe) => probe.name).filter((name) => !absent.has(name));
    const owed =
      this.meta.core === 'reference' ? required : required.filter((name) => WORLD_PROBE_NAMES.includes(name));
    return owed.filter((name) => (probes[name] ?? 0) === 0);
  }

  /**
   * Takes one finished round, with its determinism replay result when it was sampled, and folds
   * in every round now contiguous with the rounds already folded.
   * @throws Error when the round was already reported (a campaign runs each round once) or is
   *   outside the block `firstRound .. firstRound + roundsPlanned - 1`.
   */
  add(summary: RoundSummary, replay?: RoundReplay): void {
    const { round } = summary;
    if (round < this.#next || this.#ahead.has(round)) throw new Error(`round ${round} was reported twice`);
    if (round >= this.meta.firstRound + this.meta.roundsPlanned)
      throw new Error(
        `round ${round} is outside rounds ${this.meta.firstRound}..${this.meta.firstRound + this.meta.roundsPlanned - 1}`,
      );
    this.#ahead.set(round, { summary, replay });
    for (let next = this.#ahead.get(this.#next); next !== undefined; next = this.#ahead.get(this.#next)) {
      this.#ahead.delete(this.#next);
      this.#fold(next.summary, next.replay);
      this.#next += 1;
    }
  }

  #fold(summary: RoundSummary, replay: RoundReplay): void {
    this.#traceDigests.set(summary.round, summary.traceDigest);
    fold(this.#totals, summary);
    for (const [capability, count] of Object.entries(unjudgedIn(summary.metrics)) as [Capability, number][])
      this.#addUnjudged(capability, 1, count);
    for (const delay of summary.metrics.revocationDelaysMs) this.#revocationDelaysMs.push(delay);
    this.#revocationsCensored += summary.metrics.revocationsCensored;
    if (replay === undefined) return;
    this.#replayed += 1;
    if (replay !== 'same') this.#mismatches.push({ round: summary.round, firstDifferingSeq: replay });
  }

  get #shard(): ShardOfCampaign | null {
    return this.meta.shard ?? null;
  }

  /**
   * Folds in a whole report of the rounds that come next (what `catsim merge` does, one call per
   * part, in round order).
   * @throws Error when the report does not start at the next round or its merge data does not
   *   hold one digest per round it covers.
   */
  addPart(report: CampaignReport): void {
    const data = report.mergeData;
    if (report.firstRound !== this.#next)
      throw new Error(`a part starting at round ${report.firstRound} was added where round ${this.#next} comes next`);
    if (data.roundDigests.length !== report.roundsRun)
      throw new Error(
        `the part of rounds ${report.firstRound}.. holds ${data.roundDigests.length} digests for ${report.roundsRun} rounds`,
      );
    data.roundDigests.forEach((digest, offset) => this.#traceDigests.set(report.firstRound + offset, digest));
    this.#next += report.roundsRun;
    foldTotals(this.#totals, report);
    for (const entry of report.notJudged ?? legacyNotJudged(report))
      this.#addUnjudged(entry.capability, entry.rounds, entry.count);
    for (const delay of data.revocationDelaysMs) this.#revocationDelaysMs.push(delay);
    this.#revocationsCensored += data.revocationsCensored;
    this.#replayed += report.determinism.replayed;
    this.#mismatches.push(...report.determinism.mismatches);
  }

  #addUnjudged(capability: Capability, rounds: number, count: number): void {
    const known = this.#unjudged.get(capability) ?? { rounds: 0, count: 0 };
    this.#unjudged.set(capability, { rounds: known.rounds + rounds, count: known.count + count });
  }

  /** The report's `notJudged`: every capability left out, in `CAPABILITIES` order, each marked accepted or not. */
  #notJudged(accepted: readonly Capability[]): NotJudged[] {
    return CAPABILITIES.flatMap((capability) => {
      const unjudged = this.#unjudged.get(capability);
      return unjudged === undefined ? [] : [{ capability, ...unjudged, accepted: accepted.includes(capability) }];
    });
  }

  /** Rounds folded so far: exactly `firstRound .. firstRound + roundsRun - 1`. */
  get roundsRun(): number {
    return this.#traceDigests.size;
  }

  /** The report so far; `elapsedMs` is real time (throughput only). Does not change the builder. */
  build(elapsedMs: number, interrupted: boolean): CampaignReport {
    const { faults: _faults, shard: _shard, notJudgedAccepted: given = [], ...meta } = this.meta;
    const accepted = CAPABILITIES.filter((capability) => given.includes(capability));
    const totals = structuredClone(this.#totals);
    // Rounds arrive in the order workers finish them: sort what that order could change.
    totals.failingRounds.sort((a, b) => a.round - b.round);
    totals.tail?.fullTailRounds.sort((a, b) => a - b);
    for (const field of ['violationsByInvariant', 'endStates', 'endReasons', 'decisions'] as const)
      totals[field] = byKey(totals[field]);
    totals.surface.refused = byKey(totals.surface.refused);
    if (totals.rollbackTriggers !== undefined) totals.rollbackTriggers = byKey(totals.rollbackTriggers);
    const delays = [...this.#revocationDelaysMs].sort((a, b) => a - b);
    const roundsRun = this.roundsRun;
    return {
      ...meta,
      roundsRun,
      interrupted,
      resumeFrom: this.#next,
      ...totals,
      probesMissed: this.#missedProbes(totals.probes, roundsRun),
      notJudged: this.#notJudged(accepted),
      notJudgedAccepted: accepted,
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
      mergeData: this.#mergeData(delays),
      elapsedMs,
      roundsPerSecond: elapsedMs > 0 ? (roundsRun * 1000) / elapsedMs : 0,
    };
  }

  #mergeData(sortedDelaysMs: number[]): MergeData {
    // Folded in round order, so the map's insertion order is round order.
    const roundDigests = [...this.#traceDigests.values()];
    const probeGate: MergeData['probeGate'] = {};
    if (this.probeGate.rounds !== undefined) probeGate.rounds = this.probeGate.rounds;
    if (this.probeGate.required !== undefined) probeGate.required = [...this.probeGate.required];
    return {
      roundDigests,
      revocationDelaysMs: sortedDelaysMs,
      revocationsCensored: this.#revocationsCensored,
      probeGate,
    };
  }
}

/**
 * sha256 of `catsim.campaign.v1\n` followed by one line `ROUND TRACE_DIGEST\n` per round run, in
 * round order: equal digests mean every round produced a byte-identical trace. Null when no round ran.
 */
export function campaignDigest(traceDigests: ReadonlyMap<number, string>): string | null {
  if (traceDigests.size === 0) return null;
  const hash = createHash('sha256').update('catsim.campaign.v1\n');
  for (const round of [...traceDigests.keys()].sort((a, b) => a - b))
    hash.update(`${round} ${traceDigests.get(round)}\n`);
  return hash.digest('hex');
}

/** A sampled round's determinism replay: 'same', or the first differing seq (null: only the header differs). */
export type RoundReplay = 'same' | number | null | undefined;

type Totals = Pick<
  CampaignReport,
  | 'violationsByInvariant'
  | 'undecidedRounds'
  | 'endStates'
  | 'endReasons'
  | 'faultsEnabled'
  | 'failingRounds'
  | 'probes'
  | 'decisions'
  | 'receipts'
  | 'unknownDialectAdmissions'
  | 'probeCalls'
  | 'tail'
  | 'surface'
  | 'rollbackTriggers'
>;

/** Adds one round's (or one part's) surface figures to the totals. */
function addSurface(into: Totals['surface'], from: SurfaceMetrics | undefined, unsupportedRounds: number): void {
  if (from === undefined) return;
  for (const field of [
    'turns',
    'dispatched',
    'settledOnce',
    'settledTwice',
    'unsettled',
    'capacityShort',
    'capacityExceeded',
    'capacityFits',
    'capacityFitsDispatched',
    'unsupportedTurns',
  ] as const)
    into[field] += from[field];
  for (const [key, count] of Object.entries(from.refused)) add(into.refused, key, count);
  into.unsupportedRounds += unsupportedRounds;
}

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
  addSurface(report.surface, summary.metrics.surface, summary.metrics.surface.unsupportedTurns > 0 ? 1 : 0);
  addCounts(report, summary.metrics.rollbackTriggers);
  report.tail ??= { endedEarly: 0, fullTailRounds: [] };
  if (summary.endedEarly) report.tail.endedEarly += 1;
  else report.tail.fullTailRounds.push(summary.round);
  const undecided = summary.status === 'undecided';
  if (undecided) report.undecidedRounds += 1;
  if (undecided || summary.violations.length > 0)
    report.failingRounds.push({ round: summary.round, undecided, violations: summary.violations });
}

/** `counts` with its keys in code-unit order, so the JSON report does not depend on arrival order. */
function byKey(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Adds the totals of a whole report to `into` (merging shards). */
function foldTotals(into: Totals, from: Totals): void {
  for (const field of [
    'violationsByInvariant',
    'endStates',
    'endReasons',
    'faultsEnabled',
    'probes',
    'decisions',
  ] as const) {
    for (const [key, count] of Object.entries(from[field])) add(into[field], key, count);
  }
  into.undecidedRounds += from.undecidedRounds;
  into.failingRounds.push(...from.failingRounds);
  into.receipts.executed += from.receipts.executed;
  into.receipts.covered += from.receipts.covered;
  into.unknownDialectAdmissions += from.unknownDialectAdmissions;
  into.probeCalls.expected += from.probeCalls.expected;
  into.probeCalls.admitted += from.probeCalls.admitted;
  if (from.tail !== undefined) {
    into.tail ??= { endedEarly: 0, fullTailRounds: [] };
    into.tail.endedEarly += from.tail.endedEarly;
    into.tail.fullTailRounds.push(...from.tail.fullTailRounds);
  }
  addSurface(into.surface, from.surface, from.surface?.unsupportedRounds ?? 0);
  addCounts(into, from.rollbackTriggers);
}

/**
 * What a report written before `notJudged` existed left unjudged, from its rollback trigger and
 * surface counts. Its rounds without a surface stage are known; its rounds with `unsupported`
 * triggers are not, so they are counted as 0.
 */
function legacyNotJudged(report: Pick<CampaignReport, 'rollbackTriggers' | 'surface'>): Omit<NotJudged, 'accepted'>[] {
  const entries: Omit<NotJudged, 'accepted'>[] = [];
  const triggers = report.rollbackTriggers?.unsupported ?? 0;
  if (triggers > 0) entries.push({ capability: 'rollback', rounds: 0, count: triggers });
  const turns = report.surface?.unsupportedTurns ?? 0;
  if (turns > 0) entries.push({ capability: 'surface', rounds: report.surface.unsupportedRounds ?? 0, count: turns });
  return entries;
}

/** Adds rollback trigger counts (F19) to the totals. */
function addCounts(into: Totals, from: Record<string, number> | undefined): void {
  if (from === undefined) return;
  into.rollbackTriggers ??= {};
  for (const [key, count] of Object.entries(from)) add(into.rollbackTriggers, key, count);
}

function add(counts: Record<string, number>, key: string, by: number): void {
  counts[key] = (counts[key] ?? 0) + by;
}

/**
 * The exit code of a campaign (SPEC section 13): 3 testbed failure; 1 a violation, an UNDECIDED
 * round, a required probe never hit, a capability the core left out that the user did not accept
 * as not judged, an interruption, or no round run at all (nothing was tested, so it cannot pass);
 * else 0.
 */
export function exitCodeOf(report: CampaignReport): number {
  if (report.determinism.mismatches.length > 0) return EXIT.testbed;
  if (report.failingRounds.length > 0 || report.interrupted || report.probesMissed.length > 0 || report.roundsRun === 0)
    return EXIT.violation;
  if (notJudgedUnaccepted(report).length > 0) return EXIT.violation;
  return EXIT.clean;
}

/**
 * The capabilities the core left out that the user did not accept (they make the verdict NOT
 * JUDGED); a report written before `notJudged` existed is read through its trigger and surface counts.
 */
export function notJudgedUnaccepted(
  report: Pick<CampaignReport, 'rollbackTriggers' | 'surface'> &
    Partial<Pick<CampaignReport, 'notJudged' | 'notJudgedAccepted'>>,
): NotJudged[] {
  const accepted = report.notJudgedAccepted ?? [];
  const entries =
    report.notJudged ??
    legacyNotJudged(report).map((entry) => ({ ...entry, accepted: accepted.includes(entry.capability) }));
  return entries.filter((entry) => !entry.accepted);
}
