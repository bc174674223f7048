/**
 * `catsim run`: a seeded campaign. Prints the summary; exit 0 only with zero violations and
 * zero UNDECIDED rounds. Ctrl-C stops the campaign and still prints (and writes) the report of
 * the rounds finished, with the `--from` that resumes it.
 */
import { availableParallelism } from 'node:os';
import { isAbandonCode } from '../../runner/abandoned-round.ts';
import { ROUND_TIMEOUT_MS_DEFAULT, runCampaign } from '../../runner/campaign.ts';
import { PlanThread } from '../../runner/plan-thread.ts';
import { exitCodeOf, shardBlock } from '../../runner/report.ts';
import { loadCore } from '../../cores/index.ts';
import { loadCatalog } from '../../sim/plan/catalog.ts';
import { isScenarioPath, loadScenario } from '../../sim/plan/scenario.ts';
import type { Capability } from '../../oracle/not-judged.ts';
import { InputError } from '../errors.ts';
import { junitXml } from '../format/junit.ts';
import { formatSummary } from '../format/summary.ts';
import { inputFiles } from '../input-files.ts';
import {
  assertDistinct,
  assertNotInputs,
  assertWritable,
  exitAfterWrites,
  lockOutputs,
  writeOutput,
} from '../output.ts';
import { progressMode, progressReporter } from '../progress.ts';
import { campaignWorkers, checkShardSize } from '../work-size.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import type { Scenario } from '../../sim/plan/scenario.ts';
import type { PoolTool } from '../../sim/plan/tool-pool.ts';
import { AbandonedPlanError, shrinkPlan } from '../../runner/shrink.ts';
import { defaultShrunkPrefix, describeShrink, saveShrunk, threadRunner } from './shrink.ts';

/** Arguments of `catsim run`. */
export interface RunArgs {
  seed: string;
  rounds: number;
  from: number;
  scenario: string;
  /** A `catsim.catalog.v1` file whose tools replace the built-in descriptor pool. */
  catalog?: string;
  core: string;
  workers?: number;
  report?: string;
  /** Show progress on stderr (false with `--quiet` or `--no-progress`): see cli/progress.ts. */
  progress: boolean;
  determinismEvery: number;
  /** Real ms a round may run on a worker thread, the shrink's too (`--round-timeout`, in seconds); default runner/campaign.ts `ROUND_TIMEOUT_MS_DEFAULT`. */
  roundTimeoutMs?: number;
  /** Shrink the first failing round after the campaign (default true). */
  shrink: boolean;
  /** Run only this shard of the campaign (`--shard i/n`); needs `report`, which `catsim merge` reads. */
  shard?: { index: number; count: number };
  /** Also write the verdict as JUnit XML to this file. */
  junit?: string;
  /** Capabilities accepted as not judged (`--not-judged`), besides the scenario's `notJudged`. */
  notJudged?: Capability[];
}

/**
 * Runs the campaign and returns the exit code: the campaign's (runner/report.ts
 * `exitCodeOf`), or 2 when `--report` or `--junit` could not be written at the end (the summary
 * is printed, and the file is written to a fallback path named on stderr).
 * @throws ScenarioError (a bad scenario or catalog file), UnknownCoreError, InputError (an
 * unwritable `--report` or `--junit` path, one that names an input file (the scenario, the
 * catalog or the core module), `--shard` without `--report`, or a shard that would be empty,
 * found before any round runs): exit 2.
 */
