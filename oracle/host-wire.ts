/**
 * The black-box judge (issue 28): a host in any language, seen only through the wire record the
 * world kept (`catsim.trace.v1` world events: `server_up`, `revision`, `session_opened`,
 * `page_served`, `page_refused`, `notification_delivered`, `call_sent`, `call_executed`,
 * `call_refused_by_server`, `disconnected`, `disclosure`, `round_end`). The host emits no
 * observation; its one self-report, a `disclosure`, is checked against the pages the world served
 * to that session, never believed.
 *
 * One oracle: the wire rules are the oracle's own invariant groups (issue 27), run on the record
 * read the way a black box must be read ({@link wireAsWorld}):
 * - I9 (`invariants/disclosed-calls.ts`): every call that reached a server, executed or refused,
 *   names a tool shown to that (server, audience) before it; a black-box host's model is shown
 *   what the host was served, so each page served stands for a showing of its tools;
 * - I18 (`invariants/list-changed.ts`, the world's barrier `CALL_BEFORE_RELIST`): no call after a
 *   delivered `list_changed` before a whole fresh list was served;
 * - I13 (`invariants/scan-termination.ts`): no walk sends a cursor twice or more than
 *   `pageCountMax` cursors; a black-box host carries no scanId, so its requests are tied into
 *   walks by cursor (`UnlabelledWalks` in ground-truth.ts, as for any core that labels nothing);
 * - I5 (`invariants/defect-admission.ts`): no planted defect is admitted, a host's admissions
 *   being what its wire shows ({@link wireDecisions}): the tools it disclosed, the calls it sent.
 * What only a black box needs is judged here, from the same ground truth: the host's disclosure
 * against the last whole walk served to it (I4), a call of a name that walk no longer held (I9
 * `TOOL_NO_LONGER_LISTED`), a `list_changed` never followed by a fresh list before the case
 * ended (I19, a SHOULD: the oracle's timed I19 needs a clock a real host does not run on), and a
 * session the world ended never opened anew (I12).
 *
 * The evidence of the call rules (I9's `UNDISCLOSED_TOOL_*`, I18) is reworded for a host seen on
 * the wire ({@link WireWords}: what the host sent, which pages it had read); their rules, codes and
 * anchors are the oracle's.
 *
 * A MUST broken is `FAILED`; a SHOULD is `NON-STRICT`; a case whose planned triggers never fired
 * (the host never walked far enough) is `UNDECIDED` unless something already failed. Like the
 * rest of the oracle it imports nothing from `src/` or `sim/` and reads no clock.
 */
import { buildCheckContext } from './check.ts';
import type { GroundTruth } from './ground-truth.ts';
import type { CheckContext } from './invariants/check-context.ts';
import { Findings } from './invariants/check-context.ts';
import { checkDecisions, type ToolDecision } from './invariants/defect-admission.ts';
import { checkDisclosedCalls } from './invariants/disclosed-calls.ts';
import { checkListChanged } from './invariants/list-changed.ts';
import { checkScanTermination } from './invariants/scan-termination.ts';
import type { PageServedEvent, Trace, TraceEvent, TraceEventOf } from './trace.ts';
import { sortViolations, type Violation } from './violation.ts';

/** How a host's case ends on the wire (HOST_FAILED and UNSUPPORTED come from the runner, not the wire). */
export type WireOutcome = 'OK' | 'NON-STRICT' | 'FAILED' | 'UNDECIDED';

/** A violation with its strength: `MUST` fails the case, `SHOULD` makes it NON-STRICT. */
export interface HostViolation extends Violation {
  readonly level: 'MUST' | 'SHOULD';
}

/** The judgement of one black-box case's wire record. */
export interface HostWireVerdict {
  readonly outcome: WireOutcome;
  /** Sorted as the oracle sorts (seq, invariant, code, evidence). */
  readonly violations: HostViolation[];
  /** Planned triggers (header `faults` entries starting `trigger:`) and how many fired (`revision` events after the first per server, `server_up` of a boot after 0, `disconnected`). */
  readonly triggersPlanned: number;
  readonly triggersFired: number;
}

/** The session name the stand-in showings of {@link wireAsWorld} carry (never a host's own disclosure's). */
const SERVED_SESSION = 'wire:served';

