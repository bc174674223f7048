/**
 * `catsim prove`: shows, on the default campaign, that the oracle catches every mutant core of
 * SPEC section 12, and puts the peers' violations next to the reference core's zero.
 *
 * Each mutant runs rounds in chunks until the first round in which an invariant it is meant to
 * break (its `expectedCatchers`) reports a violation, capped at `--cap` rounds (default 1,000).
 * A mutant caught within the cap only by other invariants is not proven caught: `prove` prints
 * both (what caught it, what was expected) and fails, because a defence whose own invariant never
 * notices its removal is not guarded. An UNDECIDED round does not count; probes are not judged
 * here. The summary gives the median rounds to detection over all mutants (nearest rank; a mutant
 * not caught counts as the cap) and the slowest mutant.
 */
import { availableParallelism } from 'node:os';
import { runCampaign } from '../../runner/campaign.ts';
import type { CampaignReport } from '../../runner/report.ts';
import { loadCore } from '../../cores/index.ts';
import { MUTANTS, type Mutant } from '../../cores/mutants/index.ts';
import { peerNames } from './peers.ts';
import { loadScenario, type Scenario } from '../../sim/plan/scenario.ts';
import { coveredText, violationCounts } from '../format/summary.ts';
import { EXIT } from '../errors.ts';
import { stageReporter } from '../progress.ts';
import { campaignWorkers } from '../work-size.ts';
import { percentile } from '../../oracle/percentile.ts';
import type { Violation } from '../../oracle/violation.ts';

/** Arguments of `catsim prove`. */
export interface ProveArgs {
  seed: string;
  scenario: string;
  cap: number;
  chunk: number;
  peerRounds: number;
  workers?: number;
  /** More cores (names or core modules) for the side-by-side part, after the peers. */
  cores?: string[];
  /**
   * Progress on stderr (false with `--quiet` or `--no-progress`): a line at most every 10 s
   * naming the mutant or core being run (cli/progress.ts `stageReporter`). Default true.
   */
  progress?: boolean;
}

/** Where prove stands, for its progress lines: called between rounds with a sentence. */
type Say = (text: string) => void;

/** How one mutant fared. */
export interface MutantResult {
  name: string;
  /** Whether an expected invariant caught it within the cap. */
  caught: boolean;
  /** Rounds run until (and including) the first round an expected invariant failed, or the cap. */
  rounds: number;
  firstRound: number | null;
  /** Invariant and code of the first expected violation of that round. */
  caughtBy: string | null;
  /**
   * The first failing round before it (or within the cap, when it was never caught) in which
   * only other invariants failed, with the first of their violations; null when there was none.
   */
  caughtFirstByOther: { round: number; caughtBy: string } | null;
  expected: string[];
}

/** `I4 FOREIGN_TOOL`. */
function violationName(violation: Violation): string {
  return `${violation.invariant} ${violation.code}`;
}

async function firstDetection(
  mutant: Mutant,
  args: ProveArgs,
  scenario: Scenario,
  workers: number,
  say: Say,
): Promise<MutantResult> {
  const result: MutantResult = {
    name: mutant.name,
    caught: false,
    rounds: args.cap,
    firstRound: null,
    caughtBy: null,
    caughtFirstByOther: null,
    expected: mutant.expectedCatchers,
  };
  for (let from = 0; from < args.cap; from += args.chunk) {
    const rounds = Math.min(args.chunk, args.cap - from);
    const report = await runCampaign({
      seed: args.seed,
      scenario,
      core: `mutant:${mutant.name}`,
      firstRound: from,
      rounds,
      workers,
      determinismEvery: 0,
      onProgress: (done) => say(`mutant ${mutant.name}, ${from + done} of at most ${args.cap} rounds`),
    });
    for (const failing of report.failingRounds) {
      const first = failing.violations[0];
      if (first === undefined) continue;
      const expected = failing.violations.find((violation) => mutant.expectedCatchers.includes(violation.invariant));
      if (expected !== undefined)
        return {
          ...result,
          caught: true,
          rounds: failing.round + 1,
          firstRound: failing.round,
          caughtBy: violationName(expected),
        };
      result.caughtFirstByOther ??= { round: failing.round, caughtBy: violationName(first) };
    }
  }
  return result;
}

/** The result line of one mutant: caught by what, against what was expected. */
export function mutantLine(result: MutantResult, cap: number): string {
  const rounds = result.caught ? `${result.rounds} (round ${result.firstRound})` : `not within ${cap}`;
  const other = result.caughtFirstByOther;
  const otherNote =
    other === null
      ? ''
      : result.caught
        ? `; round ${other.round} failed earlier, only ${other.caughtBy}`
        : `; caught only by ${other.caughtBy} (round ${other.round}), never by an expected invariant`;
  return `  ${result.name.padEnd(26)} ${(result.caught ? 'yes' : 'NO').padEnd(7)} ${rounds.padEnd(26)} ${result.caughtBy ?? '-'}   (expected: ${result.expected.join(' or ')})${otherNote}`;
}

/**
 * The median (nearest rank) of the rounds to detection over all mutants, a mutant not caught
 * counting as the cap, and the slowest mutant (the first of equals, in catalogue order).
 */
