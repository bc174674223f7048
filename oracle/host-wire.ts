/**
 * The black-box judge (issue 28): a host in any language, seen only through the wire record the
 * world kept (`catsim.trace.v1` world events: `server_up`, `revision`, `session_opened`,
 * `page_served`, `page_refused`, `notification_delivered`, `call_sent`, `disconnected`,
 * `disclosure`, `round_end`). The host emits no observation; its one self-report, a `disclosure`,
 * is checked against the pages the world served to that session, never believed.
 *
 * The rules are the wire rules of issue 27: I9 from every call that reached a server, against the
 * names served to that session and the last whole list it walked; I18 from a whole fresh list
 * begun after each delivery; I13 from the walks the world served; I19 from the fresh lists the
 * world served. Besides: I12 as far as a black box shows liveness (a session the world ended is
 * opened anew), and I4, the disclosure check (what the host says it would show a model is what
 * the last whole list served to it holds). A MUST broken is `FAILED`; a SHOULD (re-list after a
 * `list_changed`) is `NON-STRICT`; a case whose planned triggers never fired (the host never
 * walked far enough) is `UNDECIDED` unless something already failed.
 *
 * Like the rest of the oracle it imports nothing from `src/` or `sim/` and reads no clock.
 */
import type { Trace, TraceEvent, TraceEventOf } from './trace.ts';
import type { Violation } from './violation.ts';

/** How a host's case ends on the wire (HOST_FAILED and UNSUPPORTED come from the runner, not the wire). */
export type WireOutcome = 'OK' | 'NON-STRICT' | 'FAILED' | 'UNDECIDED';

/** A violation with its strength: `MUST` fails the case, `SHOULD` makes it NON-STRICT. */
export interface HostViolation extends Violation {
  readonly level: 'MUST' | 'SHOULD';
}

/** The judgement of one black-box case's wire record. */
export interface HostWireVerdict {
  readonly outcome: WireOutcome;
  /** Sorted by seq. */
  readonly violations: HostViolation[];
  /** Planned triggers (header `faults` entries starting `trigger:`) and how many fired (`revision` events after the first per server, `server_up` of a boot after 0, `disconnected`). */
  readonly triggersPlanned: number;
  readonly triggersFired: number;
}

type Served = TraceEventOf<'page_served'> | TraceEventOf<'page_refused'>;

/** Judges one black-box trace. Pure: the same trace gives the same verdict. */
export function judgeHostWire(trace: Trace): HostWireVerdict {
  const round = trace.header.round;
  const found: HostViolation[] = [];
  const add = (
    invariant: Violation['invariant'],
    level: HostViolation['level'],
    seq: number | null,
    code: string,
    evidence: string,
  ): void => {
    found.push({ invariant, round, seq, code, evidence, level });
  };
  const names = digestNames(trace.events);
  judgeCalls(trace.events, names, add);
  judgeWalks(trace.events, trace.header.bounds.pageCountMax, add);
  judgeDisclosures(trace.events, names, add);
  judgeRefresh(trace.events, add);
  judgeRenewal(trace.events, add);
  found.sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const triggersPlanned = trace.header.faults.filter((fault) => fault.startsWith('trigger:')).length;
  const triggersFired = countFired(trace.events);
  const outcome: WireOutcome = found.some((v) => v.level === 'MUST')
    ? 'FAILED'
    : triggersFired < triggersPlanned
      ? 'UNDECIDED'
      : found.length > 0
        ? 'NON-STRICT'
        : 'OK';
  return { outcome, violations: found, triggersPlanned, triggersFired };
}

type Add = (
  invariant: Violation['invariant'],
  level: HostViolation['level'],
  seq: number | null,
  code: string,
  evidence: string,
) => void;

/** Descriptor digest -> tool name, from every `revision` the world logged. */
function digestNames(events: readonly TraceEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const event of events) {
    if (event.type !== 'revision') continue;
    for (const view of Object.values(event.views)) for (const tool of view) names.set(tool.digest, tool.name);
  }
  return names;
}

function sessionOf(event: { server: string; audience: string }): string {
  return `${event.server}|${event.audience}`;
}

/** Changes, restarts and expiries the world made: every `revision` after a server's first, every `server_up` of a boot after 0, every `disconnected`. */
function countFired(events: readonly TraceEvent[]): number {
  const seen = new Set<string>();
  let fired = 0;
  for (const event of events) {
    if ((event.type === 'server_up' && event.boot > 0) || event.type === 'disconnected') fired += 1;
    if (event.type !== 'revision') continue;
    if (seen.has(event.server)) fired += 1;
    seen.add(event.server);
  }
  return fired;
}

/**
 * I9: a `tools/call` that reached a server names a tool some page served to that session before
 * it listed, and, once the session has walked a whole list, one the last whole list still held.
 * I18: after a `notification_delivered`, no call leaves before a whole fresh list (page 1 to a
 * last page) was served to that session after the delivery.
 */
