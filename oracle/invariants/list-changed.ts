/**
 * The `list_changed` barrier and its refresh (SPEC section 7: "a `list_changed` notification
 * blocks the next outgoing call until the refresh settles"; issue 13). Judged for every
 * `notification_delivered` (the world's link handed a `tools/list_changed` to the core's client)
 * on the key `<identity>|<audience>` of the server's identity at that moment:
 *
 * - I18, the barrier: no call of that key leaves the core (`receipt`) at a later instant than the
 *   delivery before a scan of that key that started after the delivery has ended (`scan_ended`,
 *   whatever its state): a call chosen from the old list must wait for the fresh one, or be
 *   refused. A receipt at the very instant of the delivery is not judged (the client may not have
 *   handed the notification on yet). Code `CALL_BEFORE_FRESH_LIST`, anchored at the receipt, once per
 *   receipt (at the first delivery it should have waited for). This rule applies only to a core
 *   that reported at least one `scan_started` in the round: a core that reports no scan at all
 *   (every host under the lease convention `GatelessCalls`: the list-once and model-loop
 *   templates, every library peer) would otherwise fail it at every receipt after a delivery even
 *   when it really listed again on the wire before the call, so it is judged by the world's rule
 *   below alone (a core's observation may sharpen a verdict, never manufacture one from an
 *   absence, and never excuse one).
 *   The same barrier from the world's side alone, for every core whether or not it reports its
 *   scans and receipts (a core that says nothing, or whose scan events are not true, is judged
 *   all the same; issue 27): no `call_sent` to that server for that audience at a later instant
 *   than the delivery before the server has served a whole fresh list for that audience: page 1
 *   (a cursorless request that is not the final recheck of a walk begun before the delivery)
 *   answered after the delivery, then the pages its cursors lead to, to one with no next cursor
 *   (or page 1 refused: the server answered the list). Pages are tied by cursor and by the scanId
 *   the requests carried, since a server hands the same cursor to every walk at the same
 *   position. Code `CALL_BEFORE_RELIST`, anchored at the `call_sent`, once per call (at the first
 *   delivery it should have waited for); a call both rules catch (its receipt at the instant it
 *   was sent, for the same tool, server and audience) is reported by this one only.
 * - I19, the refresh is not starved, judged on the walks the world served: the server answers
 *   page 1 of a fresh list for that server and audience (as above: not a recheck of an older
 *   walk) within R plus one link latency (`latencyMsMax`: the world sees a request when it
 *   arrives) of the delivery, or of the end of the walks the world was serving that audience at
 *   the delivery plus one more latency (the core learns that end when the last answer reaches it:
 *   a page before it handed out a cursor that a request with the same scanId brought back after
 *   it, or a final recheck of page 1 under the scanId of a walk begun before it), or of the
 *   arrival at the core of the world's last answer to that audience before the delivery (one
 *   latency after it was served: the walk it belongs to was still running for the core), whichever
 *   is later (seed 1 rounds 464, 480 and 3864 of the 5,000-round gate, seed 2 round 1338 and seed 4
 *   round 797 of host-restart: a walk cut or rechecked across the delivery, its end read a latency
 *   later, then the retry back-off). R is the larger of the scenario's coalescing
 *   delay (`listChangedDelayMs`) and its retry back-off cap (`retryBackoffMsMax`): a refresher
 *   that coalesces a burst into one scan at a fixed delay after its first notification meets it,
 *   one whose debounce resets on every notification does not while the burst lasts. A core that
 *   never lists again fails it as well, and so does one that reports a scan the server never
 *   served. Not judged when the header lacks `listChangedDelayMs`, when the deadline falls after
 *   the round's end or after a walk running at the delivery never ended, when the server presents
 *   another identity by the deadline, when the world cut that audience's connection (`disconnected`,
 *   F15) after the delivery and by the deadline, or when a scan of that server and audience (under any
 *   identity it presented) ended QUARANTINED by then and the world served that scan pages (the
 *   loop stopped on purpose; the core's word alone excuses nothing). When the host died (F18)
 *   between the delivery and the deadline, or was down when the delivery was written (a notification
 *   handed to the dead boot's client at the crash instant), the fresh list is due R plus one link
 *   latency after the first session of that server and audience opened after the crash (not judged when none
 *   opened: liveness, I12, judges the catalog then). Code `REFRESH_STARVED`, anchored at the delivery.
 */
import { formatCatalogKey } from '../catalog-key.ts';
import type { ServerModel } from '../ground-truth.ts';
import type {
  HostCrashedEvent,
  NotificationDeliveredEvent,
  PageRefusedEvent,
  PageServedEvent,
  ReceiptEvent,
  ScanEndedEvent,
  ScanStartedEvent,
} from '../trace.ts';
import { shortKey } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** The scans of one key, each with its end (null while it never ended), in start order. */
interface KeyScan {
  readonly start: ScanStartedEvent;
  readonly end: ScanEndedEvent | null;
}

