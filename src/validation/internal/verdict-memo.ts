/**
 * The memo of per-tool verdicts, keyed by `${validationDigest}:${descriptorDigest}` (SPEC section 4
 * digests). A campaign checks the same descriptors thousands of times; a verdict is a pure
 * function of the descriptor and the trust configuration, so the memo never changes an answer.
 * Duplicate names depend on the whole list and are never memoised.
 */
import type { ToolVerdict } from '../verdicts.ts';
import { descriptorMemo } from './bounded-memo.ts';

/**
 * The process-wide verdict memo (module state: `checkTools` takes no cache argument); a
 * generational memo of `DESCRIPTOR_MEMO_ENTRIES` a generation (bounded-memo.ts).
 */
export const VERDICT_MEMO = descriptorMemo<ToolVerdict>();
