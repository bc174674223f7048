/**
 * The `catsim.trace.v1` format as the oracle reads it (docs/TRACE.md). The format is defined once,
 * in the neutral top-level module `contract/trace/` that the simulator, the cores and the oracle
 * all import: it is the contract between writers and readers, not code under test, so sharing it
 * lets no change in `src/` or `sim/` alter what the oracle believes a trace says (SPEC section 11;
 * the oracle still imports nothing from `src/` or `sim/`). This file gives the oracle's names for
 * the contract's types and parses trace text.
 *
 * Workflow: `parseCompleteTrace(text)` (a saved trace) or `parseTrace(text)` (one that may still be
 * growing) turns JSON lines into a `Trace`, throwing `TraceFormatError` on the first malformed
 * line (an unknown event type or field, a missing field or a field of the wrong type included:
 * nothing is skipped); `checkTrace` (check.ts) then judges it.
 */
import { eventProblem } from '../contract/trace/event-problem.ts';
import { EVENT_SOURCES } from '../contract/trace/event-sources.ts';
import { headerProblem } from '../contract/trace/header-problem.ts';
import type {
  EventSource,
  Trace,
  TraceEvent,
  TraceEventOf,
  TraceEventType,
  TraceHeader,
} from '../contract/trace/types.ts';

export { TRACE_SCHEMA } from '../contract/trace/schema.ts';
export type {
  CoreEvent,
  CoreObservation,
  EventBase,
  EventSource,
  Trace,
  TraceBounds,
  TraceEvent,
  TraceEventOf,
  TraceEventType,
  TraceHeader,
  WorldEvent,
} from '../contract/trace/types.ts';

/** Any event of the format (every event a parsed trace holds is of a documented type). */
export type KnownEvent = TraceEvent;

/** World: a server (re)starts and presents `identity` from `t` on. */
export type ServerUpEvent = TraceEventOf<'server_up'>;
/** World: from `t` on, `views` is the server's true catalog per audience (`"tenant.role"`). */
export type RevisionEvent = TraceEventOf<'revision'>;
/** World: the server answered one `tools/list` request with a page. */
export type PageServedEvent = TraceEventOf<'page_served'>;
/** World: the server answered one `tools/list` request with a JSON-RPC error. */
export type PageRefusedEvent = TraceEventOf<'page_refused'>;
/** World: a client of the core connected as `audience`; liveness (I12) is owed to these pairs. */
export type SessionOpenedEvent = TraceEventOf<'session_opened'>;
/** World: the plan generator planted a defective descriptor (for I5). */
export type DefectPlantedEvent = TraceEventOf<'defect_planted'>;
/** World: the server presents a new identity from `t` on (F7); also written as a `server_up`. */
export type IdentityRotatedEvent = TraceEventOf<'identity_rotated'>;
/** World: the world cut the connection of the core's session as `audience` (F15). */
export type DisconnectedEvent = TraceEventOf<'disconnected'>;
/** World: the planner asked the core for a catalog and was shown generation `generation` of `key`. */
export type DisclosureEvent = TraceEventOf<'disclosure'>;
/** World: the planner asked and the core showed nothing. */
export type DisclosureRefusedEvent = TraceEventOf<'disclosure_refused'>;
/** World: the server emitted `notifications/tools/list_changed` (maybe dropped in transit). */
export type NotificationSentEvent = TraceEventOf<'notification_sent'>;
/** World: a `list_changed` reached the core's client (I18, I19). */
export type NotificationDeliveredEvent = TraceEventOf<'notification_delivered'>;
/** World: the core's client sent `subscriptions/listen` on a connection of a modern-era session (I32). */
export type ListenRequestedEvent = TraceEventOf<'listen_requested'>;
/** World: `t` is T_heal; faults stop and the quiet tail begins. */
export type QuietEvent = TraceEventOf<'quiet'>;
/** World: the round is over. */
export type RoundEndEvent = TraceEventOf<'round_end'>;
/** World: the trusted effect classes the host's policy gives tools by name. */
export type EffectPolicyEvent = TraceEventOf<'effect_policy'>;
/** World: the policy service moved an audience's epoch (F8). */
export type PolicyChangedEvent = TraceEventOf<'policy_changed'>;
/** World: the policy service pushed an epoch to the core; `delivered` is false when it was lost. */
export type PolicyPushEvent = TraceEventOf<'policy_push'>;
/** World: a session's planner bound a call to a disclosed (or, for `guessed`, never listed) tool. */
export type PlanMadeEvent = TraceEventOf<'plan_made'>;
/** World: a human confirmed plan `planId` of `session`. */
export type ConfirmationEvent = TraceEventOf<'confirmation'>;
/** World: the core's client put a `tools/call` request on the wire (I18). */
export type CallSentEvent = TraceEventOf<'call_sent'>;
/** World: a server executed a call (ground truth for I3, I6, I9). */
export type CallExecutedEvent = TraceEventOf<'call_executed'>;
/** World: a server that checks pins and leases refused a call (ground truth for I9: the call reached it). */
export type CallRefusedByServerEvent = TraceEventOf<'call_refused_by_server'>;
/**
 * World: the core failed to answer the world (docs/CORE-API.md): one of its calls threw, `call`
 * rejected, an answer was outside the core API, or a promise it left unhandled rejected. The
 * round goes on without that answer. Judged CORE_FAILED.
 */
