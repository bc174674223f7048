/**
 * The closed sets of codes `catsim.trace.v1` events carry. A code outside its set makes the event
 * malformed: the format is versioned, so a new code is added here (and so to the generated tables
 * of docs/TRACE.md), never written on the quiet.
 */

/** The end states of a scan (SPEC section 3). */
export const SCAN_END_STATES = ['SNAPSHOT_PROVEN', 'UNVERSIONED_OBSERVATION', 'INCOMPLETE', 'QUARANTINED'] as const;

/** Why a scan ended INCOMPLETE (retried with capped back-off; SPEC section 3). */
export const INCOMPLETE_REASONS = [
  'REVISION_MOVED',
  'LIST_CHANGED',
  'CURSOR_INVALID',
  'REQUEST_FAILED',
  'TIMEOUT',
  'IDENTITY_CHANGED',
  'POLICY_EPOCH_CHANGED',
  'RECHECK_REVISION_MOVED',
  'MALFORMED_PAGE',
  'DISCONNECTED',
  'AUTH_REQUIRED',
  'CACHE_SCOPE_MIXED',
] as const;

/** Why a scan ended QUARANTINED (operator attention, no automatic admission; SPEC section 3). */
export const QUARANTINE_REASONS = [
  'CURSOR_REPEATED',
  'PAGE_LIMIT',
  'BYTE_LIMIT',
  'REVISION_BACKWARDS',
  'EQUIVOCATION',
  'TOO_MANY_TOOLS',
  'CATALOG_TOO_LARGE',
] as const;

/** The reason of a `scan_ended`: `OK` for the two good states, else an INCOMPLETE or QUARANTINED reason. */
export const SCAN_END_REASONS = ['OK', ...INCOMPLETE_REASONS, ...QUARANTINE_REASONS] as const;

/**
 * Where the world killed the host process (F18): `at_time` at a seeded instant (mid-walk or with
 * calls in flight, whatever the host was doing), `in_publish` inside the publish transaction
 * (before its catalog receipt row), `after_commit` after a publish committed but before the core
 * reported it, `after_lease` after a lease was issued but before its call was dispatched.
 */
export const HOST_CRASH_POINTS = ['at_time', 'in_publish', 'after_commit', 'after_lease'] as const;

/**
 * What an operator or monitor saw that triggers a rollback (F19, seed 001's rollout rule): the
 * missing-tool rate of a key rose, or one privilege escalation occurred.
 */
export const ROLLBACK_TRIGGER_KINDS = ['missing_tool_rate', 'privilege_escalation'] as const;

/**
 * Whether a rollback trigger reached the core (F19): `delivered` through its `rollback`,
 * `unsupported` when the core has no `rollback` (it is not judged on rollback outcomes),
 * `host_down` while the host process was dead (F18).
 */
export const ROLLBACK_DELIVERIES = ['delivered', 'unsupported', 'host_down'] as const;

/** The true class of a contract change F36 plants (SPEC section 9's rules), as the world planned it. */
export const CONTRACT_CHANGE_CLASSES = ['compatible', 'breaking'] as const;

/** Which contract F37's backup endpoint serves for its tool: the primary's (`same`) or another (`other`). */
export const BACKUP_CONTRACTS = ['same', 'other'] as const;

/** Whether the core was handed F37's backup endpoint: `offered`, or `unsupported` (no `attachBackup`). */
export const BACKUP_DELIVERIES = ['offered', 'unsupported'] as const;

/** What became of an operator's emergency disable (F26): the same three as a rollback trigger's. */
export const EMERGENCY_DISABLE_DELIVERIES = ROLLBACK_DELIVERIES;

/**
 * The steps of an operator's walk of a tool's versions through the end of their lifecycle (F35,
 * SPEC section 9): to stage `announce` (they stay bindable and callable; a host shows the notice),
 * to stage `sunset` (no new run may pin them), to stage `disabled` (no call of them may run), then
 * their removal.
 */
export const LIFECYCLE_STEPS = ['announce', 'sunset', 'disabled', 'remove'] as const;

/** A core's answer to a removal (F35): `removed`, or `refused` with its code. */
export const REMOVAL_ANSWERS = ['removed', 'refused'] as const;

/**
 * How a `subscriptions/listen` stream of a modern-era (MCP 2026-07-28) session ended: the server
 * ended it gracefully (its `subscriptions/listen` result reached the core), or the connection
 * under it was cut.
 */
