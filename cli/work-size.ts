/**
 * How much work a command line asks for, checked before any round runs: a shard that would hold
 * no round is refused (it would print PASS having tested nothing), and `--workers` is capped at
 * what the run can use, with a one-line note.
 */
import { availableParallelism } from 'node:os';
import { InputError } from './errors.ts';

/** Worker threads per CPU core at most: more only adds start-up time and memory (each ~150 MB). */
export const WORKERS_PER_CORE_MAX = 2;

/**
 * Refuses a `--shard i/n` of a campaign of `rounds` rounds when n > rounds: some shard would run
 * no round, and a shard of no rounds tests nothing. With n <= rounds every shard has at least one.
 * @throws InputError (exit 2) `--shard 7/8: 4 rounds cannot make 8 shards (some would be empty); use at most 4`.
 */
export function checkShardSize(shard: { index: number; count: number }, rounds: number): void {
  if (shard.count > rounds) {
    throw new InputError(
      `--shard ${shard.index}/${shard.count}: ${rounds} round${rounds === 1 ? '' : 's'} cannot make ${shard.count} shards (some would be empty); use at most ${rounds}`,
    );
  }
}

/**
 * The worker threads for `--workers requested` on a run of `rounds` rounds: at most one per round
 * and {@link WORKERS_PER_CORE_MAX} per CPU core (`os.availableParallelism()`). When that is fewer
 * than asked, prints one note to stderr, e.g. `catsim: note: --workers 1000 capped at 2 (one per
 * round: 2 rounds)`. 0 (one worker thread, batches as for 1) stays 0.
 * @param cores the CPU cores to count with (a seam for tests; default `availableParallelism()`).
 */
export function campaignWorkers(requested: number, rounds: number, cores: number = availableParallelism()): number {
  const perCore = WORKERS_PER_CORE_MAX * cores;
  const workers = Math.min(requested, rounds, perCore);
  if (workers < requested) {
    const why =
      workers === rounds && rounds < perCore
        ? `one per round: ${rounds} round${rounds === 1 ? '' : 's'}`
        : `${WORKERS_PER_CORE_MAX} per CPU core: ${cores} core${cores === 1 ? '' : 's'}`;
    process.stderr.write(`catsim: note: --workers ${requested} capped at ${workers} (${why})\n`);
  }
  return workers;
}
