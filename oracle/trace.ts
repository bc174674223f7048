/**
 * The `catsim.trace.v1` format as the oracle reads it (docs/TRACE.md), declared here on purpose:
 * the oracle shares no types with `src/` or `sim/`, so a change there cannot silently change what
 * the oracle believes a trace says (SPEC section 11).
 *
 * Workflow: `parseCompleteTrace(text)` (a saved trace) or `parseTrace(text)` (one that may still be
 * growing) turns JSON lines into a `Trace`, throwing `TraceFormatError` on the first malformed
 * line; `checkTrace` (check.ts) then judges it.
 */
import { EVENT_SOURCE_BY_TYPE, describeEventProblem, describeHeaderProblem } from './internal/event-shapes.ts';

/** The schema name a header must carry; any other value is refused by `parseTrace`. */
export const TRACE_SCHEMA = 'catsim.trace.v1';

/**
 * Scenario bounds the oracle judges with (never the core's own limits). All values are
 * non-negative integers; `*Ms` fields are virtual milliseconds, `byteCountMax` is bytes.
 */
export interface TraceBounds {
  readonly pageCountMax: number;
  readonly byteCountMax: number;
  readonly scanTimeoutMs: number;
  readonly latencyMsMax: number;
  readonly tHealMs: number;
  readonly tEndMs: number;
  readonly generationTtlMs: number;
  readonly retryBackoffMsMax: number;
  /**
   * B of SPEC section 7: how long after a revocation the core may still admit the revoked tool
   * (I7). Older traces lack it; then I7 is not judged.
   */
  readonly revocationBoundMs?: number;
}

/** Line 1 of a trace: which round of which seed, scenario and core, with the scenario bounds. */
export interface TraceHeader {
  readonly type: 'header';
  readonly schema: typeof TRACE_SCHEMA;
  readonly seed: string;
  readonly round: number;
  readonly scenario: string;
  readonly core: string;
  readonly bounds: TraceBounds;
  /** Fault kinds enabled in this round (swarm testing), for reporting only. */
  readonly faults: readonly string[];
}

/** Who wrote an event: the world (ground truth) or the core (its observations). */
export type EventSource = 'world' | 'core';

/**
 * Fields every event starts with. `seq` counts events from 0 in trace order; `t` is virtual
 * milliseconds since the start of the round.
 */
export interface EventBase<S extends string, T extends string> {
  readonly seq: number;
  readonly t: number;
  readonly src: S;
  readonly type: T;
}

/** One tool of a revision's view for an audience, in list order. */
export interface ViewTool {
  readonly name: string;
  /** Descriptor digest (64 lowercase hex, SPEC section 4). */
  readonly digest: string;
}

/** World: a server (re)starts and presents `identity` from `t` on. */
export interface ServerUpEvent extends EventBase<'world', 'server_up'> {
  /** Plan id of the server, e.g. `"s0"`; stable across restarts and identity rotations. */
  readonly server: string;
  readonly identity: string;
  readonly boot: number;
  /** Whether pages carry `dev.catsim/catalogRevision`. */
  readonly versioned: boolean;
  /** Persistent traits such as `"F5:cycle"`; prefixes F5, F6, F13, EQUIV disqualify liveness. */
  readonly traits: readonly string[];
}

/** World: from `t` on, `views` is the server's true catalog per audience (`"tenant.role"`). */
export interface RevisionEvent extends EventBase<'world', 'revision'> {
  readonly server: string;
  readonly revision: number;
  readonly views: Readonly<Record<string, readonly ViewTool[]>>;
}

/** World: the server answered one `tools/list` request with a page. */
export interface PageServedEvent extends EventBase<'world', 'page_served'> {
  readonly server: string;
  readonly audience: string;
  readonly scanId: string | null;
  readonly cursorIn: string | null;
  readonly cursorOut: string | null;
  /** The true revision when the page was served. */
  readonly revision: number;
  /** The revision the page carried in `_meta`, or null when it carried none. */
  readonly reported: number | null;
  /** Descriptor digests in page order. */
  readonly tools: readonly string[];
  readonly pageDigest: string;
}