export function detectionSummary(results: readonly MutantResult[], goalRounds: number): string {
  const median = percentile(
    results.map((result) => result.rounds).sort((a, b) => a - b),
    50,
  );
  const slowest = results.reduce<MutantResult | undefined>(
    (worst, result) => (worst === undefined || result.rounds > worst.rounds ? result : worst),
    undefined,
  );
  if (median === null || slowest === undefined) return 'no mutants';
  return `median rounds to detection: ${median} over ${results.length} mutants (goal: at most ${goalRounds}); slowest: ${slowest.name}, ${slowest.caught ? slowest.rounds : `not within ${slowest.rounds}`}`;
}

/** The goal for the median rounds to detection (issue 13: every defence found within a short campaign). */
export const MEDIAN_ROUNDS_GOAL = 100;

/**
 * One core's line beside the peers: its violations in total, its failing rounds, the count per
 * invariant, and what it was not judged on (a capability it does not implement), e.g.
 * `   not judged: rollback (2 rollback triggers in 1 round)`.
 */
export function violationLine(
  label: string,
  report: Pick<CampaignReport, 'violationsByInvariant' | 'failingRounds' | 'roundsRun' | 'notJudged'>,
): string {
  const total = Object.values(report.violationsByInvariant).reduce((a, b) => a + b, 0);
  const per = violationCounts(report);
  const unjudged =
    report.notJudged.length === 0 ? '' : `   not judged: ${report.notJudged.map(coveredText).join(', ')}`;
  return `  ${label.padEnd(24)} ${String(total).padStart(6)} violations in ${report.failingRounds.length}/${report.roundsRun} rounds   ${per}${unjudged}`;
}

/** Runs the proof; exit 0 only when every mutant was caught within the cap. */
export async function proveCommand(args: ProveArgs): Promise<number> {
  const scenario = loadScenario(args.scenario);
  // A bad --core is refused before the mutants run (exit 2).
  for (const core of args.cores ?? []) await loadCore(core);
  // The largest campaign prove runs is a chunk or the peers' rounds: more workers than that would idle.
  const workers =
    args.workers === undefined
      ? availableParallelism()
      : campaignWorkers(args.workers, Math.max(args.chunk, args.peerRounds));
  const out = [
    `catsim prove  seed=${args.seed}  scenario=${scenario.name}  cap=${args.cap} rounds per mutant`,
    '',
    'mutant cores (each the reference core with one defence removed):',
  ];
  out.push(`  ${'mutant'.padEnd(26)} ${'caught'.padEnd(7)} ${'rounds to first detection'.padEnd(26)} caught by`);
  process.stdout.write(`${out.join('\n')}\n`);
  const results: MutantResult[] = [];
  const stages = stageReporter(
    (line) => process.stderr.write(line),
    () => performance.now(),
  ); // real-clock: progress only, read between rounds
  const say: Say = args.progress === false ? () => undefined : (text) => stages.say(text);
  for (const [index, mutant] of MUTANTS.entries()) {
    // A mutant whose defence only a fault outside the given scenario exercises (F18) runs on its own scenario.
    const own =
      mutant.scenario === undefined || mutant.scenario === scenario.name ? scenario : loadScenario(mutant.scenario);
    const result = await firstDetection(mutant, args, own, workers, (text) =>
      say(`${text} (mutant ${index + 1} of ${MUTANTS.length})`),
    );
    results.push(result);
    process.stdout.write(`${mutantLine(result, args.cap)}${own === scenario ? '' : `   (on scenario ${own.name})`}\n`);
  }
  const lines = [
    detectionSummary(results, MEDIAN_ROUNDS_GOAL),
    '',
    `peers and the reference core on the same ${args.peerRounds} rounds:`,
  ];
  const besides =
    (core: string) =>
    (done: number): void =>
      say(`${core} beside the peers, ${done} of ${args.peerRounds} rounds`);
  const reference = await runCampaign({
    seed: args.seed,
    scenario,
    core: 'reference',
    firstRound: 0,
    rounds: args.peerRounds,
    workers,
    determinismEvery: 0,
    onProgress: besides('reference'),
  });
  lines.push(violationLine('reference', reference));
  for (const core of [...peerNames(), ...(args.cores ?? [])]) {
    const report = await runCampaign({
      seed: args.seed,
      scenario,
      core,
      firstRound: 0,
      rounds: args.peerRounds,
      workers,
      determinismEvery: 0,
      onProgress: besides(core),
    });
    lines.push(violationLine(core, report));
  }
  const missed = results.filter((result) => !result.caught);
  const referenceClean = reference.failingRounds.length === 0;
  lines.push(
    '',
    missed.length === 0 && referenceClean
      ? `PROVEN: all ${results.length} mutants caught; the reference core has 0 violations.`
      : `NOT PROVEN: ${missed.length} mutants not caught by an expected invariant${missed.length > 0 ? ` (${missed.map((m) => m.name).join(', ')})` : ''}${referenceClean ? '' : '; the reference core has violations'}.`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return missed.length === 0 && referenceClean ? EXIT.clean : EXIT.violation;
}
