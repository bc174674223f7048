/**
 * The closed sets of codes `catsim.trace.v1` events carry. A code outside its set makes the event
 * malformed: the format is versioned, so a new code is added here (and so to the generated tables
 * of docs/TRACE.md), never written on the quiet.
 */

/** The end states of a scan (SPEC section 3). */
export const SCAN_END_STATES = ['SNAPSHOT_PROVEN', 'UNVERSIONED_OBSERVATION', 'INCOMPLETE', 'QUARANTINED'] as const;

/** Why a scan ended INCOMPLETE (retried with capped back-off; SPEC section 3). */
export const INCOMPLETE_REASONS = [
  'REVISION_MOVED', 'LIST_CHANGED', 'CURSOR_INVALID', 'REQUEST_FAILED', 'TIMEOUT', 'IDENTITY_CHANGED',
  'POLICY_EPOCH_CHANGED', 'RECHECK_REVISION_MOVED', 'MALFORMED_PAGE', 'DISCONNECTED', 'AUTH_REQUIRED',
] as const;

/** Why a scan ended QUARANTINED (operator attention, no automatic admission; SPEC section 3). */
export const QUARANTINE_REASONS = [
  'CURSOR_REPEATED', 'PAGE_LIMIT', 'BYTE_LIMIT', 'REVISION_BACKWARDS', 'EQUIVOCATION', 'TOO_MANY_TOOLS', 'CATALOG_TOO_LARGE',
] as const;

/** The reason of a `scan_ended`: `OK` for the two good states, else an INCOMPLETE or QUARANTINED reason. */
export const SCAN_END_REASONS = ['OK', ...INCOMPLETE_REASONS, ...QUARANTINE_REASONS] as const;

/**
 * The JSON-RPC code of a `page_refused` whose server refused the listing for the audience's
 * authorization (F21): a server-defined code, catsim's convention for HTTP's 403. A scan the
 * server refused so must end INCOMPLETE AUTH_REQUIRED and nothing of it be published (I20).
 */
export const AUTHORIZATION_REQUIRED_CODE = -32003;

/** The status of a published generation. */
export const PUBLISH_STATUSES = ['ELIGIBLE', 'UNVERSIONED_OBSERVATION'] as const;

/** Why a content check quarantined a tool inside a snapshot (SPEC section 5). */
export const TOOL_QUARANTINE_REASONS = [
  'MALFORMED_DESCRIPTOR', 'BAD_NAME', 'DUPLICATE_NAME', 'NON_OBJECT_ROOT', 'UNKNOWN_DIALECT', 'UNRESOLVED_REF',
  'REMOTE_REF', 'OVERSIZED_DESCRIPTOR', 'SCHEMA_TOO_DEEP', 'INVALID_SCHEMA',
] as const;

/** A published tool's verdict: `ok` or the reason it was quarantined. */
export const TOOL_VERDICTS = ['ok', ...TOOL_QUARANTINE_REASONS] as const;

/** The gate's refusal codes, in the order it checks them (SPEC section 7). */
export const GATE_REFUSALS = [
  'SERVER_DISABLED', 'TENANT_MISMATCH', 'INCOMPLETE_DISCOVERY', 'CATALOG_EXPIRED', 'UNDISCLOSED_TOOL',
  'STALE_CATALOG', 'POLICY_REVOKED', 'TOOL_QUARANTINED', 'UNVERSIONED_WRITE', 'ARGS_INVALID',
] as const;

/** A gate decision: `ADMIT` or a refusal code. */
export const GATE_DECISIONS = ['ADMIT', ...GATE_REFUSALS] as const;

/** How a call that left the core ended (`unknown`: no answer in time, it may have run). */
export const CALL_OUTCOMES = ['ok', 'error', 'refused', 'unknown'] as const;

/** How the core learned a policy epoch. */
export const POLICY_CHANNELS = ['push', 'poll'] as const;

/** The trusted effect classes of the host's policy (SPEC section 7). */
export const EFFECT_CLASSES = ['READ', 'RESERVATION', 'WRITE', 'DESTRUCTIVE'] as const;

/** Why the planner made a call: `stale` (F10), `guessed` (F17), `probe` (quiet tail). */
export const PLAN_KINDS = ['normal', 'stale', 'guessed', 'probe'] as const;

/** The defects the plan generator plants in descriptors (F13, for I5). */
export const PLANTED_DEFECTS = [
  'UNKNOWN_DIALECT', 'UNRESOLVED_REF', 'REMOTE_REF', 'OVERSIZED_DESCRIPTOR', 'NON_OBJECT_ROOT', 'BAD_NAME', 'DUPLICATE_NAME',
] as const;

/** Why the core showed a planner nothing; `CORE_FAILED` when its `disclose` failed (core_failed). */
export const DISCLOSURE_REFUSALS = ['INCOMPLETE_DISCOVERY', 'CATALOG_EXPIRED', 'SERVER_DISABLED', 'CORE_FAILED'] as const;

/** Which call of the world into the core failed, or which of the core's own callbacks (docs/CORE-API.md). */
export const CORE_CALLS = ['create', 'createClient', 'attach', 'disclose', 'call', 'pushPolicy', 'stop', 'scheduled', 'unhandledRejection'] as const;

/**
 * How a core failed to answer the world: a synchronous throw, a rejected `call`, an answer outside
 * the core API, or a promise of the core that rejected with no handler.
 */
export const CORE_FAILURE_REASONS = ['THREW', 'REJECTED', 'MALFORMED_ANSWER', 'UNHANDLED_REJECTION'] as const;

/** Why a server that checks pins and leases refused a call. */
export const SERVER_CALL_REFUSALS = ['STALE_PIN', 'BAD_LEASE', 'UNKNOWN_TOOL'] as const;

/** How a round ended; only a `settled` round is judged for liveness (I12). */
export const ROUND_STATUSES = ['settled', 'undecided'] as const;

/** Why a round ended: the quiet tail ran out, the event budget was spent, or the horizon came. */
export const ROUND_END_REASONS = ['quiet', 'event_budget', 'horizon'] as const;