/** World: the server answered one `tools/list` request with a JSON-RPC error. */
export interface PageRefusedEvent extends EventBase<'world', 'page_refused'> {
  readonly server: string;
  readonly audience: string;
  readonly scanId: string | null;
  readonly cursorIn: string | null;
  /** JSON-RPC error code, e.g. -32602. */
  readonly code: number;
}

/** World: a client of the core connected as `audience`; liveness (I12) is owed to these pairs. */
export interface SessionOpenedEvent extends EventBase<'world', 'session_opened'> {
  readonly server: string;
  readonly audience: string;
  readonly identity: string;
}

/**
 * World: the plan generator planted a defective descriptor (for I5). Written once per digest at
 * round start, before the first `revision`.
 */
export interface DefectPlantedEvent extends EventBase<'world', 'defect_planted'> {
  readonly server: string;
  /** Descriptor digest of the defective tool (64 lowercase hex). */
  readonly digest: string;
  /**
   * The defect label: `UNKNOWN_DIALECT`, `UNRESOLVED_REF`, `REMOTE_REF`, `OVERSIZED_DESCRIPTOR`,
   * `NON_OBJECT_ROOT`, `BAD_NAME` or `DUPLICATE_NAME`; kept as a string for forward compatibility.
   */
  readonly defect: string;
}

/**
 * World: the server presents `identity` from `t` on (F7, certificate rotation). The same change
 * is also written as a `server_up` with the same boot.
 */
export interface IdentityRotatedEvent extends EventBase<'world', 'identity_rotated'> {
  readonly server: string;
  /** The new identity. */
  readonly identity: string;
  readonly boot: number;
}

/** World: the world cut the connection of the core's session as `audience` (F15). */
export interface DisconnectedEvent extends EventBase<'world', 'disconnected'> {
  readonly server: string;
  readonly audience: string;
}

/**
 * World: the simulator's planner asked the core for the catalog of `server` as `audience` and was
 * shown generation `generation` of catalog key `key`.
 */
export interface DisclosureEvent extends EventBase<'world', 'disclosure'> {
  readonly session: string;
  readonly server: string;
  readonly audience: string;
  readonly key: string;
  readonly generation: number;
  readonly snapshotDigest: string;
  /** Descriptor digests of the tools shown, in snapshot order. */
  readonly tools: readonly string[];
}

/** World: the planner asked and the core showed nothing. */
export interface DisclosureRefusedEvent extends EventBase<'world', 'disclosure_refused'> {
  readonly session: string;
  readonly server: string;
  readonly audience: string;
  /** `INCOMPLETE_DISCOVERY`, `CATALOG_EXPIRED` or `SERVER_DISABLED`; kept as a string. */
  readonly code: string;
}

/** World: the server emitted `notifications/tools/list_changed` (maybe dropped in transit). */
export interface NotificationSentEvent extends EventBase<'world', 'notification_sent'> {
  readonly server: string;
  readonly audience: string;
  readonly delivered: boolean;
}

/** World: `t` is T_heal; faults stop and the quiet tail begins. */
export type QuietEvent = EventBase<'world', 'quiet'>;

/** How a round ended; only a `settled` round is judged for liveness (I12). */
export type RoundStatus = 'settled' | 'undecided';

/** World: the round is over. */
export interface RoundEndEvent extends EventBase<'world', 'round_end'> {
  readonly status: RoundStatus;
  /** `"quiet"`, `"event_budget"` or `"horizon"`; kept as a string for forward compatibility. */
  readonly reason: string;
}

/** Core: a scan (walk) of catalog key `key` (`"<identity>|<tenant>.<role>"`) began. */
export interface ScanStartedEvent extends EventBase<'core', 'scan_started'> {
  readonly key: string;
  readonly scanId: string;
  readonly expectedGeneration: number;
  readonly policyEpoch: number;
}

/** Core: the core accepted one page reply. */
export interface PageReadEvent extends EventBase<'core', 'page_read'> {
  readonly scanId: string;
  readonly cursorIn: string | null;
  readonly cursorOut: string | null;
  readonly revision: number | null;
  readonly pageDigest: string;
  readonly toolCount: number;
  readonly recheck: boolean;
}