/** Checks I18 and I19 over every delivered `list_changed`. */
export function checkListChanged(context: CheckContext, findings: Findings): void {
  const scans = scansByKey(context);
  const receipts = receiptsByKey(context);
  // A call that left too early is reported once, at the first delivery it should have waited for.
  const reported = new Set<number>();
  // The calls the world's rule reported, by `sentRef`: the receipt rule does not report them again.
  const sentReported = new Map<string, number>();
  const sessions = sessionScansOf(context, scans);
  for (const delivery of context.truth.notificationDeliveries) {
    findings.count('I18');
    const server = context.truth.servers.get(delivery.server);
    if (server !== undefined) checkWorldBarrier(delivery, server, reported, sentReported, findings);
  }
  // The receipt rule reads the core's own scans: a core that reports none in the round is judged
  // by the world's rule alone (its silence may not manufacture a verdict; issue 27).
  const reportsScans = context.observed.scanStarts.size > 0;
  for (const delivery of context.truth.notificationDeliveries) {
    const key = keyAt(context, delivery);
    if (key === null) continue;
    if (reportsScans)
      checkBarrier(delivery, key, scans.get(key) ?? [], receipts.get(key) ?? [], reported, sentReported, findings);
    checkRefresh(context, delivery, key, sessions, findings);
  }
}

/** The key the delivery was for: the server's identity just before it, with its audience. */
function keyAt(context: CheckContext, delivery: NotificationDeliveredEvent): string | null {
  const change = context.truth.servers.get(delivery.server)?.identityBefore(delivery.seq) ?? null;
  return change === null ? null : formatCatalogKey(change.identity, delivery.audience);
}

