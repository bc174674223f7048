/**
 * The memo of per-tool verdicts, keyed by `${validationDigest}:${descriptorDigest}` (SPEC section 4
 * digests). A campaign checks the same descriptors thousands of times; a verdict is a pure
 * function of the descriptor and the trust configuration, so the memo never changes an answer.
 * Duplicate names depend on the whole list and are never memoised.
 */
import type { ToolVerdict } from '../verdicts.ts';
import { BoundedMemo } from './bounded-memo.ts';

/** Verdicts kept before the memo clears itself. */
export const VERDICT_MEMO_MAX = 10_000;

/** The process-wide verdict memo (module state: `checkTools` takes no cache argument). */
export const VERDICT_MEMO = new BoundedMemo<ToolVerdict>(VERDICT_MEMO_MAX);
