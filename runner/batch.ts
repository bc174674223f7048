/**
 * Runs a batch of rounds in this thread: what one worker does. Nothing else on the thread may
 * arm timers while a round runs, so progress is reported only between rounds.
 */
import type { Scenario } from '../sim/plan/scenario.ts';
import type { PoolTool } from '../sim/plan/tool-pool.ts';
import { loadCore } from '../cores/index.ts';
import { isSampled, replayCompare } from './determinism.ts';
import { runAndCheck, type RoundSummary } from './round-check.ts';
import { sizeThreadMemos } from '../cores/thread-memos.ts';

/** What a batch is asked to do. */
export interface BatchJob {
  seed: string;
  scenario: Scenario;
  core: string;
  rounds: number[];
  /** Replay about 1 in this many rounds (0: never). */
  determinismEvery: number;
  /**
   * Descriptor pool of a loaded catalog (`run --catalog`), sent with the job so workers never
   * read or parse the file; undefined means the built-in pool.
   */
  pool?: readonly PoolTool[];
}

/** One finished round, with the determinism replay result when it was sampled. */
export interface BatchResult {
  summary: RoundSummary;
  replay: 'same' | number | null | undefined;
}

/**
 * Runs every round of the job in order, calling `onStart` before each (a worker tells the
 * campaign, which bounds each round's time) and `onRound` after each.
 */
export async function runBatch(
  job: BatchJob,
  onRound: (result: BatchResult) => void,
  onStart?: (round: number) => void,
): Promise<void> {
  const core = await loadCore(job.core);
  sizeThreadMemos(job.pool?.length ?? 0);
  for (const round of job.rounds) {
    onStart?.(round);
    const { summary, run } = await runAndCheck(job.seed, round, job.scenario, core, job.core, job.pool);
    const replay = isSampled(round, job.determinismEvery)
      ? await replayCompare(
          job.seed,
          round,
          job.scenario,
          core,
          job.core,
          { digest: summary.traceDigest, events: run.events },
          job.pool,
        )
      : undefined;
    onRound({ summary, replay });
  }
}