/** Judges one black-box trace. Pure: the same trace gives the same verdict. */
export function judgeHostWire(trace: Trace): HostWireVerdict {
  const context = buildCheckContext(trace.header, wireAsWorld(trace.events));
  const findings = new Findings(trace.header.round);
  checkDisclosedCalls(context, findings);
  checkListChanged(context, findings);
  checkScanTermination(context, findings);
  checkDecisions(context, wireDecisions(trace.events, context.truth), findings);
  const walks = wholeWalks(context.truth);
  checkSelfReports(trace.events, context.truth, walks, findings);
  checkNoLongerListed(context, walks, findings);
  checkRefreshed(context, findings);
  checkRenewed(context, findings);
  const words = new WireWords(trace.events, walks);
  const violations = sortViolations(findings.result().violations.map((v) => words.reword(v))).map(
    (v): HostViolation => ({ ...v, level: v.invariant === 'I19' ? 'SHOULD' : 'MUST' }),
  );
  const triggersPlanned = trace.header.faults.filter((fault) => fault.startsWith('trigger:')).length;
  const triggersFired = countFired(trace.events);
  const outcome: WireOutcome = violations.some((v) => v.level === 'MUST')
    ? 'FAILED'
    : triggersFired < triggersPlanned
      ? 'UNDECIDED'
      : violations.length > 0
        ? 'NON-STRICT'
        : 'OK';
  return { outcome, violations, triggersPlanned, triggersFired };
}

/**
 * The black-box record as the oracle's world events, seqs unchanged (violations anchor at the
 * record's own events):
 * - a `tools/list` answer keeps the scanId it carried, none for a black-box host: the ground
 *   truth ties such requests into walks by cursor itself (`UnlabelledWalks` in ground-truth.ts,
 *   the same rule `catsim run` judges a core that labels nothing by);
 * - each page served is followed by a `disclosure` of its tools to that (server, audience), with
 *   the page's seq: a black-box host's model can only have been shown what the host was served;
 * - the host's own `disclosure` events (its self-report) are left out: they are judged against
 *   the walks ({@link checkSelfReports}), and never count as a showing;
 * - an executed call carries no lease: the lease on it (`blackbox-N`) is the one catsim stamped
 *   so its server would run the call, never the host's.
 */
export function wireAsWorld(events: readonly TraceEvent[]): TraceEvent[] {
  const identities = new Map<string, string>();
  const out: TraceEvent[] = [];
  for (const event of events) {
    if (event.type === 'server_up') identities.set(event.server, event.identity);
    if (event.type === 'disclosure') continue;
    if (event.type === 'call_executed') {
      out.push({ ...event, leaseId: null });
      continue;
    }
    if (event.type !== 'page_served' && event.type !== 'page_refused') {
      out.push(event);
      continue;
    }
    out.push(event);
    if (event.type === 'page_served') out.push(showing(event, identities.get(event.server) ?? ''));
  }
  return out;
}

/** The stand-in showing of one served page's tools to its (server, audience). */
function showing(page: PageServedEvent, identity: string): TraceEvent {
  return {
    seq: page.seq,
    t: page.t,
    src: 'world',
    type: 'disclosure',
    session: SERVED_SESSION,
    server: page.server,
    audience: page.audience,
    key: `${identity}|${page.audience}`,
    generation: 0,
    snapshotDigest: page.pageDigest,
    tools: [...page.tools],
  } as TraceEvent;
}

/**
 * What a black-box host admitted, as the wire shows it: every tool of its own disclosures (shown to
 * a model), and every call of it that reached a server (executed: the digest the server ran;
 * refused: each descriptor of that name served to that server and audience before it).
 */
function* wireDecisions(events: readonly TraceEvent[], truth: GroundTruth): Iterable<ToolDecision> {
  const names = digestNames(truth);
  for (const event of events) {
    if (event.type === 'disclosure') {
      const catalog = event.tools.map((digest) => ({ name: names.get(digest) ?? '', descriptorDigest: digest }));
      for (const tool of catalog)
        yield {
          seq: event.seq,
          label: `the host's disclosure seq ${event.seq} of ${event.server} for ${event.audience}`,
          name: tool.name,
          descriptorDigest: tool.descriptorDigest,
          admitted: true,
          decision: 'the tool shown to a model',
          catalog,
        };
    } else if (event.type === 'call_executed' && event.descriptorDigest !== null) {
      yield sentDecision(event, event.descriptorDigest, 'the server executed it');
    } else if (event.type === 'call_refused_by_server') {
      const served = truth.servers.get(event.server)?.servedTo ?? new Map<string, Map<string, number>>();
      for (const [digest, to] of served)
        if (names.get(digest) === event.tool && (to.get(event.audience) ?? Infinity) < event.seq)
          yield sentDecision(event, digest, `the server refused it (${event.code})`);
    }
  }
}

