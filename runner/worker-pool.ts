/**
 * The campaign's worker threads: deals batches of rounds to `count` workers as they become free,
 * and bounds every round's real time. Fault model (of the core under test, as seen from here): a
 * core stuck in synchronous code never lets its worker answer, and one that allocates without
 * bound kills its worker with a heap exhaustion. Either way the pool terminates or loses that
 * worker, records the round it was running as the core's failure (runner/abandoned-round.ts),
 * starts a fresh worker and goes on with the rest of the batch. A worker that dies any other way,
 * or a batch that fails, ends the campaign (a testbed failure).
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { abandonedRound, type AbandonCode } from './abandoned-round.ts';
import type { BatchJob, BatchResult } from './batch.ts';
import { TestbedError } from './testbed-error.ts';
import { failureOf, type FailureMessage, type WorkerMessage } from './worker-message.ts';

/** How the pool runs. */
export interface PoolOptions {
  /** The module a worker thread starts from. */
  entry: URL;
  /** Worker threads (at least 1; no more are started than there are jobs). */
  count: number;
  /** Real ms a round may run before its worker is terminated and the round is the core's failure. */
  roundTimeoutMs: number;
  /** Heap limits of each worker (tests use a small heap to exhaust it quickly); default Node's. */
  resourceLimits?: ResourceLimits;
  signal?: AbortSignal;
}

/** One worker and what it is doing. */
interface Slot {
  worker: Worker;
  job?: BatchJob;
  /** The round it is running and since when (real ms, `performance.now()`). */
  running?: { round: number; sinceMs: number };
}

/**
 * Runs `jobs`, calling `onResult` once per round (in any order).
 * @throws TestbedError when a worker crashes or ends for another reason than the two above; the
 *   batch's own failure (see {@link failureOf}) when a worker reports one.
 */
export function runOnWorkers(
  jobs: readonly BatchJob[],
  options: PoolOptions,
  onResult: (result: BatchResult) => void,
): Promise<void> {
  const queue = [...jobs];
  const slots = new Set<Slot>();
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    // real-clock: the watchdog runs on the main thread, where no round runs.
    const watchdog = setInterval(() => checkTimes(), Math.min(1_000, Math.max(10, options.roundTimeoutMs / 4)));
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      for (const slot of slots) void slot.worker.terminate();
      if (error === undefined) resolve();
      else reject(error);
    };
    options.signal?.addEventListener('abort', () => finish(), { once: true });
    const feed = (slot: Slot): void => {
      const job = queue.shift();
      slot.job = job;
      slot.running = undefined;
      if (job === undefined || options.signal?.aborted === true) {
        slots.delete(slot);
        slot.worker.removeAllListeners();
        void slot.worker.terminate();
        if (slots.size === 0) finish();
        return;
      }
      slot.worker.postMessage(job);
    };
    /** Records the running round of `slot` as abandoned, puts the rest of its batch back, and replaces the worker. */
    const abandon = (slot: Slot, code: AbandonCode): void => {
      const { job, running } = slot;
      slot.worker.removeAllListeners();
      void slot.worker.terminate();
      slots.delete(slot);
      if (job === undefined || running === undefined)
        return finish(new TestbedError(`a worker thread died outside a round (${code})`));
      onResult(abandonedRound(job, running.round, code, options.roundTimeoutMs));
      const rest = job.rounds.slice(job.rounds.indexOf(running.round) + 1);
      if (rest.length > 0) queue.unshift({ ...job, rounds: rest });
      start();
    };
    const checkTimes = (): void => {
      const now = performance.now(); // real-clock
      for (const slot of [...slots]) {
        if (slot.running !== undefined && now - slot.running.sinceMs > options.roundTimeoutMs)
          abandon(slot, 'TIMED_OUT');
      }
    };
    const start = (): void => {
      const slot: Slot = {
        worker: new Worker(
          options.entry,
          options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits },
        ),
      };
      slots.add(slot);
      slot.worker.on('message', (message: WorkerMessage) => {
        // A round a worker posted after the campaign ended (aborted) is not counted: the report
        // covers exactly the rounds done when the abort came.
        if (settled) return;
        if (message.kind === 'round-start')
          slot.running = { round: message.round, sinceMs: performance.now() }; // real-clock
        else if (message.kind === 'round') {
          slot.running = undefined;
          onResult(message.result);
        } else if (message.kind === 'batch-done') feed(slot);
        else finish(failureOf(message as FailureMessage));
      });
      slot.worker.on('error', (error: Error & { code?: string }) => {
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') abandon(slot, 'OUT_OF_MEMORY');
        else finish(new TestbedError(`worker crashed: ${error.message}`));
      });
      // A worker that ends on its own before the campaign let it go (a core that calls
      // process.exit, which in a worker thread ends that thread) would otherwise leave the
      // campaign waiting on rounds that never come, and Node would end with exit 13 and no word.
      slot.worker.on('exit', (code) =>
        finish(
          new TestbedError(
            `a worker thread ended before the campaign was done (exit code ${code}): a core that calls process.exit, or a crash, ends its worker`,
          ),
        ),
      );
      feed(slot);
    };
    for (let i = 0; i < Math.max(1, Math.min(options.count, jobs.length)); i += 1) start();
    if (jobs.length === 0) finish();
  });
}
