/**
 * The human-readable campaign summary.
 */
import { CORE_FAILED, INVARIANT_IDS } from '../../oracle/index.ts';
import { CAPABILITY_UNITS } from '../../oracle/not-judged.ts';
import { WORLD_PROBE_NAMES } from '../../oracle/probes/index.ts';
import type { CampaignReport, NotJudged } from '../../runner/report.ts';
import { FAULT_IDS } from '../../sim/faults/index.ts';

/** How many failing rounds are listed before the rest is summarised. */
const FAILING_ROUNDS_SHOWN = 20;

/**
 * The summary text, one fact per line, the verdict line second and again last. `workers` is only shown (the worker threads of this run,
 * or a phrase such as `3 shards merged`).
 */
export function formatSummary(report: CampaignReport, workers: number | string): string {
  const last = report.firstRound + report.roundsPlanned - 1;
  const shard =
    report.shard === null
      ? ''
      : `  shard ${report.shard.index}/${report.shard.count} of rounds ${report.shard.firstRound}..${report.shard.firstRound + report.shard.rounds - 1}`;
  const violations = Object.values(report.violationsByInvariant).reduce((a, b) => a + b, 0);
  const lines = [
    `catsim run  seed=${report.seed}  scenario=${report.scenario}  core=${report.core}  rounds ${report.firstRound}..${last}${shard}`,
    `verdict: ${verdict(report, violations)}`,
    `rounds: ${report.roundsRun} run, ${report.undecidedRounds} UNDECIDED, ${report.failingRounds.length} failing`,
    ...tailLines(report),
    `violations per invariant: ${violationCounts(report)}`,
    `scan end states: ${counts(report.endStates)}`,
    `scan end reasons: ${counts(report.endReasons)}`,
    `faults enabled (rounds): ${counts(inMenuOrder(report.faultsEnabled), false)}`,
    `gate decisions: ${counts(report.decisions)}`,
    `revocation propagation: ${revocationLine(report)}`,
    `receipt coverage: ${report.receipts.covered} of ${report.receipts.executed} executed calls have exactly one receipt binding generation, descriptor and policy epoch (${coverage(report.receipts.covered, report.receipts.executed)})`,
    `unknown-dialect admissions: ${report.unknownDialectAdmissions}`,
    `probe calls: ${report.probeCalls.admitted} of ${report.probeCalls.expected} that a correct core must admit were admitted`,
    ...surfaceLines(report),
    rollbackLine(report),
    notJudgedLine(report),
    ...probeLines(report),
    `determinism: ${report.determinism.replayed} rounds replayed in a fresh world, ${report.determinism.mismatches.length} mismatches`,
    `campaign digest: ${report.campaignDigest ?? '(no rounds run)'} (sha256 over every round's trace digest, in round order)`,
    `throughput: ${report.roundsPerSecond.toFixed(1)} rounds/s (${typeof workers === 'string' ? workers : `${Math.max(1, workers)} worker${workers <= 1 ? '' : 's'}`}, ${(report.elapsedMs / 1000).toFixed(1)} s)`,
  ];
  for (const mismatch of report.determinism.mismatches) {
    lines.push(
      `NON-DETERMINISM in round ${mismatch.round}: the replay parts from the first run at event seq ${mismatch.firstDifferingSeq ?? '(header)'}`,
    );
  }
  lines.push(...failingLines(report));
  // The verdict again as the last line: a CI log shows its last lines, and the statistics and
  // failing rounds above would push the first one out of view.
  lines.push(lines.find((line) => line.startsWith('verdict: ')) as string);
  return `${lines.join('\n')}\n`;
}

/**
 * `I1 0  I2 3 ...  I13 0`, then `CORE_FAILED n` when the core failed to answer the world in some
 * round (docs/CORE-API.md; shown only then, as it is not an invariant of the catalog).
 */
export function violationCounts(report: Pick<CampaignReport, 'violationsByInvariant'>): string {
  const failed = report.violationsByInvariant[CORE_FAILED] ?? 0;
  return `${INVARIANT_IDS.map((id) => `${id} ${report.violationsByInvariant[id] ?? 0}`).join('  ')}${failed > 0 ? `  ${CORE_FAILED} ${failed}` : ''}`;
}

/** The scenario's faults in the registry's menu order (a scenario may list them in any order). */
function inMenuOrder(enabled: Record<string, number>): Record<string, number> {
  return Object.fromEntries(FAULT_IDS.filter((id) => id in enabled).map((id) => [id, enabled[id] as number]));
}

