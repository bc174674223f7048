/**
 * The per-tool verdicts of the content checks (SPEC section 5), in a module of their own so that
 * `content-checks.ts` and its verdict memo (`validation-memos.ts`) both read them without
 * importing each other. `content-checks.ts` re-exports both types.
 */

/** Why a tool was quarantined inside a snapshot (the order of checks is in the file header). */
export type ToolQuarantineReason =
  | 'MALFORMED_DESCRIPTOR'
  | 'BAD_NAME'
  | 'DUPLICATE_NAME'
  | 'NON_OBJECT_ROOT'
  | 'UNKNOWN_DIALECT'
  | 'UNRESOLVED_REF'
  | 'REMOTE_REF'
  | 'OVERSIZED_DESCRIPTOR'
  | 'SCHEMA_TOO_DEEP'
  | 'INVALID_SCHEMA';

/** `ok`, or the first reason the tool failed. */
export type ToolVerdict = 'ok' | ToolQuarantineReason;