/** Core: a scan reached its end state (`reason` is `"OK"` for the two good states). */
export interface ScanEndedEvent extends EventBase<'core', 'scan_ended'> {
  readonly scanId: string;
  readonly state: string;
  readonly reason: string;
}

/** Status of a published generation. */
export type PublishStatus = 'ELIGIBLE' | 'UNVERSIONED_OBSERVATION';

/** One page of a published snapshot, in cursor order. */
export interface PublishedPage {
  readonly cursorIn: string | null;
  readonly cursorOut: string | null;
  readonly pageDigest: string;
}

/** One tool of a published snapshot; `verdict` is `"ok"` or a quarantine reason. */
export interface PublishedTool {
  readonly name: string;
  readonly descriptorDigest: string;
  readonly verdict: string;
}

/** Core: a CAS step moved the active pointer of `key` to `generation`. */
export interface PublishedEvent extends EventBase<'core', 'published'> {
  readonly key: string;
  readonly scanId: string;
  readonly generation: number;
  readonly status: PublishStatus;
  readonly sourceRevision: number | null;
  readonly snapshotDigest: string;
  readonly pageRoot: string;
  readonly pages: readonly PublishedPage[];
  readonly tools: readonly PublishedTool[];
  /** Virtual ms after which the generation may no longer serve. */
  readonly expiresAt: number;
  /**
   * The earlier generation whose content this publish republishes (a rollback; its `scanId` is
   * that generation's), or null. Older traces lack the field: read a missing one as null
   * (`rolledBackFromOf`).
   */
  readonly rolledBackFrom?: number | null;
}

/** A publish's `rolledBackFrom`, reading a missing field (older traces) as null. */
export function rolledBackFromOf(publish: PublishedEvent): number | null {
  return publish.rolledBackFrom ?? null;
}

/** Core: a publish lost the compare-and-swap race. */
export interface CasConflictEvent extends EventBase<'core', 'cas_conflict'> {
  readonly key: string;
  readonly scanId: string;
  readonly expectedGeneration: number;
  readonly actualGeneration: number;
}

/** Core: the registry refused a publish for a reason other than the CAS race. */
export interface PublishRefusedEvent extends EventBase<'core', 'publish_refused'> {
  readonly key: string;
  readonly scanId: string;
  /**
   * `NOT_PROVEN`, `REVISION_REGRESSION`, `POLICY_EPOCH_MOVED`, `IDENTITY_MOVED`, `TRUST_CHANGED`
   * or `CATALOG_LIMIT`; kept as a string for forward compatibility.
   */
  readonly code: string;
}

/** Core: a scan ended QUARANTINED; its refresh loop stops until an operator restarts it. */
export interface KeyQuarantinedEvent extends EventBase<'core', 'key_quarantined'> {
  readonly audience: string;
  readonly scanId: string;
  readonly reason: string;
}

/**
 * Core: no earlier generation qualified for a rollback, so `key` is DISABLED: nothing is admitted
 * or disclosed for it until a later `published`.
 */
export interface ServerDisabledEvent extends EventBase<'core', 'server_disabled'> {
  readonly key: string;
  readonly reason: string;
}

/**
 * World: the trusted effect classes the host's policy gives tools by name (`READ`,
 * `RESERVATION`, `WRITE`, `DESTRUCTIVE`; kept as strings), the same for every server. A tool not
 * listed is WRITE. Written once at round start.
 */
export interface EffectPolicyEvent extends EventBase<'world', 'effect_policy'> {
  readonly classes: Readonly<Record<string, string>>;
}

/**
 * World: the policy service moved an audience's epoch (F8). `grants` are the tool names the
 * audience holds from `t` on (sorted); `revoked` and `granted` are what this change removed and
 * added. Epoch 1 with the initial grants is written at round start.
 */
export interface PolicyChangedEvent extends EventBase<'world', 'policy_changed'> {
  readonly audience: string;
  readonly epoch: number;
  readonly grants: readonly string[];
  readonly revoked: readonly string[];
  readonly granted: readonly string[];
}

/** World: the policy service pushed an epoch to the core; `delivered` is false when it was lost. */
export interface PolicyPushEvent extends EventBase<'world', 'policy_push'> {
  readonly audience: string;
  readonly epoch: number;
  readonly delivered: boolean;
}