/** A call that reached a server, as the host's decision to send it. */
function sentDecision(
  call: TraceEventOf<'call_executed'> | TraceEventOf<'call_refused_by_server'>,
  digest: string,
  outcome: string,
): ToolDecision {
  return {
    seq: call.seq,
    label: `the host's call seq ${call.seq} to ${call.server} for ${call.audience}`,
    name: call.tool,
    descriptorDigest: digest,
    admitted: true,
    decision: `the call sent (${outcome})`,
    catalog: [],
  };
}

/** One page of a walk: the seq of its answer, the revision it was served at, its tools. */
interface WalkPage {
  readonly seq: number;
  readonly revision: number;
  readonly tools: readonly string[];
}

/** One walk the world served: page 1 on, to a last page (or a refused page 1) when it is whole. */
interface Walk {
  readonly server: string;
  readonly audience: string;
  /** The seq of page 1's answer. */
  readonly startSeq: number;
  /** Its pages served, in order. */
  readonly pages: readonly WalkPage[];
}

/** A walk that ended: page 1 to a last page (or a refused page 1), with its tools in order. */
interface WholeWalk extends Walk {
  /** The seq of the answer that ended it. */
  readonly endSeq: number;
  /** Descriptor digests of its pages, in order. */
  readonly tools: readonly string[];
  /** Its pages were served at more than one revision (a change between its pages). */
  readonly mixed: boolean;
}

/**
 * Every walk of the mapped record: a scan's cursorless answer, then the answers to the cursors it
 * handed out, to one with no next cursor (or page 1 refused): whole walks, in the order they
 * ended, and the walks never finished (a later page refused, or no last page), in the order they began.
 */
function allWalks(truth: GroundTruth): { whole: WholeWalk[]; unfinished: Walk[] } {
  const whole: WholeWalk[] = [];
  const unfinished: Walk[] = [];
  for (const scan of [...truth.scans.values(), ...truth.unlabelledWalks.walks]) {
    const open = new Set<string>();
    const pages: WalkPage[] = [];
    let walk: { server: string; audience: string; startSeq: number } | null = null;
    let ended = false;
    for (const answer of scan.requests) {
      const first = answer.cursorIn === null;
      if (!first && !open.has(answer.cursorIn as string)) continue;
      walk ??= { server: answer.server, audience: answer.audience, startSeq: answer.seq };
      if (answer.type === 'page_served')
        pages.push({ seq: answer.seq, revision: answer.revision, tools: answer.tools });
      if (answer.type === 'page_refused' && !first) break;
      if (answer.type === 'page_refused' || answer.cursorOut === null) {
        const tools = pages.flatMap((page) => page.tools);
        const mixed = new Set(pages.map((page) => page.revision)).size > 1;
        whole.push({ ...walk, pages, endSeq: answer.seq, tools, mixed });
        ended = true;
        break;
      }
      open.add(answer.cursorOut);
    }
    if (!ended && walk !== null) unfinished.push({ ...walk, pages });
  }
  return { whole: whole.sort((a, b) => a.endSeq - b.endSeq), unfinished };
}

/** Every whole walk of the mapped record, in the order they ended (see {@link allWalks}). */
function wholeWalks(truth: GroundTruth): WholeWalk[] {
  return allWalks(truth).whole;
}

/**
 * The evidence of the oracle's call rules as a black box is read: what the host sent, where, and
 * which tools/list pages it had read of that server for that audience before it. The oracle words
 * them for a core (leases, receipts, disclosures, "left the core at t=..."); the rule, its code
 * and its anchor stay the oracle's, only the sentence is the wire's:
 * - I9 `UNDISCLOSED_TOOL_EXECUTED` / `UNDISCLOSED_TOOL_SENT` (anchored at the server's answer):
 *   the call, the server's answer, the pages read before it (none listing the name) and whether
 *   the walk the host was on was left with a next cursor it never sent;
 * - I18 `CALL_BEFORE_RELIST` (anchored at the `call_sent`): the call, the `list_changed` it did
 *   not wait for (the first delivery to that server and audience after which no whole list,
 *   begun after it, ended before the call), and the first such list if one ended later.
 * Any other violation, or one whose events the record does not hold, keeps the oracle's words.
 */