function judgeCalls(events: readonly TraceEvent[], names: Map<string, string>, add: Add): void {
  const listed = new Map<string, Set<string>>();
  const walks = new Map<string, { tracker: WalkTracker; tools: string[] }>();
  const lastWhole = new Map<string, { seq: number; names: Set<string> }>();
  const pendingRelist = new Map<string, { seq: number; walk: WalkTracker }>();
  for (const event of events) {
    if (event.type === 'page_served' || event.type === 'page_refused') {
      const session = sessionOf(event);
      if (event.cursorIn === null) walks.set(session, { tracker: new WalkTracker(), tools: [] });
      const walk = walks.get(session);
      if (event.type === 'page_served') {
        const set = listed.get(session) ?? new Set<string>();
        for (const digest of event.tools) set.add(names.get(digest) ?? digest);
        listed.set(session, set);
        walk?.tools.push(...event.tools.map((digest) => names.get(digest) ?? digest));
      }
      if (walk !== undefined && walk.tracker.step(event))
        lastWhole.set(session, { seq: event.seq, names: new Set(walk.tools) });
      const pending = pendingRelist.get(session);
      if (pending !== undefined && pending.walk.step(event)) pendingRelist.delete(session);
    } else if (event.type === 'notification_delivered') {
      // Each delivery needs a whole list begun after it: a walk already running does not count.
      pendingRelist.set(sessionOf(event), { seq: event.seq, walk: new WalkTracker() });
    } else if (event.type === 'call_sent') {
      const session = sessionOf(event);
      const whole = lastWhole.get(session);
      if (!(listed.get(session)?.has(event.tool) ?? false)) {
        add(
          'I9',
          'MUST',
          event.seq,
          'UNDISCLOSED_TOOL_SENT',
          `call of ${JSON.stringify(event.tool)} to ${event.server} for ${event.audience} reached the server (seq ${event.seq}), but no page served to that session had listed that name`,
        );
      } else if (whole !== undefined && !whole.names.has(event.tool)) {
        add(
          'I9',
          'MUST',
          event.seq,
          'TOOL_NO_LONGER_LISTED',
          `call of ${JSON.stringify(event.tool)} to ${event.server} for ${event.audience} reached the server (seq ${event.seq}), but the last whole list served to that session (ended seq ${whole.seq}) no longer held that name`,
        );
      }
      const pending = pendingRelist.get(session);
      if (pending !== undefined) {
        add(
          'I18',
          'MUST',
          event.seq,
          'CALL_BEFORE_RELIST',
          `call of ${JSON.stringify(event.tool)} to ${event.server} for ${event.audience} reached the server (seq ${event.seq}) after a list_changed was delivered (seq ${pending.seq}) and before the server had served a whole fresh tools/list for that session`,
        );
      }
    }
  }
}

/** Follows one fresh walk: a cursorless answer, then answers to the cursors it handed out, to a last page. */
class WalkTracker {
  readonly #open = new Set<string>();
  #started = false;

  /** Feeds one answer of the session; true once the walk reached a page without a next cursor (or a refused page 1). */
  step(answer: Served): boolean {
    const first = answer.cursorIn === null;
    if (first) {
      this.#started = true;
      this.#open.clear();
    } else if (!this.#started || !this.#open.has(answer.cursorIn)) {
      return false;
    }
    if (answer.type === 'page_refused') return first;
    if (answer.cursorOut === null) return true;
    this.#open.add(answer.cursorOut);
    return false;
  }
}

/**
 * I13: within one walk (a cursorless request and the cursor requests after it, per session) the
 * host never sends a cursor it already sent (a repeated cursor or a cycle the server handed out),
 * and never asks for more than `pageCountMax` pages.
 */
function judgeWalks(events: readonly TraceEvent[], pageCountMax: number, add: Add): void {
  const walks = new Map<
    string,
    { cursors: Set<string>; pages: number; loopSeen: boolean; longSeen: boolean; startSeq: number }
  >();
  for (const event of events) {
    if (event.type !== 'page_served' && event.type !== 'page_refused') continue;
    const session = sessionOf(event);
    if (event.cursorIn === null) {
      walks.set(session, { cursors: new Set(), pages: 1, loopSeen: false, longSeen: false, startSeq: event.seq });
      continue;
    }
    const walk = walks.get(session);
    if (walk === undefined) continue;
    walk.pages += 1;
    if (walk.cursors.has(event.cursorIn) && !walk.loopSeen) {
      walk.loopSeen = true;
      add(
        'I13',
        'MUST',
        event.seq,
        'CURSOR_REPEATED',
        `the walk of ${session} begun at seq ${walk.startSeq} sent cursor ${JSON.stringify(event.cursorIn)} a second time (seq ${event.seq}): it followed a repeated cursor or a cycle`,
      );
    }
    walk.cursors.add(event.cursorIn);
    if (walk.pages > pageCountMax && !walk.longSeen) {
      walk.longSeen = true;
      add(
        'I13',
        'MUST',
        event.seq,
        'WALK_TOO_LONG',
        `the walk of ${session} begun at seq ${walk.startSeq} asked for page ${walk.pages} (seq ${event.seq}), more than pageCountMax ${pageCountMax}`,
      );
    }
  }
}