/**
 * World: a session's planner bound a call to a disclosed (or, for `guessed`, never listed) tool.
 * `kind` is `normal`, `stale` (F10), `guessed` (F17) or `probe` (quiet tail); kept as a string.
 */
export interface PlanMadeEvent extends EventBase<'world', 'plan_made'> {
  readonly session: string;
  readonly planId: string;
  readonly key: string;
  readonly generation: number;
  readonly snapshotDigest: string;
  readonly tool: string;
  readonly descriptorDigest: string;
  readonly kind: string;
  /**
   * Probes only (a boolean there, null for the other kinds): ground truth says a correct core must
   * admit this probe.
   */
  readonly expectAdmit: boolean | null;
}

/** World: a human confirmed plan `planId` of `session` (a non-READ tool of an unversioned source). */
export interface ConfirmationEvent extends EventBase<'world', 'confirmation'> {
  readonly session: string;
  readonly planId: string;
  readonly token: string;
}

/** World: a server executed a call (ground truth for I3, I6, I9). */
export interface CallExecutedEvent extends EventBase<'world', 'call_executed'> {
  readonly server: string;
  readonly audience: string;
  readonly tool: string;
  /** The tool's digest in the server's current view for the audience, or null if unknown. */
  readonly descriptorDigest: string | null;
  /** The lease the call carried, or null when it carried none. */
  readonly leaseId: string | null;
  /** The revision pin the call carried, or null. */
  readonly pin: number | null;
  /** The server's true revision when it executed the call. */
  readonly revision: number;
}

/** World: a server that checks pins and leases refused a call (`STALE_PIN`, `BAD_LEASE`, `UNKNOWN_TOOL`). */
export interface CallRefusedByServerEvent extends EventBase<'world', 'call_refused_by_server'> {
  readonly server: string;
  readonly audience: string;
  readonly tool: string;
  readonly leaseId: string | null;
  readonly code: string;
}

/**
 * World: the core failed to answer the world (docs/CORE-API.md): one of its calls threw, `call`
 * rejected, an answer was outside the core API, or a promise it left unhandled rejected. The
 * round goes on without that answer. Judged CORE_FAILED.
 */
export interface CoreFailedEvent extends EventBase<'world', 'core_failed'> {
  /**
   * `create`, `createClient`, `attach`, `disclose`, `call`, `pushPolicy`, `stop`, `scheduled` (a
   * callback the core scheduled) or `unhandledRejection`; kept as a string.
   */
  readonly during: string;
  /** `THREW`, `REJECTED`, `MALFORMED_ANSWER` or `UNHANDLED_REJECTION`; kept as a string. */
  readonly reason: string;
  /** The error's name and first message line, at most 200 characters. */
  readonly error: string;
}

/** Every ground-truth event type the oracle interprets. */
export type WorldEvent =
  | ServerUpEvent
  | RevisionEvent
  | PageServedEvent
  | PageRefusedEvent
  | SessionOpenedEvent
  | DefectPlantedEvent
  | IdentityRotatedEvent
  | DisconnectedEvent
  | DisclosureEvent
  | DisclosureRefusedEvent
  | NotificationSentEvent
  | QuietEvent
  | RoundEndEvent
  | EffectPolicyEvent
  | PolicyChangedEvent
  | PolicyPushEvent
  | PlanMadeEvent
  | ConfirmationEvent
  | CallExecutedEvent
  | CallRefusedByServerEvent
  | CoreFailedEvent;

/** Core: the core learned a new policy epoch for an audience, by `push` or `poll` (kept as a string). */
export interface PolicySeenEvent extends EventBase<'core', 'policy_seen'> {
  readonly audience: string;
  readonly epoch: number;
  readonly via: string;
}

/**
 * Core: the gate decided one call (SPEC section 7). `key` is the caller's catalog key;
 * `generation` and `descriptorDigest` are what the gate says it checked (the oracle rebuilds the
 * active generation itself); `decision` is `ADMIT` or a refusal code (kept as a string).
 */
export interface GateDecisionEvent extends EventBase<'core', 'gate_decision'> {
  readonly callId: string;
  readonly planId: string;
  readonly session: string;
  readonly key: string;
  readonly tool: string;
  readonly planDescriptorDigest: string;
  readonly generation: number | null;
  readonly descriptorDigest: string | null;
  readonly policyEpoch: number;
  readonly decision: string;
}