export const LISTEN_ENDINGS = ['complete', 'disconnected'] as const;

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
  'MALFORMED_DESCRIPTOR',
  'BAD_NAME',
  'DUPLICATE_NAME',
  'NON_OBJECT_ROOT',
  'UNKNOWN_DIALECT',
  'UNRESOLVED_REF',
  'REMOTE_REF',
  'OVERSIZED_DESCRIPTOR',
  'SCHEMA_TOO_DEEP',
  'INVALID_SCHEMA',
] as const;

/** A published tool's verdict: `ok` or the reason it was quarantined. */
export const TOOL_VERDICTS = ['ok', ...TOOL_QUARANTINE_REASONS] as const;

/** The gate's refusal codes, in the order it checks them (SPEC section 7). */
export const GATE_REFUSALS = [
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
] as const;

/**
 * The capability registry's refusal codes (SPEC section 9), in the order it checks them: a core
 * with a capability registry refuses a call with one of these in its `gate_decision` when the
 * version its run pinned may not execute.
 */
export const CAPABILITY_REFUSALS = [
  'RUN_UNKNOWN',
  'RUN_ENDED',
  'TOOL_NOT_PINNED',
  'VERSION_GONE',
  'VERSION_EMERGENCY_DISABLED',
  'VERSION_DISABLED',
  'VERSION_SUNSET',
  'VERSION_INCOMPATIBLE',
] as const;

/** A gate decision: `ADMIT`, a gate refusal code, or a capability registry refusal code. */
export const GATE_DECISIONS = ['ADMIT', ...GATE_REFUSALS, ...CAPABILITY_REFUSALS] as const;

/** How a call that left the core ended (`unknown`: no answer in time, it may have run). */
export const CALL_OUTCOMES = ['ok', 'error', 'refused', 'unknown'] as const;

/**
 * A core's check of a result's `structuredContent` against the output schema of the version it
 * admitted (SPEC section 9, `receipt_outcome.output`): `conforms` (passed on as a valid result) or
 * `violates` (not passed on as valid: the core's own error).
 */
export const OUTPUT_CHECKS = ['conforms', 'violates'] as const;

/** How the core learned a policy epoch. */
export const POLICY_CHANNELS = ['push', 'poll'] as const;

/** The trusted effect classes of the host's policy (SPEC section 7). */
export const EFFECT_CLASSES = ['READ', 'RESERVATION', 'WRITE', 'DESTRUCTIVE'] as const;

/** Why the planner made a call: `stale` (F10), `guessed` (F17), `probe` (quiet tail). */
export const PLAN_KINDS = ['normal', 'stale', 'guessed', 'probe'] as const;

/** The defects the plan generator plants in descriptors (F13, for I5). */
export const PLANTED_DEFECTS = [
  'UNKNOWN_DIALECT',
  'UNRESOLVED_REF',
  'REMOTE_REF',
  'OVERSIZED_DESCRIPTOR',
  'NON_OBJECT_ROOT',
  'BAD_NAME',
  'DUPLICATE_NAME',
] as const;

/** Why the core showed a planner nothing; `CORE_FAILED` when its `disclose` failed (core_failed). */
export const DISCLOSURE_REFUSALS = [
  'INCOMPLETE_DISCOVERY',
  'CATALOG_EXPIRED',
  'SERVER_DISABLED',
  'CORE_FAILED',
] as const;

/** Which call of the world into the core failed, or which of the core's own callbacks (docs/CORE-API.md). */
export const CORE_CALLS = [
  'create',
  'createClient',
  'attach',
  'disclose',
  'call',
  'pushPolicy',
  'stop',
  'scheduled',
  'unhandledRejection',
  'modelTurn',
  'rollback',
  'emergencyDisable',
  'deprecate',
  'alias',
  'remove',
  'attachBackup',
] as const;

/**
 * How a core failed to answer the world: a synchronous throw, a rejected `call`, an answer outside
 * the core API, or a promise of the core that rejected with no handler.
 */
export const CORE_FAILURE_REASONS = ['THREW', 'REJECTED', 'MALFORMED_ANSWER', 'UNHANDLED_REJECTION'] as const;

/**
 * Why a server that checks pins and leases refused a call. `INVALID_ARGUMENTS`: the arguments fail
 * the tool's input schema, as a server that validates its inputs refuses them (black-box mode's
 * servers do; the simulated rounds' servers execute any arguments).
 */
export const SERVER_CALL_REFUSALS = ['STALE_PIN', 'BAD_LEASE', 'UNKNOWN_TOOL', 'INVALID_ARGUMENTS'] as const;