export async function runCommand(args: RunArgs): Promise<number> {
  assertNotInputs(
    [
      ['--report', args.report],
      ['--junit', args.junit],
    ],
    inputFiles(args),
  );
  const scenario = loadScenario(args.scenario);
  const catalog = args.catalog === undefined ? undefined : loadCatalog(args.catalog);
  await loadCore(args.core);
  if (args.shard !== undefined && args.report === undefined)
    throw new InputError('--shard needs --report FILE.json: catsim merge reads the shard reports');
  if (args.report !== undefined) assertWritable(args.report, '--report');
  if (args.junit !== undefined) assertWritable(args.junit, '--junit');
  assertDistinct([
    ['--report', args.report],
    ['--junit', args.junit],
  ]);
  if (args.shard !== undefined) checkShardSize(args.shard, args.rounds);
  const rounds =
    args.shard === undefined
      ? args.rounds
      : shardBlock(args.from, args.rounds, args.shard.index, args.shard.count).rounds;
  const workers =
    args.workers === undefined
      ? Math.min(availableParallelism(), Math.max(1, Math.ceil(rounds / 25)))
      : campaignWorkers(args.workers, rounds);
  // A second campaign on the same --report or --junit is refused now, not lost at the end.
  const unlock = lockOutputs([
    ['--report', args.report],
    ['--junit', args.junit],
  ]);
  const abort = new AbortController();
  // Ctrl-C, SIGTERM from a CI timeout or `docker stop`, or SIGHUP (the terminal or ssh session
  // closed): stop between rounds and still print the summary and write the report of the
  // rounds finished (exit 1, INTERRUPTED).
  const onSignal = (): void => abort.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  const mode = progressMode({ enabled: args.progress, terminal: process.stderr.isTTY === true, workers });
  const progress = progressReporter(mode, rounds, process.stderr, () => performance.now()); // real-clock: progress only, read between rounds
  try {
    const report = await runCampaign({
      seed: args.seed,
      scenario,
      scenarioPath: isScenarioPath(args.scenario) ? args.scenario : undefined,
      catalog,
      core: args.core,
      firstRound: args.from,
      rounds: args.rounds,
      shard: args.shard,
      workers,
      determinismEvery: args.determinismEvery,
      roundTimeoutMs: args.roundTimeoutMs,
      signal: abort.signal,
      notJudged: args.notJudged,
      onProgress: (done, failing) => progress.update(done, failing),
    });
    progress.stop();
    process.stdout.write(formatSummary(report, workers));
    const tag = args.shard === undefined ? args.seed : `${args.seed}-shard-${args.shard.index}-of-${args.shard.count}`;
    const reportWritten =
      args.report === undefined ||
      writeOutput(
        { path: args.report, what: 'report', stem: `catsim-report-${tag}`, extension: '.json' },
        `${JSON.stringify(report, null, 2)}\n`,
      );
    const junitWritten =
      args.junit === undefined ||
      writeOutput(
        { path: args.junit, what: 'JUnit XML', stem: `catsim-junit-${tag}`, extension: '.xml' },
        junitXml(report),
      );
    // A round abandoned in its worker (stuck, or out of memory) has no trace to shrink.
    const first = report.failingRounds.find((round) =>
      round.violations.some((violation) => !isAbandonCode(violation.code)),
    );
    if (args.shrink && first !== undefined && !abort.signal.aborted)
      await shrinkFirstFailure(args, scenario, catalog?.pool, first.round);
    return exitAfterWrites(exitCodeOf(report), reportWritten && junitWritten);
  } finally {
    progress.stop();
    unlock();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  }
}

/** Rounds the shrink after a campaign may run. */
const RUN_SHRINK_ATTEMPTS = 150;

/**
 * Shrinks the first failing round of the campaign (after the progress bar has stopped; its rounds
 * on a worker thread bounded by `--round-timeout`, as the campaign's) and prints where the
 * smallest counterexample was written. Bounded to 150 rounds. The files were not asked for, so a
 * write that fails (the plan then goes to a fallback file, named on stderr) leaves the campaign's
 * verdict and exit code alone; so does a round abandoned this time (`not shrunk: ...`).
 */
async function shrinkFirstFailure(
  args: RunArgs,
  scenario: Scenario,
  pool: readonly PoolTool[] | undefined,
  round: number,
): Promise<void> {
  process.stdout.write(`shrinking round ${round} (use --no-shrink to skip)...\n`);
  const thread = new PlanThread({ roundTimeoutMs: args.roundTimeoutMs ?? ROUND_TIMEOUT_MS_DEFAULT });
  try {
    const result = await shrinkPlan(
      generatePlan(args.seed, round, scenario, pool),
      await loadCore(args.core),
      args.core,
      { attemptsMax: RUN_SHRINK_ATTEMPTS, runPlan: threadRunner(thread, args.core) },
    );
    const { files } = saveShrunk(result, defaultShrunkPrefix(args.seed, round, args.core));
    process.stdout.write(`${describeShrink(result, files, RUN_SHRINK_ATTEMPTS).join('\n')}\n`);
  } catch (error) {
    if (!(error instanceof AbandonedPlanError)) throw error;
    process.stdout.write(`not shrunk: ${error.message}\n`);
  } finally {
    await thread.close();
  }
}