/** The snapshot that showed a receipt's tool to the session. */
export interface ReceiptDisclosure {
  readonly generation: number;
  readonly snapshotDigest: string;
}

/**
 * Core: a call left the core (exactly one per call sent). The three binding fields are typed
 * `unknown` on purpose: whether a receipt binds a generation, a descriptor digest and a policy
 * epoch is I6's judgement, so a receipt that fails to bind is a violation, not a malformed trace.
 */
export interface ReceiptEvent extends EventBase<'core', 'receipt'> {
  readonly callId: string;
  readonly leaseId: string;
  readonly key: string;
  readonly tool: string;
  readonly generation?: unknown;
  readonly descriptorDigest?: unknown;
  readonly policyEpoch?: unknown;
  readonly disclosure: ReceiptDisclosure;
  readonly pin: number | null;
}

/** Core: a call's result came back: `ok`, `error`, `refused` or `unknown` (kept as a string). */
export interface ReceiptOutcomeEvent extends EventBase<'core', 'receipt_outcome'> {
  readonly leaseId: string;
  readonly outcome: string;
}

/** Every observation event type the oracle interprets. */
export type CoreEvent =
  | ScanStartedEvent
  | PageReadEvent
  | ScanEndedEvent
  | PublishedEvent
  | CasConflictEvent
  | PublishRefusedEvent
  | KeyQuarantinedEvent
  | ServerDisabledEvent
  | PolicySeenEvent
  | GateDecisionEvent
  | ReceiptEvent
  | ReceiptOutcomeEvent;

/** An event type documented in docs/TRACE.md. */
export type KnownEvent = WorldEvent | CoreEvent;

/**
 * An event of a type this oracle does not know (or a known type under the wrong `src`). It is
 * kept in the trace, with all its fields, but never interpreted (forward compatibility).
 */
export interface UnknownEvent extends EventBase<string, string> {
  readonly [field: string]: unknown;
}

/** Any event line of a trace. Use `asKnownEvent` to narrow to the documented types. */
export type TraceEvent = KnownEvent | UnknownEvent;

/** A parsed trace: the header and the events in trace order (`events[i].seq === i`). */
export interface Trace {
  readonly header: TraceHeader;
  readonly events: readonly TraceEvent[];
}

/** The `src` each documented event type must carry (world: ground truth, core: observations). */
export const KNOWN_EVENT_SOURCES: ReadonlyMap<string, EventSource> = EVENT_SOURCE_BY_TYPE;

/**
 * Narrows an event to a documented type, or returns null for an unknown type. An event whose
 * `src` does not match its type's documented source is treated as unknown, so that a core can
 * never pass an observation off as ground truth.
 */
export function asKnownEvent(event: TraceEvent): KnownEvent | null {
  return KNOWN_EVENT_SOURCES.get(event.type) === event.src ? (event as KnownEvent) : null;
}

/**
 * A trace that does not follow docs/TRACE.md. `message` is `line N: problem` (1-based line
 * numbers, the header being line 1); `line` holds N.
 */
export class TraceFormatError extends Error {
  override readonly name = 'TraceFormatError';

  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
  }
}

/**
 * Parses a `catsim.trace.v1` trace from JSON lines (header first, one event per line; a single
 * trailing newline and CRLF line ends are accepted).
 *
 * Every documented field of the header and of known event types is type-checked, `seq` must count
 * 0, 1, 2, ... and `t` must never decrease, and at most one `round_end` may appear. Unknown event
 * types and unknown fields are kept but not interpreted.
 *
 * @throws TraceFormatError on the first malformed line, e.g. `line 7: event has no "type"`.
 */
export function parseTrace(text: string): Trace {
  const lines = splitLines(text);
  if (lines.length === 0) throw new TraceFormatError(1, 'missing header (the trace is empty)');
  const header = parseHeaderLine(lines[0] ?? '');
  const events: TraceEvent[] = [];
  const order = { lastT: 0, roundEndLine: 0 };
  for (let index = 1; index < lines.length; index += 1) {
    const event = parseEventLine(lines[index] ?? '', index + 1, events.length);
    checkOrder(event, index + 1, order);
    events.push(event);
  }
  return { header, events };
}