class WireWords {
  readonly #bySeq = new Map<number, TraceEvent>();

  constructor(
    private readonly events: readonly TraceEvent[],
    private readonly walks: readonly WholeWalk[],
  ) {
    for (const event of events) this.#bySeq.set(event.seq, event);
  }

  /** `violation` with wire evidence when it is one of the call rules, else as it is. */
  reword(violation: Violation): Violation {
    const event = violation.seq === null ? undefined : this.#bySeq.get(violation.seq);
    if (event === undefined) return violation;
    if (
      (violation.code === 'UNDISCLOSED_TOOL_EXECUTED' && event.type === 'call_executed') ||
      (violation.code === 'UNDISCLOSED_TOOL_SENT' && event.type === 'call_refused_by_server')
    )
      return { ...violation, evidence: this.#unlisted(event) };
    if (violation.code === 'CALL_BEFORE_RELIST' && event.type === 'call_sent') {
      const evidence = this.#beforeRelist(event);
      return evidence === null ? violation : { ...violation, evidence };
    }
    return violation;
  }

  #unlisted(call: TraceEventOf<'call_executed'> | TraceEventOf<'call_refused_by_server'>): string {
    const answer = call.type === 'call_executed' ? 'the server executed it' : `the server refused it, ${call.code}`;
    const head = `the host sent tools/call ${JSON.stringify(call.tool)} to ${call.server} for ${call.audience} (seq ${call.seq}; ${answer})`;
    const pages = this.events.filter(
      (event): event is PageServedEvent =>
        event.type === 'page_served' &&
        event.server === call.server &&
        event.audience === call.audience &&
        event.seq < call.seq,
    );
    if (pages.length === 0)
      return `${head}, but it had read no tools/list page of ${call.server} for ${call.audience} before it`;
    const last = pages.at(-1) as PageServedEvent;
    const followed = (cursor: string): boolean =>
      this.events.some(
        (event) =>
          (event.type === 'page_served' || event.type === 'page_refused') &&
          event.server === call.server &&
          event.audience === call.audience &&
          event.cursorIn === cursor &&
          event.seq > last.seq &&
          event.seq < call.seq,
      );
    const unfinished =
      last.cursorOut !== null && !followed(last.cursorOut)
        ? `; the page at seq ${last.seq} handed out a next cursor the host never sent`
        : '';
    return `${head}, but none of the ${pages.length} tools/list page${pages.length === 1 ? '' : 's'} it had read of ${call.server} for ${call.audience} before it (seq ${pages.map((page) => page.seq).join(', ')}) listed ${JSON.stringify(call.tool)}${unfinished}`;
  }

  #beforeRelist(call: TraceEventOf<'call_sent'>): string | null {
    const same = (walk: WholeWalk): boolean => walk.server === call.server && walk.audience === call.audience;
    const delivery = this.events.find(
      (event) =>
        event.type === 'notification_delivered' &&
        event.server === call.server &&
        event.audience === call.audience &&
        event.seq < call.seq &&
        !this.walks.some((walk) => same(walk) && walk.startSeq > event.seq && walk.endSeq < call.seq),
    );
    if (delivery === undefined) return null;
    const later = this.walks.find((walk) => same(walk) && walk.startSeq > delivery.seq && walk.endSeq > call.seq);
    return `the host sent tools/call ${JSON.stringify(call.tool)} to ${call.server} for ${call.audience} (seq ${call.seq}) after ${call.server}'s list_changed reached it (seq ${delivery.seq}) and before it had read a whole tools/list (page 1 to a last page) begun after that notification${later === undefined ? '' : ` (the first ended at seq ${later.endSeq}, after the call)`}`;
  }
}

/** The last whole walk of (server, audience) that ended before `seq`, or undefined. */
function lastWholeBefore(
  walks: readonly WholeWalk[],
  server: string,
  audience: string,
  seq: number,
): WholeWalk | undefined {
  return walks.findLast((walk) => walk.server === server && walk.audience === audience && walk.endSeq < seq);
}

