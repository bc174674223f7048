/**
 * `catsim run`: a seeded campaign. Prints the summary; exit 0 only with zero violations and
 * zero UNDECIDED rounds. Ctrl-C stops the campaign and still prints (and writes) the report of
 * the rounds finished, with the `--from` that resumes it.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import cliProgress from 'cli-progress';
import { runCampaign } from '../../sim/campaign/campaign.ts';
import { exitCodeOf } from '../../sim/campaign/report.ts';
import { resolveCore } from '../../sim/campaign/cores.ts';
import { loadCatalog } from '../../sim/plan/catalog.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import { formatSummary } from '../format/summary.ts';

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
  progress: boolean;
  determinismEvery: number;
}

/**
 * Runs the campaign and returns the exit code.
 * @throws ScenarioError (a bad scenario or catalog file), UnknownCoreError: exit 2.
 */
export async function runCommand(args: RunArgs): Promise<number> {
  const scenario = loadScenario(args.scenario);
  const catalog = args.catalog === undefined ? undefined : loadCatalog(args.catalog);
  resolveCore(args.core);
  const workers = args.workers ?? Math.min(availableParallelism(), Math.max(1, Math.ceil(args.rounds / 25)));
  const abort = new AbortController();
  const onSigint = (): void => abort.abort();
  process.once('SIGINT', onSigint);
  const bar = args.progress && process.stderr.isTTY && workers > 0 ? new cliProgress.SingleBar({ format: 'rounds {bar} {value}/{total}  failing {failing}  {eta_formatted} left', stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
  bar?.start(args.rounds, 0, { failing: 0 });
  try {
    const report = await runCampaign({
      seed: args.seed, scenario, catalog, core: args.core, firstRound: args.from, rounds: args.rounds, workers,
      determinismEvery: args.determinismEvery, signal: abort.signal,
      onProgress: (done, failing) => bar?.update(done, { failing }),
    });
    bar?.stop();
    process.stdout.write(formatSummary(report, workers));
    if (args.report !== undefined) writeFileSync(args.report, `${JSON.stringify(report, null, 2)}\n`);
    return exitCodeOf(report);
  } finally {
    bar?.stop();
    process.off('SIGINT', onSigint);
  }
}