export type CoreFailedEvent = TraceEventOf<'core_failed'>;
/** World: the world killed the host process (F18); `cut` is the publish a crash inside its transaction cut. */
export type HostCrashedEvent = TraceEventOf<'host_crashed'>;
/** World: a new core instance started on the same disk (F18); its `committed` and `receipts` are diagnostics no invariant reads. */
export type HostRestartedEvent = TraceEventOf<'host_restarted'>;
/** Core: a scan (walk) of catalog key `key` (`"<identity>|<tenant>.<role>"`) began. */
export type ScanStartedEvent = TraceEventOf<'scan_started'>;
/** Core: the core accepted one page reply. */
export type PageReadEvent = TraceEventOf<'page_read'>;
/** Core: a scan reached its end state (`reason` is `"OK"` for the two good states). */
export type ScanEndedEvent = TraceEventOf<'scan_ended'>;
/** Core: a CAS step moved the active pointer of `key` to `generation`. */
export type PublishedEvent = TraceEventOf<'published'>;
/** Core: a publish lost the compare-and-swap race. */
export type CasConflictEvent = TraceEventOf<'cas_conflict'>;
/** Core: no earlier generation qualified for a rollback, so `key` is DISABLED. */
export type ServerDisabledEvent = TraceEventOf<'server_disabled'>;
/** World: an operator or monitor trigger asked the core to roll a key back (F19). */
export type RollbackTriggeredEvent = TraceEventOf<'rollback_triggered'>;
/** World: an operator emergency-disabled a tool (F26). */
export type EmergencyDisabledEvent = TraceEventOf<'emergency_disabled'>;
/** World: an operator deprecated the listed versions of a tool (F31). */
export type DeprecationOrderedEvent = TraceEventOf<'deprecation_ordered'>;
/** World: an operator flipped or rolled back a tool's production alias (F34). */
export type AliasOrderedEvent = TraceEventOf<'alias_ordered'>;
/** World: an operator moved a tool's versions to sunset or disabled, or ordered their removal (F35). */
export type LifecycleOrderedEvent = TraceEventOf<'lifecycle_ordered'>;
/** World: the operator's manifest file of a server was handed to the core (F32). */
export type OperatorManifestEvent = TraceEventOf<'operator_manifest'>;
/** World: a server listed another contract of a tool under a compatible-looking claim (F36). */
export type ContractChangedEvent = TraceEventOf<'contract_changed'>;
/** World: a server's primary endpoint became unreachable while its backup serves on (F37). */
export type PrimaryDownEvent = TraceEventOf<'primary_down'>;
/** World: a server answered an executed call with `structuredContent` under its tool's output schema (F33). */
export type ResultSentEvent = TraceEventOf<'result_sent'>;
/** Core: the core learned a new policy epoch for an audience. */
export type PolicySeenEvent = TraceEventOf<'policy_seen'>;
/** Core: the gate decided one call (SPEC section 7). */
export type GateDecisionEvent = TraceEventOf<'gate_decision'>;
/**
 * Core: a call left the core (exactly one per call sent). The three binding fields are typed
 * `unknown` on purpose: whether a receipt binds a generation, a descriptor digest and a policy
 * epoch is I6's judgement, so a receipt that fails to bind is a violation, not a malformed trace.
 */