/**
 * Parses a saved trace like {@link parseTrace} and also requires it to be complete: its last
 * event, and only that one, is the `round_end` (the simulator writes it last, so a trace without
 * it was cut short and its verdict would judge half a round). `parseTrace` alone accepts a trace
 * still being written; whatever reads a trace file to judge it should use this one.
 *
 * @throws TraceFormatError as `parseTrace` does, and also, naming the line where the trace goes
 *   wrong, `line 74: truncated trace: no "round_end" event (the last event is seq 72)`,
 *   `line 1: truncated trace: no "round_end" event (the header is the only line)` or
 *   `line 76: "quiet" event after "round_end" (on line 75; round_end must be the last event)`.
 */
export function parseCompleteTrace(text: string): Trace {
  const trace = parseTrace(text);
  const { events } = trace;
  // parseTrace made seq count from 0, so the event at index i is on line i + 2.
  const endIndex = events.findIndex((event) => event.type === 'round_end');
  if (endIndex === -1) {
    const last = events.at(-1);
    const where = last === undefined ? 'the header is the only line' : `the last event is seq ${last.seq}`;
    throw new TraceFormatError(events.length + 1, `truncated trace: no "round_end" event (${where})`);
  }
  const after = events[endIndex + 1];
  if (after !== undefined) {
    throw new TraceFormatError(endIndex + 3, `"${after.type}" event after "round_end" (on line ${endIndex + 2}; round_end must be the last event)`);
  }
  return trace;
}

/**
 * Splits JSON lines, dropping the blank lines at the end (the trailing newline, and any blank
 * lines an editor or a shell added after it), so that `a\nb\n` and `a\nb\n\n` have two lines.
 * A blank line before the last event is still an error.
 */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  while (lines.length > 1 && lines[lines.length - 1]?.trim() === '') lines.pop();
  return lines;
}

/** Parses one line as a JSON object, translating JSON.parse failures into a line-numbered error. */
function parseObjectLine(line: string, lineNo: number): Record<string, unknown> {
  if (line.trim() === '') throw new TraceFormatError(lineNo, 'empty line');
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new TraceFormatError(lineNo, 'not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TraceFormatError(lineNo, 'expected a JSON object');
  }
  return value as Record<string, unknown>;
}

/** Parses and validates line 1. */
function parseHeaderLine(line: string): TraceHeader {
  const value = parseObjectLine(line, 1);
  if (value['type'] !== 'header') {
    const found = typeof value['type'] === 'string' ? `type "${value['type']}"` : 'no "type"';
    throw new TraceFormatError(1, `missing header (expected type "header", found ${found})`);
  }
  const problem = describeHeaderProblem(value);
  if (problem !== null) throw new TraceFormatError(1, problem);
  return value as unknown as TraceHeader;
}

/** Parses and validates one event line; `expectedSeq` is its index among events. */
function parseEventLine(line: string, lineNo: number, expectedSeq: number): TraceEvent {
  const value = parseObjectLine(line, lineNo);
  const problem = describeEventProblem(value);
  if (problem !== null) throw new TraceFormatError(lineNo, problem);
  const event = value as unknown as TraceEvent;
  if (event.seq !== expectedSeq) {
    throw new TraceFormatError(lineNo, `"seq" is ${event.seq}, expected ${expectedSeq}`);
  }
  return event;
}

/** Enforces non-decreasing virtual time and a single `round_end`, across lines. */
function checkOrder(
  event: TraceEvent,
  lineNo: number,
  order: { lastT: number; roundEndLine: number },
): void {
  if (event.t < order.lastT) {
    throw new TraceFormatError(lineNo, `"t" is ${event.t}, earlier than the previous event's ${order.lastT}`);
  }
  order.lastT = event.t;
  if (event.type !== 'round_end' || event.src !== 'world') return;
  if (order.roundEndLine !== 0) {
    throw new TraceFormatError(lineNo, `second "round_end" (the first is on line ${order.roundEndLine})`);
  }
  order.roundEndLine = lineNo;
}