/** How a round ended; only a `settled` round is judged for liveness (I12). */
export const ROUND_STATUSES = ['settled', 'undecided'] as const;

/**
 * Why a round ended: the quiet tail ran out, the event budget was spent, the horizon came, or
 * (`done`) the world ended it before T_end once its work was done (DESIGN.md section 10, "The
 * early end").
 */
export const ROUND_END_REASONS = ['quiet', 'event_budget', 'horizon', 'done'] as const;

/**
 * The hooks the simulator's host extensions run on a model request (F22, seed 003), harmful ones
 * first: each changes the surface (the stage must refuse it), in seed 003's own terms (add,
 * remove, reorder, replace a schema, edit a schema in place through a shared reference, add an
 * unadmitted helper, edit a description, rename, start asynchronous preparation that edits late,
 * an illegal edit a later stage restores ("laundered"), a silent top-N cut, hiding a tool on a
 * diagnostic field, an old skill list used as a shadow whitelist).
 */
export const HARMFUL_SURFACE_HOOKS = [
  'add-tool',
  'remove-tool',
  'reorder',
  'replace-schema',
  'edit-schema-in-place',
  'add-helper',
  'edit-description',
  'rename',
  'async-late-edit',
  'launder',
  'top-n',
  'hide-on-diagnostic',
  'shadow-whitelist',
] as const;

/**
 * Hooks that leave the surface as admitted (the stage must NOT refuse them): identical copies,
 * reading, a JSON round trip, schema keys in another order, equal strings rebuilt, a member set to
 * `undefined`, the same tools in a new array, a field outside the logical surface, an edit restored
 * within the pipeline, message compression, an awaited pause.
 */
export const HARMLESS_SURFACE_HOOKS = [
  'identity-copy',
  'read-only',
  'json-round-trip',
  'reorder-schema-keys',
  'rebuild-strings',
  'undefined-member',
  'new-array',
  'extra-field',
  'edit-and-restore',
  'compress-messages',
  'async-noop',
] as const;

/** Every hook kind of a model turn. */
export const SURFACE_HOOKS = [...HARMFUL_SURFACE_HOOKS, ...HARMLESS_SURFACE_HOOKS] as const;

/**
 * What the host's late stage does to a request after the hooks and before dispatch: adds evidence
 * to the context (harmless), edits a description or a schema (harmful: only the final check sees
 * it), or restores what a `launder` hook changed.
 */
export const SURFACE_LATE_STEPS = ['late-evidence', 'late-edit-description', 'late-edit-schema', 'restore'] as const;

/** How the core closed a reserved model request in the world's request ledger (seed 003, section 5). */
export const REQUEST_SETTLEMENTS = ['dispatched', 'preDispatchRejected'] as const;

/**
 * Why a tool surface stage refused a model request: a check found a difference, the baseline does
 * not fit the capacity, a hook failed, or the core had no admission facts for the session's key.
 */
export const SURFACE_REFUSALS = ['SURFACE_MISMATCH', 'CAPACITY_EXCEEDED', 'HOOK_FAILED', 'NO_ADMISSION_FACTS'] as const;

/** Which check refused: the early one (after the hooks) or the final one (immediately before dispatch). */
export const SURFACE_CHECKS = ['early', 'final'] as const;

/** Which field of the surface a mismatch is about. */
export const SURFACE_FIELDS = ['count', 'order', 'name', 'description', 'inputSchema', 'unadmitted'] as const;

/** A surface capacity's budget: tools, or bytes of the JCS form of the logical tools. */
export const SURFACE_LIMITS = ['toolCountMax', 'surfaceBytesMax'] as const;

/** Where the world's extensions looked at a request: after the hook pipeline, or after the late stage. */
export const SURFACE_STAGES = ['hooks', 'late'] as const;

/**
 * The API shapes of black-box mode's model endpoint (`--model-endpoint`, docs/BLACK-BOX.md, LLM
 * hosts): OpenAI Chat Completions (`POST /v1/chat/completions`), OpenAI Responses
 * (`POST /v1/responses`), Anthropic Messages (`POST /v1/messages`).
 */
export const MODEL_APIS = ['openai.chat', 'openai.responses', 'anthropic.messages'] as const;

/** What the model endpoint answered a request with: one tool call, plain text (the end), or an error. */
export const MODEL_ANSWERS = ['tool_call', 'text', 'error'] as const;