function scansByKey(context: CheckContext): Map<string, KeyScan[]> {
  const out = new Map<string, KeyScan[]>();
  for (const start of context.observed.scanStarts.values()) {
    const end = context.observed.scanEnds.get(start.scanId) ?? null;
    const list = out.get(start.key) ?? [];
    list.push({ start, end: end !== null && end.seq > start.seq ? end : null });
    out.set(start.key, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.start.seq - b.start.seq);
  return out;
}

function receiptsByKey(context: CheckContext): Map<string, ReceiptEvent[]> {
  const out = new Map<string, ReceiptEvent[]>();
  for (const receipt of context.observed.receipts) {
    const list = out.get(receipt.key) ?? [];
    list.push(receipt);
    out.set(receipt.key, list);
  }
  return out;
}

/**
 * I18 on the core's account: every later receipt of the key needs a scan started after the delivery
 * and ended before it. Run only for a core that reported a scan in the round.
 */
function checkBarrier(
  delivery: NotificationDeliveredEvent,
  key: string,
  scans: readonly KeyScan[],
  receipts: readonly ReceiptEvent[],
  reported: Set<number>,
  sentReported: Map<string, number>,
  findings: Findings,
): void {
  const fresh = scans
    .filter((scan) => scan.start.seq > delivery.seq && scan.end !== null)
    .map((scan) => scan.end?.seq ?? Infinity);
  const freshEndSeq = Math.min(Infinity, ...fresh);
  for (const receipt of receipts) {
    if (receipt.seq < delivery.seq || receipt.t <= delivery.t || receipt.seq > freshEndSeq || reported.has(receipt.seq))
      continue;
    reported.add(receipt.seq);
    // The same call, already reported from the world's side (sent at the receipt's instant).
    const ref = sentRef(delivery.server, delivery.audience, receipt.t, receipt.tool);
    const already = sentReported.get(ref) ?? 0;
    if (already > 0) {
      sentReported.set(ref, already - 1);
      continue;
    }
    findings.add(
      'I18',
      receipt.seq,
      'CALL_BEFORE_FRESH_LIST',
      `call "${receipt.callId}" (${receipt.tool}) left the core at t=${receipt.t} (seq ${receipt.seq}), after a list_changed for ${shortKey(key)} reached the core at t=${delivery.t} (seq ${delivery.seq}) and before any scan started after it had ended`,
    );
  }
}

/**
 * I18 from the world alone: every call sent to the server for the audience after the delivery
 * needs a cursorless `tools/list` answered for that audience after the delivery and before it.
 */
function checkWorldBarrier(
  delivery: NotificationDeliveredEvent,
  server: ServerModel,
  reported: Set<number>,
  sentReported: Map<string, number>,
  findings: Findings,
): void {
  const calls = server.callsSent.get(delivery.audience);
  if (calls === undefined) return;
  const relistSeq = server.firstWholeListAfter(delivery.audience, delivery.seq);
  for (const call of calls) {
    if (call.seq < delivery.seq || call.t <= delivery.t) continue;
    if (call.seq > relistSeq) return;
    if (reported.has(call.seq)) continue;
    reported.add(call.seq);
    const ref = sentRef(delivery.server, delivery.audience, call.t, call.tool);
    sentReported.set(ref, (sentReported.get(ref) ?? 0) + 1);
    findings.add(
      'I18',
      call.seq,
      'CALL_BEFORE_RELIST',
      `call of ${call.tool || '(no name)'} to ${delivery.server} for ${delivery.audience} left the core at t=${call.t} (seq ${call.seq}), after a list_changed reached the core at t=${delivery.t} (seq ${delivery.seq}) and before the server had served a whole fresh tools/list for that audience${Number.isFinite(relistSeq) ? ` (first ended at seq ${relistSeq})` : ''}`,
    );
  }
}

/** One string naming a call by where it went, when it left and which tool it named. */
function sentRef(server: string, audience: string, t: number, tool: string): string {
  return JSON.stringify([server, audience, t, tool]);
}

/**
 * I19 from the world: the server must answer a cursorless `tools/list` for the audience (a fresh
 * list begins) within R of the delivery, or of the end of the walks the world was serving that
 * audience at the delivery, whichever is later.
 */
function checkRefresh(
  context: CheckContext,
  delivery: NotificationDeliveredEvent,
  key: string,
  sessions: SessionScans,
  findings: Findings,
): void {
  const delayMs = context.bounds.listChangedDelayMs;
  if (delayMs === undefined) return;
  const due = freshListDue(context, delivery, sessions, Math.max(delayMs, context.bounds.retryBackoffMsMax));
  if (due === null) return;
  findings.count('I19');
  const { next, deadline } = due;
  if (next !== null && next.t <= deadline) return;
  const seen =
    next === null
      ? 'the server answered no fresh tools/list for that audience after it'
      : `the server answered the next fresh tools/list for that audience at t=${next.t} (seq ${next.seq})`;
  findings.add(
    'I19',
    delivery.seq,
    'REFRESH_STARVED',
    `a list_changed for ${shortKey(key)} reached the core at t=${delivery.t} (seq ${delivery.seq}); a fresh list was due by t=${deadline}, but ${seen}`,
  );
}

/**
 * The instant from which a core owes a server a fresh list for an audience (a `list_changed`
 * delivered, I19; a change of the audience's view nothing pushed, I33): the world event, its
 * server and audience.
 */
export type FreshListAnchor = Pick<NotificationDeliveredEvent, 'seq' | 't' | 'server' | 'audience'>;

/** When a fresh list is due after an anchor, and the first one the server answered after it. */
export interface FreshListDue {
  /** Virtual ms by which the server must have answered page 1 of a fresh list. */
  readonly deadline: number;
  /** The server's first answer to page 1 of a fresh list after the anchor; null: none. */
  readonly next: PageServedEvent | PageRefusedEvent | null;
}

/**
 * The fresh list due after `anchor` when the core may wait `waitMs` (R) before it lists again:
 * due R plus one link latency after the anchor, or after the end of the walks the world was then
 * serving that audience plus a latency, or after the arrival at the core of the world's last
 * answer before it, whichever is later; across a host restart, R plus a latency after the first
 * session that opened after the crash. Null when not judged: no such server, a walk running at the
 * anchor never ended, the deadline falls after the round's end, or an excuse holds by then (a
 * rotation, a cut connection, a quarantine the world served pages to, no session after a crash).
 */
export function freshListDue(
  context: CheckContext,
  anchor: FreshListAnchor,
  sessions: SessionScans,
  waitMs: number,
): FreshListDue | null {
  const session = sessions(anchor.server, anchor.audience);
  if (session.server === undefined) return null;
  const runningEnds = session.server.walksRunningAt(anchor.audience, anchor.seq);
  if (runningEnds.some((end) => end === null)) return null;
  // The world sees a request when the server answers it: one link latency after it left the
  // core. A walk running at the anchor ends for the core one latency after the world's last
  // answer to it (the answer's way back), and only then does the wait begin.
  const latencyMs = context.bounds.latencyMsMax;
  const refreshMs = waitMs + latencyMs;
  // An answer the world gave that audience within one latency before the anchor reaches the
  // core after it: the walk it belongs to was still running for the core (seed 2 round 1338 and
  // seed 4 round 797 of host-restart: a recheck or a page 1 answered 1-6 ms before the delivery,
  // the walk cut by the notification when that answer arrived, then the back-off).
  const previous = session.server.lastListAnswerBefore(anchor.audience, anchor.seq);
  const arriving = previous === null ? anchor.t : Math.max(anchor.t, previous.t + latencyMs);
  const from = Math.max(arriving, ...runningEnds.map((end) => (end === null ? anchor.t : end.t + latencyMs)));
  const deadline = deadlineAcrossRestart(context, anchor, from + refreshMs, refreshMs);
  if (deadline === null || deadline > context.endT || excused(context, anchor, session, deadline)) return null;
  return { deadline, next: session.server.firstFreshListAnswerAfter(anchor.audience, anchor.seq) };
}

/**
 * The deadline of a refresh when the host died before it (F18): the boot that heard the
 * notification is gone, and the next one can walk the key only once its session to the server
 * for that audience is open again, so the refresh is due R after that opening (issue 36: seed 1
 * round 3879 of host-restart, a notification at 1674 due by 2078, the host down 2046-2074, the
 * session open and the scan started at 2081). Null when no session for it opened after the crash
 * (then liveness, I12, judges the catalog); `deadline` unchanged when no crash came before it.
 */
function deadlineAcrossRestart(
  context: CheckContext,
  delivery: FreshListAnchor,
  deadline: number,
  refreshMs: number,
): number | null {
  const crash = crashBefore(context, delivery) ?? crashAfter(context, delivery, deadline);
  if (crash === undefined) return deadline;
  const opened = context.truth.sessionOpens.find(
    (event) => event.seq > crash.seq && event.server === delivery.server && event.audience === delivery.audience,
  );
  return opened === undefined ? null : Math.max(deadline, opened.t + refreshMs);
}

/**
 * The crash the host was still down from when the delivery was written (no `host_restarted`
 * between them): a `list_changed` handed to the dead boot's client at the crash instant, before the
 * world cut its connections (seed 12 round 509 of `modern`: `host_crashed` seq 253 and the delivery
 * seq 254, both at t=1192). It reached no live core; the next boot owes the refresh as for a crash
 * after the delivery. Undefined when the host was up.
 */
function crashBefore(context: CheckContext, delivery: FreshListAnchor): HostCrashedEvent | undefined {
  const crash = context.truth.hostCrashes.findLast((event) => event.seq < delivery.seq);
  if (crash === undefined) return undefined;
  const restarted = context.truth.hostRestarts.some((event) => event.seq > crash.seq && event.seq < delivery.seq);
  return restarted ? undefined : crash;
}

/** The first crash after the delivery and by the deadline (the boot that heard it died before refreshing). */
function crashAfter(context: CheckContext, delivery: FreshListAnchor, deadline: number): HostCrashedEvent | undefined {
  return context.truth.hostCrashes.find((event) => event.seq > delivery.seq && event.t <= deadline);
}

/**
 * The scans of one server and audience under every identity the server presented: `scans` in
 * the order of the server's identity changes (each key once), each key's in start order. Empty
 * for a server the ground truth does not know.
 */
export interface SessionScanList {
  readonly server: ServerModel | undefined;
  readonly scans: readonly KeyScan[];
}

/** The {@link SessionScanList} of a server and audience, built once per check and shared by its deliveries. */
export type SessionScans = (server: string, audience: string) => SessionScanList;

/** The {@link SessionScans} of a trace: the core's scans of each server and audience, built on demand. */
export function sessionScansFor(context: CheckContext): SessionScans {
  return sessionScansOf(context, scansByKey(context));
}

function sessionScansOf(context: CheckContext, scansOf: ReadonlyMap<string, readonly KeyScan[]>): SessionScans {
  const built = new Map<string, Map<string, SessionScanList>>();
  return (serverName, audience) => {
    let ofServer = built.get(serverName);
    if (ofServer === undefined) built.set(serverName, (ofServer = new Map()));
    let list = ofServer.get(audience);
    if (list === undefined) {
      const server = context.truth.servers.get(serverName);
      const keys =
        server === undefined
          ? []
          : [...new Set(server.identityChanges.map((change) => formatCatalogKey(change.identity, audience)))];
      list = { server, scans: keys.flatMap((key) => scansOf.get(key) ?? []) };
      ofServer.set(audience, list);
    }
    return list;
  };
}

/**
 * A rotation by the deadline excuses a missing refresh, and so does a quarantine by then of this
 * server's loop for the audience under any identity it presented (a loop quarantined before a
 * rotation stays stopped under the new key too).
 */
function excused(
  context: CheckContext,
  delivery: FreshListAnchor,
  session: SessionScanList,
  deadline: number,
): boolean {
  const { server } = session;
  if (server === undefined) return false;
  if (server.identityChanges.some((change) => change.seq > delivery.seq && change.t <= deadline)) return true;
  // The world cut the session by then: the request may have been lost with the link.
  if (
    server.disconnects.some((cut) => cut.audience === delivery.audience && cut.seq > delivery.seq && cut.t <= deadline)
  )
    return true;
  // A quarantine is the core's word: believed only for a scan the world served pages to.
  return session.scans.some(
    (scan) => scan.end?.state === 'QUARANTINED' && scan.end.t <= deadline && context.truth.scans.has(scan.start.scanId),
  );
}
