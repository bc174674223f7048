/**
 * The codes of admission at call time (SPEC sections 2 and 7): the gate's refusal codes in the
 * order it checks them, the `_meta` keys a `tools/call` carries, and the two JSON-RPC error codes
 * by which a server that checks pins and leases refuses a call.
 */

/**
 * Why the gate refused a call, in the exact order the gate checks (the first failing check wins):
 * - `SERVER_DISABLED`: the caller's catalog key is DISABLED (rollback found nothing) or its
 *   refresh loop is quarantined, or no connection of the caller's audience presents the plan's
 *   snapshot identity now (identity rotation, unknown server);
 * - `TENANT_MISMATCH`: the plan's catalog key has another tenant or role than the caller;
 * - `INCOMPLETE_DISCOVERY`: nothing is published for the caller's catalog key;
 * - `CATALOG_EXPIRED`: the active generation is past its `expiresAt`;
 * - `UNDISCLOSED_TOOL`: this (tool name, descriptor digest) was never disclosed to the session
 *   on this catalog key (reject-on-novel: refused locally, nothing is sent);
 * - `STALE_CATALOG`: the active generation has no tool of that name, or another descriptor digest;
 * - `POLICY_REVOKED`: at the current policy epoch the audience does not hold the tool;
 * - `TOOL_QUARANTINED`: the tool failed a content check (its verdict is not `ok`);
 * - `UNVERSIONED_WRITE`: the active generation is an unversioned observation, the tool's trusted
 *   effect class is not READ, and the plan carries no valid human confirmation;
 * - `ARGS_INVALID`: the arguments fail the tool's pinned input schema.
 */
export type RefusalCode =
  | 'SERVER_DISABLED'
  | 'TENANT_MISMATCH'
  | 'INCOMPLETE_DISCOVERY'
  | 'CATALOG_EXPIRED'
  | 'UNDISCLOSED_TOOL'
  | 'STALE_CATALOG'
  | 'POLICY_REVOKED'
  | 'TOOL_QUARANTINED'
  | 'UNVERSIONED_WRITE'
  | 'ARGS_INVALID';

/** Every {@link RefusalCode}, in the order the gate checks them (SPEC section 7). */
export const REFUSAL_ORDER: readonly RefusalCode[] = Object.freeze([
  'SERVER_DISABLED',
  'TENANT_MISMATCH',
  'INCOMPLETE_DISCOVERY',
  'CATALOG_EXPIRED',
  'UNDISCLOSED_TOOL',
  'STALE_CATALOG',
  'POLICY_REVOKED',
  'TOOL_QUARANTINED',
  'UNVERSIONED_WRITE',
  'ARGS_INVALID',
]);

/** What the gate decided: admit, or the first refusal code. */
export type GateVerdict = 'ADMIT' | RefusalCode;

/**
 * The `params._meta` key of a `tools/call` carrying the revision pin: the `sourceRevision` of the
 * generation the gate checked (SPEC section 2). Omitted when that generation is unversioned.
 */
export const PIN_META_KEY = 'dev.catsim/catalogRevision';

/** The `params._meta` key of a `tools/call` carrying the signed lease (see `lease.ts`). */
export const LEASE_META_KEY = 'dev.catsim/lease';

/**
 * JSON-RPC error code by which a server refuses a `tools/call` whose revision pin predates the
 * last change of that tool (SPEC section 2). `error.data.reason` says why. Chosen inside the
 * implementation-defined server-error range (-32000 to -32099) and clear of the SDK's own codes
 * (-32000 connection closed, -32001 request timeout, -32042 URL elicitation).
 */
export const STALE_PIN_ERROR_CODE = -32050;

/**
 * JSON-RPC error code by which a server refuses a `tools/call` without a valid, unused lease
 * (bad MAC, expired, reused, bound to another principal, session, tool, scope or policy epoch;
 * SPEC section 2). `error.data.reason` says why (e.g. a {@link LeaseRejection} code).
 */
export const BAD_LEASE_ERROR_CODE = -32051;

/**
 * How a call that left the core ended, as written in `receipt_outcome`:
 * `ok` (a result without `isError: true`), `error` (an `isError` result, or a JSON-RPC error other
 * than a server refusal), `refused` (the server answered {@link STALE_PIN_ERROR_CODE} or
 * {@link BAD_LEASE_ERROR_CODE}), `unknown` (no answer within `callTimeoutMs`, or the connection
 * closed before the answer: the server may or may not have executed the call).
 */
export type CallOutcome = 'ok' | 'error' | 'refused' | 'unknown';

/**
 * The host's check of an `ok` result's `structuredContent` against the output schema of the
 * version it admitted (SPEC section 9), as written in `receipt_outcome.output`: `conforms`, or
 * `violates` (the call's outcome becomes `error` with {@link OUTPUT_SCHEMA_VIOLATION}, and the
 * result is not passed on). A result without `structuredContent`, or of a tool that declares no
 * output schema, is not checked.
 */
export type OutputCheck = 'conforms' | 'violates';

/**
 * The code of a call whose result broke the output schema of the version that ran (SPEC section
 * 9): the server executed it, but the host does not pass its result on as valid.
 */
export const OUTPUT_SCHEMA_VIOLATION = 'OUTPUT_SCHEMA_VIOLATION';

/** Why {@link verifyLease} refused a lease; see `lease.ts` for the order of checks. */
export type LeaseRejection =
  | 'MALFORMED'
  | 'BAD_MAC'
  | 'EXPIRED'
  | 'REUSED'
  | 'WRONG_KEY'
  | 'WRONG_PRINCIPAL'
  | 'WRONG_SESSION'
  | 'WRONG_TOOL'
  | 'WRONG_SCOPE'
  | 'WRONG_GENERATION'
  | 'WRONG_DESCRIPTOR'
  | 'EPOCH_MOVED';
