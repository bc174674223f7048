/**
 * `catsim merge REPORT.json...`: folds the reports of the parts of one campaign (`catsim run
 * --shard i/n --report FILE`, an interrupted run and the run that resumed it) into the verdict of
 * the whole campaign (runner/merge.ts) and prints its summary. Exit codes as for `run`: 0
 * clean, 1 a violation, an UNDECIDED round or a required probe never hit, 3 non-determinism; a
 * file that is not a report, or reports that are not one whole campaign, is exit 2, and so is an
 * output that could not be written where asked (it is then written to a named fallback file).
 */
import { resolve } from 'node:path';
import { MergeError, mergeShardReports, type ShardInput } from '../../runner/merge.ts';
import { exitCodeOf } from '../../runner/report.ts';
import { readInputJson } from '../../sim/plan/input-file.ts';
import type { Capability } from '../../oracle/not-judged.ts';
import { InputError } from '../errors.ts';
import { junitXml } from '../format/junit.ts';
import { formatSummary } from '../format/summary.ts';
import { assertDistinct, assertWritable, exitAfterWrites, lockOutputs, writeOutput } from '../output.ts';

/** Arguments of `catsim merge`. */
export interface MergeArgs {
  /** The reports of the parts, in any order. */
  files: string[];
  /** Write the merged report as JSON here. */
  report?: string;
  /** Write the merged verdict as JUnit XML here. */
  junit?: string;
  /** Capabilities accepted as not judged (`--not-judged`), besides those every part accepted. */
  notJudged?: Capability[];
}

/**
 * Merges the reports, prints the summary, writes the requested files, returns the exit code.
 * @throws InputError (exit 2) for an unreadable or malformed file, parts of different campaigns,
 * rounds missing or in two parts, or an unwritable output path, two outputs on one file, an
 * output on one of the reports, or an output another catsim is writing (its `PATH.catsim-lock`
 * names a live process; all checked before reading).
 */
export function mergeCommand(args: MergeArgs): number {
  if (args.report !== undefined) assertWritable(args.report, '--report');
  if (args.junit !== undefined) assertWritable(args.junit, '--junit');
  const outputs = [
    ['--report', args.report],
    ['--junit', args.junit],
  ] as const;
  assertDistinct(outputs);
  for (const [option, path] of outputs) {
    if (path !== undefined && args.files.some((file) => resolve(file) === resolve(path)))
      throw new InputError(`${option} names the report ${path} being merged: the merge would overwrite it`);
  }
  // A campaign (or another merge) writing the same --report or --junit is refused, as in `run`.
  const unlock = lockOutputs(outputs);
  try {
    return mergeLocked(args);
  } finally {
    unlock();
  }
}

/** Reads, merges and writes, once the outputs are locked. */
function mergeLocked(args: MergeArgs): number {
  const inputs: ShardInput[] = args.files.map((path) => ({
    path,
    report: readInputJson(path, (message) => new InputError(message)),
  }));
  let report;
  try {
    report = mergeShardReports(inputs, args.notJudged);
  } catch (error) {
    if (error instanceof MergeError) throw new InputError(error.message);
    throw error;
  }
  process.stdout.write(formatSummary(report, `${inputs.length} reports merged`));
  const stem = `catsim-merged-${report.seed}`;
  const reportWritten =
    args.report === undefined ||
    writeOutput(
      { path: args.report, what: 'report', stem, extension: '.json' },
      `${JSON.stringify(report, null, 2)}\n`,
    );
  const junitWritten =
    args.junit === undefined ||
    writeOutput({ path: args.junit, what: 'JUnit XML', stem, extension: '.xml' }, junitXml(report));
  return exitAfterWrites(exitCodeOf(report), reportWritten && junitWritten);
}
