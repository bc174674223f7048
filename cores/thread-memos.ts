/**
 * The memos (src/memos.ts) that every core built on the reference core's code shares on one
 * thread: the reference core, its mutants and the home-made peers' digests. A round builds a new
 * host, so a host's own memos would start empty every round; handed these instead
 * (`HostPorts.memos`), the rounds on a thread reuse what the rounds before them computed, which is
 * what made a campaign's rounds cheap (issue 12). Every memoised value is a pure function of its
 * key: sharing and sizing change the work, never a trace.
 *
 * The simulator owns this state, not src/: the reference core keeps no memo at module level.
 */
import { CoreMemos, type MemoSizes } from '../src/memos.ts';

/**
 * Entries a generation of the descriptor-keyed memos during a campaign. A round serves a few
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

/** The memo sizes of a campaign whose loaded catalog (`run --catalog`) has `poolTools` tools; 0 for the built-in pool. */
export function campaignMemoSizes(poolTools: number): MemoSizes {
  return {
    descriptorEntries: Math.max(CAMPAIGN_MEMO_ENTRIES, 4 * poolTools),
    validatorEntries: Math.max(CAMPAIGN_VALIDATOR_ENTRIES, poolTools),
  };
}

/** This thread's memos, sized for a campaign on the built-in pool until {@link sizeThreadMemos} says otherwise. */
export const THREAD_MEMOS = new CoreMemos(campaignMemoSizes(0));

/** Sizes this thread's memos for a campaign on a pool of `poolTools` tools (0: the built-in pool); called before a batch's first round. */
export function sizeThreadMemos(poolTools: number): void {
  THREAD_MEMOS.resize(campaignMemoSizes(poolTools));
}
