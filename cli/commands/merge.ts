/**
 * `catsim merge SHARD.json...`: folds the reports of `catsim run --shard i/n --report FILE` into
 * the verdict of the whole campaign (sim/campaign/merge.ts) and prints its summary. Exit codes as
 * for `run`: 0 clean, 1 a violation, an UNDECIDED round or a required probe never hit, 3
 * non-determinism; a file that is not a shard report, or shards that are not one whole campaign,
 * is exit 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MergeError, mergeShardReports, type ShardInput } from '../../sim/campaign/merge.ts';
import { exitCodeOf } from '../../sim/campaign/report.ts';
import { InputError } from '../errors.ts';
import { junitXml } from '../format/junit.ts';
import { formatSummary } from '../format/summary.ts';
import { assertDistinct, assertWritable } from '../output.ts';

/** Arguments of `catsim merge`. */
export interface MergeArgs {
  /** The shard reports, in any order. */
  files: string[];
  /** Write the merged report as JSON here. */
  report?: string;
  /** Write the merged verdict as JUnit XML here. */
  junit?: string;
}

/**
 * Merges the shard reports, prints the summary, writes the requested files, returns the exit code.
 * @throws InputError (exit 2) for an unreadable or malformed file, shards of different campaigns, a
 * missing, repeated or interrupted shard, or an unwritable output path, two outputs on one file, or an
 * output on a shard report (all checked before reading).
 */
export function mergeCommand(args: MergeArgs): number {
  if (args.report !== undefined) assertWritable(args.report, '--report');
  if (args.junit !== undefined) assertWritable(args.junit, '--junit');
  const outputs = [['--report', args.report], ['--junit', args.junit]] as const;
  assertDistinct(outputs);
  for (const [option, path] of outputs) {
    if (path !== undefined && args.files.some((file) => resolve(file) === resolve(path))) throw new InputError(`${option} names the shard report ${path}: the merge would overwrite it`);
  }
  const inputs: ShardInput[] = args.files.map((path) => ({ path, report: readJson(path) }));
  let report;
  try {
    report = mergeShardReports(inputs);
  } catch (error) {
    if (error instanceof MergeError) throw new InputError(error.message);
    throw error;
  }
  process.stdout.write(formatSummary(report, `${inputs.length} shards merged`));
  if (args.report !== undefined) writeFileSync(args.report, `${JSON.stringify(report, null, 2)}\n`);
  if (args.junit !== undefined) writeFileSync(args.junit, junitXml(report));
  return exitCodeOf(report);
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputError(`${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read'}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError(`${path}: not valid JSON`);
  }
}