function revocationLine(report: CampaignReport): string {
  const r = report.revocation;
  if (r.count === 0) return 'no revocations';
  const s = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(3)} s`);
  return `${r.count} revocations, p50 ${s(r.p50Ms)}, p99 ${s(r.p99Ms)}, max ${s(r.maxMs)} (simulated)${r.censored > 0 ? `, ${r.censored} never seen before the round ended` : ''}`;
}

/**
 * The tool surface (F22): turns and both checks, refusals by check and field, settlements,
 * capacity results; or why there were no surface checks (no turns, or a core without a stage).
 */
function surfaceLines(report: CampaignReport): string[] {
  const s = report.surface ?? { turns: 0, unsupportedRounds: 0, unsupportedTurns: 0 };
  const lines: string[] = [];
  if (s.unsupportedRounds > 0)
    lines.push(
      `surface: the core has no tool surface stage (modelTurn): ${s.unsupportedTurns} model turns planned in ${s.unsupportedRounds} rounds were not run, so those rounds have no surface checks`,
    );
  if (s.turns === 0) return lines.length > 0 ? lines : ['surface checks: no model turns (F22 not in these rounds)'];
  const full = report.surface;
  const refused = Object.values(full.refused).reduce((a, b) => a + b, 0);
  lines.push(
    `surface checks: ${full.turns} model turns, ${full.dispatched} dispatched after both checks, ${refused} refused`,
    `surface refusals by check and field: ${counts(full.refused)}`,
    `surface settlements: ${full.settledOnce} exactly once, ${full.settledTwice} twice or more, ${full.unsettled} never`,
    `surface capacity: ${full.capacityShort} short (${full.capacityExceeded} CAPACITY_EXCEEDED), ${full.capacityFits} fitting (${full.capacityFitsDispatched} dispatched)`,
  );
  return lines;
}

/** F19's triggers by what became of them; says so when the core could not be judged on them. */
function rollbackLine(report: CampaignReport): string {
  const t = report.rollbackTriggers ?? {};
  const total = Object.values(t).reduce((a, b) => a + b, 0);
  if (total === 0) return 'rollback triggers: none (F19 not in these rounds)';
  const unsupported = t.unsupported ?? 0;
  const note =
    unsupported > 0 ? ` (the core has no rollback: ${unsupported} triggers were not delivered and are not judged)` : '';
  return `rollback triggers: ${counts(t)}${note}`;
}

/**
 * The coverage probes (rounds hit), in two lines: those that read only what the world did, which
 * the probe gate holds every core to, and apart those that read a defence's outcome as the
 * reference core reports it, which only `--core reference` is held to.
 */
function probeLines(report: CampaignReport): string[] {
  const world = Object.fromEntries(Object.entries(report.probes).filter(([name]) => WORLD_PROBE_NAMES.includes(name)));
  const reference = Object.fromEntries(
    Object.entries(report.probes).filter(([name]) => !WORLD_PROBE_NAMES.includes(name)),
  );
  return [
    `coverage probes of what the world did (rounds hit; the gate holds every core to them): ${counts(world, false)}`,
    `coverage probes of the reference core's defences (rounds hit; the gate holds only --core reference to them): ${counts(reference, false)}`,
  ];
}

function coverage(covered: number, total: number): string {
  return total === 0 ? 'no calls executed' : `${((covered * 100) / total).toFixed(1)}%`;
}

/**
 * The verdict line's text. A capability the core left out is never a pass: not accepted, it makes
 * an otherwise clean campaign `NOT JUDGED: rollback (88 rollback triggers in 40 rounds) ...` and is
 * named after a FAIL; accepted (`--not-judged`), the pass says so: `PASS (not judged: rollback)`.
 */
export function verdict(report: CampaignReport, violations: number): string {
  if (report.determinism.mismatches.length > 0) return 'TESTBED FAILURE (non-deterministic rounds)';
  if (report.interrupted) return `INTERRUPTED ${interruptedText(report)}`;
  if (report.roundsRun === 0) return 'FAIL (no round was run: nothing was tested)';
  const left = report.notJudged ?? [];
  const unaccepted = left.filter((entry) => !entry.accepted);
  const alsoUnjudged = unaccepted.length === 0 ? '' : `; not judged: ${unaccepted.map(coveredText).join(', ')}`;
  if (report.failingRounds.length === 0 && report.probesMissed.length > 0)
    return `FAIL (coverage probes never hit: ${report.probesMissed.join(', ')}${alsoUnjudged})`;
  if (report.failingRounds.length > 0)
    return `FAIL (${violations} violations, ${report.undecidedRounds} UNDECIDED${alsoUnjudged})`;
  if (unaccepted.length > 0) {
    return `NOT JUDGED: ${unaccepted.map(coveredText).join(', ')}: the core does not implement ${unaccepted.length === 1 ? 'it' : 'them'} (0 violations in what was judged; --not-judged ${unaccepted.map((entry) => entry.capability).join(',')} accepts ${unaccepted.length === 1 ? 'it' : 'them'} as skipped)`;
  }
  const skipped =
    left.length === 0 ? '0 violations, 0 UNDECIDED' : `not judged: ${left.map((entry) => entry.capability).join(', ')}`;
  return `PASS (${skipped})${report.shard === null ? '' : '; the coverage-probe gate is judged by catsim merge'}`;
}

