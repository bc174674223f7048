/**
 * A seeded campaign: rounds [firstRound, firstRound + rounds) of one seed, on one scenario and
 * core, spread over worker threads in batches, folded into one report. The report does not
 * depend on the number of workers: every round is a pure function of (seed, round, scenario,
 * core), and summaries are folded in round order.
 */
import type { ResourceLimits } from 'node:worker_threads';
import type { Capability } from '../oracle/not-judged.ts';
import type { LoadedCatalog } from '../sim/plan/catalog.ts';
import { scenarioDigest, type Scenario } from '../sim/plan/scenario.ts';
import type { BatchJob, BatchResult } from './batch.ts';
import { ReportBuilder, shardBlock, type CampaignReport } from './report.ts';
import { TestbedError } from './testbed-error.ts';
import { WORKER_ENTRY } from './worker-entry-url.ts';
import { runOnWorkers } from './worker-pool.ts';

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
  /**
   * Worker threads; 0 is one worker thread too (rounds are never run in this thread, where
   * neither their time nor their memory could be bounded), with batches as for 1.
   */
  workers: number;
  /** Replay about 1 in this many rounds to check determinism (0: never). */
  determinismEvery: number;
  /**
   * Real ms a round may run in a worker thread before the worker is terminated and the round is
   * the core's failure (`CORE_FAILED TIMED_OUT`); default {@link ROUND_TIMEOUT_MS_DEFAULT}.
   */
  roundTimeoutMs?: number;
  /** Heap limits of each worker thread (tests); default Node's. Exhaustion is `CORE_FAILED OUT_OF_MEMORY`. */
  workerResourceLimits?: ResourceLimits;
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
 * The default per-round time limit, 120,000 ms: a round of the shipped scenarios takes well
 * under a second, and a few seconds on a machine loaded many times over.
 */
export const ROUND_TIMEOUT_MS_DEFAULT = 120_000;

/**
 * Runs a campaign and returns its report.
 * @throws TestbedError when a round crashes the testbed; CoreContractError when the core emitted
 *   an observation outside the trace contract (both exit 3), from worker threads or in-process.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const { catalog } = options;
  const scenario = catalog === undefined ? options.scenario.name : `${options.scenario.name}+catalog:${catalog.name}`;
  const { shard } = options;
  const block =
    shard === undefined
      ? { firstRound: options.firstRound, rounds: options.rounds }
      : shardBlock(options.firstRound, options.rounds, shard.index, shard.count);
  const builder = new ReportBuilder(
    {
      seed: options.seed,
      scenario,
      scenarioPath: options.scenarioPath ?? null,
      scenarioDigest: scenarioDigest(options.scenario),
      catalog: catalog === undefined ? null : { name: catalog.name, path: catalog.path },
      core: options.core,
      firstRound: block.firstRound,
      roundsPlanned: block.rounds,
      faults: options.scenario.faults,
      shard: shard === undefined ? null : { ...shard, firstRound: options.firstRound, rounds: options.rounds },
      notJudgedAccepted: [...(options.notJudged ?? []), ...(options.scenario.notJudged ?? [])],
    },
    { rounds: options.scenario.probeGateRounds, required: options.scenario.requiredProbes },
  );
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
  const jobs = batches(rounds, sizes ?? [], options.batchSize ?? 1).map(
    (batch): BatchJob => ({
      seed: options.seed,
      scenario: options.scenario,
      core: options.core,
      rounds: batch,
      determinismEvery: options.determinismEvery,
      pool: catalog?.pool,
    }),
  );
  // `workers: 0` runs on one worker thread as well: in this thread a stuck core could not be
  // stopped, and a heap exhaustion would end catsim with V8's fatal error instead of one line.
  await runOnWorkers(
    jobs,
    {
      entry: WORKER_ENTRY,
      count: Math.max(1, options.workers),
      roundTimeoutMs: options.roundTimeoutMs ?? ROUND_TIMEOUT_MS_DEFAULT,
      resourceLimits: options.workerResourceLimits,
      signal: options.signal,
    },
    onResult,
  );
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
  for (let left = rounds; left > 0; ) {
    const size =
      workers <= 1 ? BATCH_ROUNDS_MAX : Math.max(1, Math.min(BATCH_ROUNDS_MAX, Math.ceil(left / (2 * workers))));
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
