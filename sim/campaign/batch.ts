/**
 * Runs a batch of rounds in this thread: what one worker does. Nothing else on the thread may
 * arm timers while a round runs, so progress is reported only between rounds.
 */
import type { Scenario } from '../plan/scenario.ts';
import type { PoolTool } from '../plan/tool-pool.ts';
import { loadCore } from './cores.ts';
import { isSampled, replayCompare } from './determinism.ts';
import { runAndCheck, type RoundSummary } from './round-check.ts';
import { setDescriptorMemoEntries, setValidatorMemoEntries } from '../../src/validation/internal/bounded-memo.ts';

/**
 * Entries a generation of the core's descriptor memos during a campaign. A round serves a few
 * dozen descriptors and brings 1-3 never seen before (defects, renames, schema edits) that later
 * rounds do not serve again, so a memo only has to hold the recurring descriptors and one
 * round's: a larger one only fills with dead entries for thousands of rounds (the default
 * 16,384, sized for a 10,000-tool catalog, grew the heap by about 16 KB a round; 2,048 was still
 * growing after 2,000 rounds). At 512 the memos reach their two-generation bound within about
 * 500 rounds, and over seed 1's rounds 0..399 they miss about 5 more times a round than at 2,048
 * (of some 900 lookups). A loaded catalog's pool gets four entries a tool.
 */
const CAMPAIGN_MEMO_ENTRIES = 512;

/**
 * Entries a generation of the compiled-validator memos during a campaign (issue 12, item 4): a
 * round brings about 1.2 schemas never compiled before, and a compiled validator holds about 9 KB,
 * so the default 1,000 grew the heap for some 1,700 rounds; at 256 the recurring schemas still
 * hit (seed 1 rounds 0..399: 499 compiles against 493 at 1,000) and the memo is full within 500
 * rounds. A loaded catalog's pool gets one entry a tool.
 */
const CAMPAIGN_VALIDATOR_ENTRIES = 256;

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
  setValidatorMemoEntries(Math.max(CAMPAIGN_VALIDATOR_ENTRIES, job.pool?.length ?? 0));
  for (const round of job.rounds) {
    const { summary, run } = await runAndCheck(job.seed, round, job.scenario, core, job.core, job.pool);
    const replay = isSampled(round, job.determinismEvery)
      ? await replayCompare(job.seed, round, job.scenario, core, job.core, { digest: summary.traceDigest, events: run.events }, job.pool)
      : undefined;
    onRound({ summary, replay });
  }
}