/** `rollback (88 rollback triggers in 40 rounds)`; a merged report of older parts may not know the rounds. */
export function coveredText(entry: Pick<NotJudged, 'capability' | 'rounds' | 'count'>): string {
  const rounds = entry.rounds === 0 ? '' : ` in ${entry.rounds} round${entry.rounds === 1 ? '' : 's'}`;
  const unit = CAPABILITY_UNITS[entry.capability];
  return `${entry.capability} (${entry.count} ${entry.count === 1 ? unit.one : unit.many}${rounds})`;
}

/** The capabilities the core left out, each skipped (accepted) or not judged; never shown as passed. */
function notJudgedLine(report: CampaignReport): string {
  const left = report.notJudged ?? [];
  if (left.length === 0)
    return 'capabilities not judged: none (the core was judged on everything these rounds exercised)';
  return `capabilities not judged: ${left.map((entry) => `${coveredText(entry)} ${entry.accepted ? 'SKIPPED (accepted by --not-judged or the scenario)' : 'NOT JUDGED (not accepted)'}`).join('; ')}`;
}

/**
 * Which rounds an interrupted report covers and how to run the rest, e.g. `after 72 of 100
 * rounds: rounds 0..71 are done and counted here (resume with --from 72 --rounds 28, then catsim
 * merge the two reports)`. The report covers exactly those rounds (see runner/report.ts).
 */
export function interruptedText(report: CampaignReport): string {
  const rest = report.firstRound + report.roundsPlanned - report.resumeFrom;
  const resume = `resume with --from ${report.resumeFrom} --rounds ${rest}${report.shard === null ? '' : ' (without --shard)'}`;
  if (report.roundsRun === 0) return `before its first round was done: nothing is counted here (${resume})`;
  return `after ${report.roundsRun} of ${report.roundsPlanned} rounds: rounds ${report.firstRound}..${report.resumeFrom - 1} are done and counted here (${resume}, then catsim merge the two reports)`;
}

function failingLines(report: CampaignReport): string[] {
  if (report.failingRounds.length === 0) return [];
  const lines = ['failing rounds (each line replays one):'];
  for (const failing of report.failingRounds.slice(0, FAILING_ROUNDS_SHOWN)) {
    const first = failing.violations[0];
    const what = failing.undecided
      ? 'UNDECIDED (event budget exhausted)'
      : `${first?.invariant} ${first?.code}: ${first?.evidence}`;
    const more = failing.violations.length > 1 ? ` (+${failing.violations.length - 1} more)` : '';
    lines.push(`  ${replayCommand(report, failing.round)}   # ${what}${more}`);
  }
  if (report.failingRounds.length > FAILING_ROUNDS_SHOWN)
    lines.push(
      `  ... and ${report.failingRounds.length - FAILING_ROUNDS_SHOWN} more failing rounds (see --report FILE.json)`,
    );
  return lines;
}

/** The command line that replays `round` of the campaign `report` describes (same core, scenario and catalog). */
export function replayCommand(report: CampaignReport, round: number): string {
  return `catsim replay --seed ${report.seed} --round ${round}${replayFlags(report)}`;
}

/** The flags after `--round N` that select the same core, scenario and catalog. */
function replayFlags(report: CampaignReport): string {
  const scenario =
    report.catalog === null ? report.scenario : report.scenario.slice(0, -`+catalog:${report.catalog.name}`.length);
  const scenarioFlag =
    report.scenarioPath !== null
      ? ` --scenario ${shellWord(report.scenarioPath)}`
      : scenario === 'default'
        ? ''
        : ` --scenario ${scenario}`;
  const flags = [report.core === 'reference' ? '' : ` --core ${shellWord(report.core)}`, scenarioFlag];
  if (report.catalog !== null) flags.push(` --catalog ${shellWord(report.catalog.path)}`);
  return flags.join('');
}

/** `word` as one shell word: unchanged when it holds only safe characters, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function counts(record: Record<string, number>, sort = true): string {
  const entries = Object.entries(record);
  if (sort) entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.length === 0 ? '(none)' : entries.map(([key, count]) => `${key} ${count}`).join('  ');
}

/** Most full-tail rounds the summary names one by one; the report's `tail.fullTailRounds` has them all. */
const FULL_TAIL_ROUNDS_SHOWN = 12;

/**
 * The quiet tail (DESIGN.md section 10, "The early end"): how many rounds ended early with their
 * work done and which ran the whole tail; none for a report written before it.
 */
function tailLines(report: CampaignReport): string[] {
  if (report.tail === undefined) return [];
  const full = report.tail.fullTailRounds;
  const shown = full.slice(0, FULL_TAIL_ROUNDS_SHOWN).join(', ');
  const which =
    full.length === 0
      ? ''
      : full.length <= FULL_TAIL_ROUNDS_SHOWN
        ? ` (${shown})`
        : ` (${shown}, ...: the report's tail.fullTailRounds)`;
  return [
    `quiet tail: ${report.tail.endedEarly} rounds ended early, their work done; ${full.length} ran the whole tail to T_end${which}`,
  ];
}