/**
 * I4: a disclosure names only tools served to that session, and exactly the tools of the last
 * whole walk (page 1 to a last page) served to it before the disclosure; with no whole walk at
 * all, a disclosure of a partial walk is incomplete.
 */
function judgeDisclosures(events: readonly TraceEvent[], names: Map<string, string>, add: Add): void {
  const everServed = new Map<string, Set<string>>();
  const lastWhole = new Map<string, string[]>();
  const current = new Map<string, { tracker: WalkTracker; tools: string[] }>();
  for (const event of events) {
    if (event.type === 'page_served' || event.type === 'page_refused') {
      const session = sessionOf(event);
      if (event.cursorIn === null) current.set(session, { tracker: new WalkTracker(), tools: [] });
      const walk = current.get(session);
      if (event.type === 'page_served') {
        const set = everServed.get(session) ?? new Set<string>();
        for (const digest of event.tools) set.add(digest);
        everServed.set(session, set);
      }
      if (walk === undefined) continue;
      if (event.type === 'page_served') walk.tools.push(...event.tools);
      if (walk.tracker.step(event)) lastWhole.set(session, [...walk.tools]);
    } else if (event.type === 'disclosure') {
      judgeOneDisclosure(
        event,
        everServed.get(sessionOf(event)) ?? new Set(),
        lastWhole.get(sessionOf(event)),
        names,
        add,
      );
    }
  }
}

function judgeOneDisclosure(
  event: TraceEventOf<'disclosure'>,
  served: Set<string>,
  whole: string[] | undefined,
  names: Map<string, string>,
  add: Add,
): void {
  const where = `${event.server} for ${event.audience}`;
  const name = (digest: string): string => names.get(digest) ?? `(never served, digest ${digest.slice(0, 12)})`;
  const unserved = event.tools.filter((digest) => !served.has(digest));
  if (unserved.length > 0) {
    add(
      'I4',
      'MUST',
      event.seq,
      'DISCLOSED_NEVER_SERVED',
      `the host disclosed ${unserved.map(name).join(', ')} of ${where} (seq ${event.seq}), which no page served to that session held`,
    );
    return;
  }
  if (whole === undefined) {
    add(
      'I4',
      'MUST',
      event.seq,
      'DISCLOSED_WITHOUT_WHOLE_LIST',
      `the host disclosed ${event.tools.length} tools of ${where} (seq ${event.seq}) without ever having walked a whole list (page 1 to a last page) of that session`,
    );
    return;
  }
  const shown = new Set(event.tools);
  const expected = new Set(whole);
  const missing = whole.filter((digest) => !shown.has(digest));
  const stale = event.tools.filter((digest) => !expected.has(digest));
  if (missing.length > 0)
    add(
      'I4',
      'MUST',
      event.seq,
      'DISCLOSURE_INCOMPLETE',
      `the host disclosed ${where} (seq ${event.seq}) without ${missing.map(name).join(', ')}, which the last whole list served to it held`,
    );
  if (stale.length > 0)
    add(
      'I4',
      'MUST',
      event.seq,
      'DISCLOSURE_STALE',
      `the host disclosed ${stale.map(name).join(', ')} of ${where} (seq ${event.seq}), which the last whole list served to it no longer held`,
    );
}

/** I19 (a SHOULD for a black-box host): after a delivered `list_changed`, some fresh list of that session is served before the case ends. */
function judgeRefresh(events: readonly TraceEvent[], add: Add): void {
  const waiting = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'notification_delivered' && !waiting.has(sessionOf(event)))
      waiting.set(sessionOf(event), event.seq);
    if ((event.type === 'page_served' || event.type === 'page_refused') && event.cursorIn === null)
      waiting.delete(sessionOf(event));
  }
  for (const [session, seq] of waiting) {
    add(
      'I19',
      'SHOULD',
      seq,
      'REFRESH_MISSING',
      `a list_changed was delivered to ${session} (seq ${seq}) and the host never listed that session's tools again before the case ended`,
    );
  }
}

/**
 * A session the world ended (`disconnected`: an expired HTTP session, answered 404 from then on)
 * is opened anew before the case ends: the Streamable HTTP transport says a client that gets 404
 * for its session MUST initialize a new one, and every case that expires a session asks for the
 * server again afterwards.
 */
function judgeRenewal(events: readonly TraceEvent[], add: Add): void {
  const ended = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'disconnected') ended.set(sessionOf(event), event.seq);
    if (event.type === 'session_opened') ended.delete(sessionOf(event));
  }
  for (const [session, seq] of ended) {
    add(
      'I12',
      'MUST',
      seq,
      'SESSION_NOT_RENEWED',
      `the world ended the HTTP session of ${session} (seq ${seq}) and the host never initialized a new one before the case ended`,
    );
  }
}
