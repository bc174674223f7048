/**
 * A seeded campaign: rounds [firstRound, firstRound + rounds) of one seed, on one scenario and
 * core, spread over worker threads in batches, folded into one report. The report does not
 * depend on the number of workers: every round is a pure function of (seed, round, scenario,
 * core), and summaries are folded in round order.
 */
import { Worker } from 'node:worker_threads';
import type { Capability } from '../../oracle/not-judged.ts';
import type { LoadedCatalog } from '../plan/catalog.ts';
import { scenarioDigest, type Scenario } from '../plan/scenario.ts';
import { runBatch, type BatchJob, type BatchResult } from './batch.ts';
import { ReportBuilder, shardBlock, type CampaignReport } from './report.ts';
import { TestbedError } from './testbed-error.ts';
import { failureOf, type WorkerMessage } from './worker-message.ts';

export { TestbedError } from './testbed-error.ts';

/** What to run. */
export interface CampaignOptions {
  seed: string;
  scenario: Scenario;
  /**
   * A captured catalog (`run --catalog`): the servers' histories are built from its tools, and
   * the report's scenario reads `SCENARIO+catalog:NAME`. Undefined: the built-in pool.
   */
  catalog?: Pick<LoadedCatalog, 'name' | 'path' | 'pool'>;
  core: string;
  /** The campaign's first round and number of rounds (the whole campaign, when sharded). */
  firstRound: number;
  rounds: number;
  /**
   * Run only shard `index` (1-based) of `count` contiguous blocks of the campaign (see
   * {@link shardBlock}); the report then carries what `catsim merge` needs. Undefined: all of it.
   */
  shard?: { index: number; count: number };
  /** The scenario file as given (`run --scenario PATH`), when it was a path rather than a built-in name. */
  scenarioPath?: string;
  /**
   * Capabilities the user accepts as not judged (`run --not-judged`), besides the scenario's
   * `notJudged`: the report marks them accepted (oracle/not-judged.ts). Undefined: none.
   */
  notJudged?: readonly Capability[];
  /** Worker threads; 0 runs in this thread (no progress timers may run meanwhile). */
  workers: number;
  /** Replay about 1 in this many rounds to check determinism (0: never). */
  determinismEvery: number;
  /**
   * Rounds per batch handed to a worker, every batch alike. Default: guided sizes (see
   * {@link guidedBatchSizes}), at most 25 and fewer as the campaign nears its end, so that no
   * worker sits idle while another finishes a long last batch.
   */
  batchSize?: number;
  /** Called between rounds with the number of rounds finished and failing so far (in any order). */
  onProgress?: (done: number, failing: number) => void;
  /**
   * Aborting stops the campaign between rounds; the report then covers the rounds done from
   * `firstRound` on without a gap (a round a faster worker finished beyond the first unfinished
   * one is left out: resuming from `resumeFrom` runs it again).
   */
  signal?: AbortSignal;
}

/**
 * The module a worker thread starts from: when this module is the compiled JavaScript of `dist/`
 * (`npm run build`), the compiled worker beside it, which starts as fast as any module; when it
 * is the TypeScript source (tsx, vitest), a bootstrap that registers tsx first.
 */
const WORKER_ENTRY = import.meta.url.endsWith('.js') ? new URL('./worker.js', import.meta.url) : new URL('./worker-entry.mjs', import.meta.url);

/**
 * Runs a campaign and returns its report.
 * @throws TestbedError when a round crashes the testbed; CoreContractError when the core emitted
 *   an observation outside the trace contract (both exit 3), from worker threads or in-process.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const { catalog } = options;
  const scenario = catalog === undefined ? options.scenario.name : `${options.scenario.name}+catalog:${catalog.name}`;
  const { shard } = options;
  const block = shard === undefined ? { firstRound: options.firstRound, rounds: options.rounds } : shardBlock(options.firstRound, options.rounds, shard.index, shard.count);
  const builder = new ReportBuilder({
    seed: options.seed, scenario, scenarioPath: options.scenarioPath ?? null, scenarioDigest: scenarioDigest(options.scenario), catalog: catalog === undefined ? null : { name: catalog.name, path: catalog.path }, core: options.core,
    firstRound: block.firstRound, roundsPlanned: block.rounds, faults: options.scenario.faults,
    shard: shard === undefined ? null : { ...shard, firstRound: options.firstRound, rounds: options.rounds },
    notJudgedAccepted: [...(options.notJudged ?? []), ...(options.scenario.notJudged ?? [])],
  }, { rounds: options.scenario.probeGateRounds, required: options.scenario.requiredProbes });
  const started = performance.now(); // real-clock: throughput only, never inside a round
  let done = 0;
  let failing = 0;
  const onResult = (result: BatchResult): void => {
    builder.add(result.summary, result.replay);
    done += 1;
    if (result.summary.violations.length > 0 || result.summary.status === 'undecided') failing += 1;
    options.onProgress?.(done, failing);
  };
  const rounds = Array.from({ length: block.rounds }, (_, i) => block.firstRound + i);
  const sizes = options.batchSize === undefined ? guidedBatchSizes(block.rounds, options.workers) : undefined;
  const jobs = batches(rounds, sizes ?? [], options.batchSize ?? 1).map((batch): BatchJob => ({ seed: options.seed, scenario: options.scenario, core: options.core, rounds: batch, determinismEvery: options.determinismEvery, pool: catalog?.pool }));
  if (options.workers === 0) {
    for (const job of jobs) {
      if (options.signal?.aborted) break;
      await runBatch(job, onResult);
    }
  } else {
    await runOnWorkers(jobs, options.workers, onResult, options.signal);
  }
  // An abort that came after the last round was done interrupted nothing.
  const interrupted = options.signal?.aborted === true && builder.roundsRun < block.rounds;
  return builder.build(performance.now() - started, interrupted); // real-clock
}

/** Rounds per batch at most (the guided schedule's cap, and the default before issue 12). */
const BATCH_ROUNDS_MAX = 25;