/**
 * I4 for a black-box host's self-report (an adapter's `disclose` answer, or the `tools` of a model
 * request, which the model endpoint writes as a disclosure): a disclosure names only tools served
 * to that (server, audience), and exactly those of the last whole walk of one list version served
 * to it. In order, one finding per disclosure, anchored at it:
 * - `DISCLOSED_NEVER_SERVED`: a tool no page served to that session held;
 * - `DISCLOSED_WITHOUT_WHOLE_LIST`: no walk of that session had ever ended (page 1 to a last page);
 * - `DISCLOSED_HALF_WALK`: a tool that only a walk not finished when the disclosure was made (a
 *   last page not yet served, or a later page refused) had served since the last whole walk: the
 *   host showed tools from a list it had not read to its end;
 * - `DISCLOSED_MIXED_WALK`: the last whole walk's pages were served at different list versions
 *   (the list changed between its pages) and the disclosure shows its tools: the host put one
 *   list together from two versions, rather than walking the new version whole;
 * - `DISCLOSED_AFTER_CHANGE`: a `list_changed` was delivered to that session after the last whole
 *   walk, the host has sent that session a request since (a call, a page request), and it still
 *   shows the list it walked before the change: stale descriptors after a change it was told of;
 * - `DISCLOSURE_INCOMPLETE`, `DISCLOSURE_STALE`: fewer or other tools than the last whole walk.
 */
function checkSelfReports(
  events: readonly TraceEvent[],
  truth: GroundTruth,
  walks: readonly WholeWalk[],
  findings: Findings,
): void {
  const names = digestNames(truth);
  const name = (digest: string): string => names.get(digest) ?? `(never served, digest ${digest.slice(0, 12)})`;
  const { unfinished } = allWalks(truth);
  for (const event of events) {
    if (event.type !== 'disclosure') continue;
    findings.count('I4');
    const report: SelfReport = {
      event,
      truth,
      walks,
      unfinished,
      name,
      where: `${event.server} for ${event.audience}`,
    };
    const last = lastWholeBefore(walks, event.server, event.audience, event.seq);
    const found =
      neverServed(report) ??
      (last === undefined
        ? {
            code: 'DISCLOSED_WITHOUT_WHOLE_LIST',
            evidence: `the host disclosed ${event.tools.length} tools of ${report.where} (seq ${event.seq}) without ever having walked a whole list (page 1 to a last page) of that session`,
          }
        : (halfWalk(report, last) ?? mixedWalk(report, last) ?? afterChange(report, againstWhich(report, last))));
    if (found !== null) findings.add('I4', event.seq, found.code, found.evidence);
    else checkAgainstWalk(event, againstWhich(report, last as WholeWalk), truth, name, findings);
  }
}

/** One disclosure being judged, with what judging it needs. */
interface SelfReport {
  readonly event: TraceEventOf<'disclosure'>;
  readonly truth: GroundTruth;
  readonly walks: readonly WholeWalk[];
  readonly unfinished: readonly Walk[];
  /** A descriptor digest's tool name, or a placeholder naming the digest. */
  readonly name: (digest: string) => string;
  /** `server for audience`, for evidence. */
  readonly where: string;
}

/** An I4 finding: its code and evidence. */
interface SelfReportFinding {
  readonly code: string;
  readonly evidence: string;
}

/** Whether a walk is of the disclosure's (server, audience). */
function ofSession(report: SelfReport, walk: Walk): boolean {
  return walk.server === report.event.server && walk.audience === report.event.audience;
}

/** The last whole walk of one list version before the disclosure, else the last whole walk: what it is compared with. */
function againstWhich(report: SelfReport, last: WholeWalk): WholeWalk {
  if (!last.mixed) return last;
  return (
    report.walks.findLast((walk) => ofSession(report, walk) && walk.endSeq < report.event.seq && !walk.mixed) ?? last
  );
}

/** `DISCLOSED_NEVER_SERVED`: a tool no page served to that session held. */
function neverServed(report: SelfReport): SelfReportFinding | null {
  const { event, truth, name, where } = report;
  const server = truth.servers.get(event.server);
  const unserved = event.tools.filter(
    (digest) => (server?.servedTo.get(digest)?.get(event.audience) ?? Infinity) >= event.seq,
  );
  if (unserved.length === 0) return null;
  return {
    code: 'DISCLOSED_NEVER_SERVED',
    evidence: `the host disclosed ${unserved.map(name).join(', ')} of ${where} (seq ${event.seq}), which no page served to that session held`,
  };
}

