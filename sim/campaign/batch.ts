/**
 * Runs a batch of rounds in this thread: what one worker does. Nothing else on the thread may
 * arm timers while a round runs, so progress is reported only between rounds.
 */
import type { Scenario } from '../plan/scenario.ts';
import type { PoolTool } from '../plan/tool-pool.ts';
import { loadCore } from './cores.ts';
import { isSampled, replayCompare } from './determinism.ts';
import { runAndCheck, type RoundSummary } from './round-check.ts';
import { setDescriptorMemoEntries } from '../../src/validation/internal/bounded-memo.ts';

/**
 * Entries a generation of the core's descriptor memos during a campaign. A round serves a few
 * dozen descriptors and brings 2-4 never seen before (defects, renames), so the default 16,384
 * (sized for a 10,000-tool catalog) kept filling for thousands of rounds (about 16 KB a round of
 * heap); the recurring descriptors stay in memory at this size, and a loaded catalog's pool gets
 * four entries a tool.
 */
const CAMPAIGN_MEMO_ENTRIES = 2_048;

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

/** Runs every round of the job in order, calling `onRound` after each. */
export async function runBatch(job: BatchJob, onRound: (result: BatchResult) => void): Promise<void> {
  const core = await loadCore(job.core);
  setDescriptorMemoEntries(Math.max(CAMPAIGN_MEMO_ENTRIES, 4 * (job.pool?.length ?? 0)));
  for (const round of job.rounds) {
    const { summary, run } = await runAndCheck(job.seed, round, job.scenario, core, job.core, job.pool);
    const replay = isSampled(round, job.determinismEvery)
      ? await replayCompare(job.seed, round, job.scenario, core, job.core, { digest: summary.traceDigest, events: run.events }, job.pool)
      : undefined;
    onRound({ summary, replay });
  }
}
