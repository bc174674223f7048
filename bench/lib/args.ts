/**
 * Command-line options shared by `bench/run.ts` and every benchmark run alone:
 * `--quick` (a reduced set, well under a minute) and `--rounds N[,M...]` (memory benchmark).
 */

/** A command-line argument a benchmark cannot take: `runIfEntry` prints its message as one line and exits 2. */
export class BenchArgumentError extends Error {}

/** Options every benchmark receives. */
export interface BenchOptions {
  /** A reduced, faster set (a smoke check). */
  quick: boolean;
  /** Round counts for the memory benchmark, ascending; undefined means its defaults. */
  rounds: number[] | undefined;
}

/**
 * Parses `argv` (without the node and script paths).
 * @throws BenchArgumentError for a `--rounds` value that is not a list of positive integers.
 */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const index = argv.findIndex((arg) => arg === '--rounds' || arg.startsWith('--rounds='));
  const raw =
    index < 0 ? undefined : argv[index]?.includes('=') ? argv[index]?.slice('--rounds='.length) : argv[index + 1];
  if (index >= 0 && raw === undefined) throw new BenchArgumentError('--rounds needs a value, e.g. --rounds 10000');
  const rounds = raw?.split(',').map(Number);
  if (rounds !== undefined && !rounds.every((count) => Number.isSafeInteger(count) && count > 0))
    throw new BenchArgumentError(`--rounds: not a list of positive integers: ${raw}`);
  return { quick: argv.includes('--quick'), rounds: rounds?.sort((a, b) => a - b) };
}