/** `DISCLOSED_HALF_WALK`: a tool only a walk begun after the last whole one, not finished before the disclosure, served. */
function halfWalk(report: SelfReport, last: WholeWalk): SelfReportFinding | null {
  const { event, walks, unfinished, name, where } = report;
  const half = [...unfinished, ...walks.filter((walk) => walk.endSeq > event.seq)]
    .filter((walk) => ofSession(report, walk) && walk.startSeq > last.endSeq && walk.startSeq < event.seq)
    .map((walk) => ({ ...walk, pages: walk.pages.filter((page) => page.seq < event.seq) }));
  const servedBy = (walk: Walk, digest: string): boolean => walk.pages.some((page) => page.tools.includes(digest));
  const fromHalf = event.tools.filter(
    (digest) => !last.tools.includes(digest) && half.some((walk) => servedBy(walk, digest)),
  );
  const walk = half.find((candidate) => fromHalf.some((digest) => servedBy(candidate, digest)));
  if (walk === undefined) return null;
  return {
    code: 'DISCLOSED_HALF_WALK',
    evidence: `the host disclosed ${fromHalf.map(name).join(', ')} of ${where} (seq ${event.seq}) from a walk it had not finished (page 1 at seq ${walk.startSeq}, ${walk.pages.length} page${walk.pages.length === 1 ? '' : 's'} read, no last page before the disclosure)`,
  };
}

/** `DISCLOSED_MIXED_WALK`: the last whole walk's pages were served at different revisions, and the disclosure shows its tools. */
function mixedWalk(report: SelfReport, last: WholeWalk): SelfReportFinding | null {
  const { event, where } = report;
  const known = new Set(againstWhich(report, last) === last ? [] : againstWhich(report, last).tools);
  if (!last.mixed || !event.tools.some((digest) => last.tools.includes(digest) && !known.has(digest))) return null;
  const revisions = [...new Set(last.pages.map((page) => page.revision))];
  return {
    code: 'DISCLOSED_MIXED_WALK',
    evidence: `the host disclosed ${where} (seq ${event.seq}) from a walk whose pages were served at list revisions ${revisions.join(' and ')} (ended seq ${last.endSeq}): one list put together from two versions, and the host never walked the new version whole`,
  };
}

/**
 * `DISCLOSED_AFTER_CHANGE`: a `list_changed` was delivered to that session after the walk the
 * disclosure is compared with, and the host has sent that session a request since (a call, a page
 * request): it was told of the change and still shows the list from before it.
 */
function afterChange(report: SelfReport, whole: WholeWalk): SelfReportFinding | null {
  const { event, truth, where } = report;
  const change = truth.notificationDeliveries.find(
    (delivery) =>
      delivery.server === event.server &&
      delivery.audience === event.audience &&
      delivery.seq > whole.endSeq &&
      delivery.seq < event.seq,
  );
  if (change === undefined) return null;
  const server = truth.servers.get(event.server);
  const since = [...(server?.callsSent.get(event.audience) ?? []), ...(server?.listAnswers.get(event.audience) ?? [])]
    .map((request) => request.seq)
    .filter((seq) => seq > change.seq && seq < event.seq)
    .sort((a, b) => a - b)[0];
  if (since === undefined) return null;
  return {
    code: 'DISCLOSED_AFTER_CHANGE',
    evidence: `the host disclosed ${where} (seq ${event.seq}) as its whole list before the list_changed delivered at seq ${change.seq} (ended seq ${whole.endSeq}), though it had sent that session a request since (seq ${since}) and never walked the changed list whole`,
  };
}

/** A disclosure against the last whole walk: nothing of it missing (but its planted defects), nothing beyond it. */
function checkAgainstWalk(
  event: TraceEventOf<'disclosure'>,
  whole: WholeWalk,
  truth: GroundTruth,
  name: (digest: string) => string,
  findings: Findings,
): void {
  const where = `${event.server} for ${event.audience}`;
  const shown = new Set(event.tools);
  const expected = new Set(whole.tools);
  // A planted defect is left out on purpose (showing it is I5's DEFECT_ADMITTED).
  const missing = whole.tools.filter((digest) => !shown.has(digest) && !truth.defects.has(digest));
  const stale = event.tools.filter((digest) => !expected.has(digest));
  if (missing.length > 0)
    findings.add(
      'I4',
      event.seq,
      'DISCLOSURE_INCOMPLETE',
      `the host disclosed ${where} (seq ${event.seq}) without ${missing.map(name).join(', ')}, which the last whole list served to it held`,
    );
  if (stale.length > 0)
    findings.add(
      'I4',
      event.seq,
      'DISCLOSURE_STALE',
      `the host disclosed ${stale.map(name).join(', ')} of ${where} (seq ${event.seq}), which the last whole list served to it no longer held`,
    );
}