/**
 * The batch sizes of a campaign of `rounds` on `workers` threads, in order (they sum to
 * `rounds`): each batch is a 2·workers-th of the rounds still unassigned, between 1 and
 * {@link BATCH_ROUNDS_MAX} (guided self-scheduling). Early batches are full, so workers ask for
 * work as seldom as before; the last ones shrink to a round or two, so the campaign ends within
 * about a round of its busiest worker instead of up to a whole batch of 25 after the others ran
 * dry. Which worker runs a round never changes its trace (a round is a pure function of seed,
 * round, scenario and core), only how evenly the threads finish. Workers 0 (in-process) or 1: batches
 * of 25, and so for one worker (nothing to even out).
 */
export function guidedBatchSizes(rounds: number, workers: number): number[] {
  const sizes: number[] = [];
  for (let left = rounds; left > 0;) {
    const size = workers <= 1 ? BATCH_ROUNDS_MAX : Math.max(1, Math.min(BATCH_ROUNDS_MAX, Math.ceil(left / (2 * workers))));
    const taken = Math.min(size, left);
    sizes.push(taken);
    left -= taken;
  }
  return sizes;
}

/** `items` cut in order into batches of `sizes[0]`, `sizes[1]`, ..., then of `rest` each. */
function batches<T>(items: readonly T[], sizes: readonly number[], rest: number): T[][] {
  const out: T[][] = [];
  for (let i = 0, k = 0; i < items.length; k += 1) {
    const size = sizes[k] ?? rest;
    out.push(items.slice(i, i + size));
    i += size;
  }
  return out;
}

/**
 * Deals jobs to `count` worker threads as they become free, and terminates them when the jobs
 * are done, the signal aborts or a batch fails.
 * @throws TestbedError when a worker crashes or ends before the campaign let it go; the batch's
 *   own failure (see {@link failureOf}) when a worker reports one.
 */
function runOnWorkers(jobs: BatchJob[], count: number, onResult: (result: BatchResult) => void, signal: AbortSignal | undefined): Promise<void> {
  const queue = [...jobs];
  const workers: Worker[] = [];
  return new Promise<void>((resolve, reject) => {
    let active = 0;
    let settled = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      for (const worker of workers) void worker.terminate();
      if (error === undefined) resolve();
      else reject(error);
    };
    signal?.addEventListener('abort', () => finish(), { once: true });
    const feed = (worker: Worker): void => {
      const job = queue.shift();
      if (job === undefined || signal?.aborted) {
        active -= 1;
        if (active === 0) finish();
        return;
      }
      worker.postMessage(job);
    };
    for (let i = 0; i < Math.max(1, Math.min(count, jobs.length)); i += 1) {
      const worker = new Worker(WORKER_ENTRY);
      workers.push(worker);
      active += 1;
      worker.on('message', (message: WorkerMessage) => {
        if (message.kind === 'round') onResult(message.result);
        else if (message.kind === 'batch-done') feed(worker);
        else finish(failureOf(message));
      });
      worker.on('error', (error) => finish(new TestbedError(`worker crashed: ${error.message}`)));
      // A worker that ends on its own before the campaign let it go (a core that calls
      // process.exit, which in a worker thread ends that thread) would otherwise leave the
      // campaign waiting on rounds that never come, and Node would end with exit 13 and no word.
      worker.on('exit', (code) => finish(new TestbedError(`a worker thread ended before the campaign was done (exit code ${code}): a core that calls process.exit, or a crash, ends its worker`)));
      feed(worker);
    }
    if (jobs.length === 0) finish();
  });
}