export type ReceiptEvent = TraceEventOf<'receipt'>;
/** Core: a call's result came back. */
export type ReceiptOutcomeEvent = TraceEventOf<'receipt_outcome'>;

/** World: the core has no tool surface stage (F22's turns are not run). */
export type SurfaceUnsupportedEvent = TraceEventOf<'surface_unsupported'>;
/** World: a planner reserved a model request; its baseline is the world's own projection. */
export type ModelTurnEvent = TraceEventOf<'model_turn'>;
/** World: the request's tools after the hooks or after the late stage. */
export type RequestSurfaceEvent = TraceEventOf<'request_surface'>;
/** World: the core settled a reservation in the world's ledger. */
export type RequestSettledEvent = TraceEventOf<'request_settled'>;
/** World: the simulated model received a request. */
export type ModelReceivedEvent = TraceEventOf<'model_received'>;
/** World: the core's `modelTurn` finished. */
export type ModelTurnEndedEvent = TraceEventOf<'model_turn_ended'>;
/** One tool of a turn's baseline. */
export type BaselineTool = ModelTurnEvent['baseline'][number];
/** One tool as the world saw it on a request or at the model. */
export type SeenTool = ModelReceivedEvent['tools'][number];

/** One tool of a revision's view for an audience, in list order. */
export type ViewTool = RevisionEvent['views'][string][number];
/** Status of a published generation. */
export type PublishStatus = PublishedEvent['status'];
/** One page of a published snapshot, in cursor order. */
export type PublishedPage = PublishedEvent['pages'][number];
/** One tool of a published snapshot; `verdict` is `"ok"` or a quarantine reason. */
export type PublishedTool = PublishedEvent['tools'][number];
/** The snapshot that showed a receipt's tool to the session (null when none did). */
export type ReceiptDisclosure = NonNullable<ReceiptEvent['disclosure']>;
/** How a round ended; only a `settled` round is judged for liveness (I12). */
export type RoundStatus = RoundEndEvent['status'];

/** A publish's `rolledBackFrom`, reading a missing field (older traces) as null. */
export function rolledBackFromOf(publish: PublishedEvent): number | null {
  return publish.rolledBackFrom ?? null;
}

/** The `src` each documented event type must carry (world: ground truth, core: observations). */
export const KNOWN_EVENT_SOURCES: ReadonlyMap<TraceEventType, EventSource> = EVENT_SOURCES;

/**
 * The event if its `src` is its type's documented source, else null. A parsed trace never holds
 * such an event; this guards events handed over in memory (`checkEvents`), so that a core can
 * never pass an observation off as ground truth.
 */
export function asKnownEvent(event: TraceEvent): KnownEvent | null {
  return KNOWN_EVENT_SOURCES.get(event.type) === event.src ? event : null;
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
 * Every line must follow the contract (contract/trace/): the header and each event are checked
 * field by field, an unknown event type, an event under the other `src`, a missing field, a field
 * of the wrong type, a code outside its set and a field the contract does not list are all
 * refused; `seq` must count 0, 1, 2, ... and `t` must never decrease, and at most one `round_end`
 * may appear.
 *
 * @throws TraceFormatError on the first malformed line, e.g.
 *   `line 7: "page_read".cursorIn must be a string or null`.
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
    throw new TraceFormatError(
      endIndex + 3,
      `"${after.type}" event after "round_end" (on line ${endIndex + 2}; round_end must be the last event)`,
    );
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
  const problem = headerProblem(value);
  if (problem !== null) throw new TraceFormatError(1, problem);
  return value as unknown as TraceHeader;
}

/** Parses and validates one event line; `expectedSeq` is its index among events. */
function parseEventLine(line: string, lineNo: number, expectedSeq: number): TraceEvent {
  const value = parseObjectLine(line, lineNo);
  const problem = eventProblem(value);
  if (problem !== null) throw new TraceFormatError(lineNo, problem);
  const event = value as unknown as TraceEvent;
  if (event.seq !== expectedSeq) {
    throw new TraceFormatError(lineNo, `"seq" is ${event.seq}, expected ${expectedSeq}`);
  }
  return event;
}

/** Enforces non-decreasing virtual time and a single `round_end`, across lines. */
function checkOrder(event: TraceEvent, lineNo: number, order: { lastT: number; roundEndLine: number }): void {
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