/** Descriptor digest -> tool name, from every revision the world logged. */
function digestNames(truth: GroundTruth): Map<string, string> {
  const names = new Map<string, string>();
  for (const server of truth.servers.values())
    for (const revision of server.revisions)
      for (const view of revision.views.values()) for (const tool of view) names.set(tool.digest, tool.name);
  return names;
}

/**
 * I9 past what the oracle's I9 asks: once a (server, audience) was served a whole list, a call
 * that reached the server (executed or refused) names a tool that list still held. A name never
 * served at all is the oracle's `UNDISCLOSED_TOOL_*`, not this. Code `TOOL_NO_LONGER_LISTED`,
 * anchored at the execution or refusal.
 */
function checkNoLongerListed(context: CheckContext, walks: readonly WholeWalk[], findings: Findings): void {
  const names = digestNames(context.truth);
  const calls = [...context.truth.callsExecuted, ...context.truth.callsRefused].sort((a, b) => a.seq - b.seq);
  for (const call of calls) {
    const whole = lastWholeBefore(walks, call.server, call.audience, call.seq);
    if (whole === undefined || whole.tools.some((digest) => names.get(digest) === call.tool)) continue;
    const server = context.truth.servers.get(call.server);
    const everServed = [...(server?.servedTo ?? [])].some(
      ([digest, to]) => names.get(digest) === call.tool && (to.get(call.audience) ?? Infinity) < call.seq,
    );
    if (!everServed) continue;
    findings.add(
      'I9',
      call.seq,
      'TOOL_NO_LONGER_LISTED',
      `call of ${JSON.stringify(call.tool)} to ${call.server} for ${call.audience} reached the server (seq ${call.seq}), but the last whole list served to that session (ended seq ${whole.endSeq}) no longer held that name`,
    );
  }
}

/**
 * I19 for a host on a real clock (a SHOULD): after a delivered `list_changed`, the server answers
 * a fresh list for that (server, audience) before the case ends (the oracle's own I19 gives a
 * deadline in virtual ms, which a black-box record does not keep). Code `REFRESH_MISSING`, once
 * per (server, audience), anchored at the first delivery left unanswered.
 */
function checkRefreshed(context: CheckContext, findings: Findings): void {
  const reported = new Set<string>();
  for (const delivery of context.truth.notificationDeliveries) {
    const session = `${delivery.server}|${delivery.audience}`;
    const server = context.truth.servers.get(delivery.server);
    if (reported.has(session) || server?.firstFreshListAnswerAfter(delivery.audience, delivery.seq) !== null) continue;
    reported.add(session);
    findings.add(
      'I19',
      delivery.seq,
      'REFRESH_MISSING',
      `a list_changed was delivered to ${session} (seq ${delivery.seq}) and the host never listed that session's tools again before the case ended`,
    );
  }
}

/**
 * I12 as far as a black box shows liveness: a session the world ended (`disconnected`: an expired
 * HTTP session, answered 404 from then on) is opened anew before the case ends, as a Streamable
 * HTTP client that gets 404 for its session MUST. Code `SESSION_NOT_RENEWED`, anchored at the end.
 */
function checkRenewed(context: CheckContext, findings: Findings): void {
  for (const server of context.truth.servers.values()) {
    const ended = new Map<string, number>();
    for (const cut of server.disconnects) {
      const reopened = context.truth.sessionOpens.some(
        (open) => open.server === server.id && open.audience === cut.audience && open.seq > cut.seq,
      );
      if (!reopened) ended.set(cut.audience, cut.seq);
    }
    for (const [audience, seq] of ended)
      findings.add(
        'I12',
        seq,
        'SESSION_NOT_RENEWED',
        `the world ended the HTTP session of ${server.id}|${audience} (seq ${seq}) and the host never initialized a new one before the case ended`,
      );
  }
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
