/**
 * The world as it really was, rebuilt from `src: "world"` events only (SPEC section 11): servers by
 * plan id, the identity each boot or rotation presented, each true revision with its per-audience
 * views, the audiences a client of the core opened a session as, every page served or refused
 * (grouped by scanId), the defects the plan generator planted, and what the planner was shown
 * (disclosures). For admission at call time (SPEC section 7): the trusted effect classes, every
 * policy change, the probes a correct core must admit, the human confirmations by plan, and every
 * call a server executed.
 *
 * `disconnected` excuses what a cut connection kept from happening (I19, I32); of `disclosure_refused`, only the audience asked about is indexed (for I12); of
 * `plan_made`, only the expected probes; of `policy_push`, only the delivered ones.
 * `core_failed` events are kept in order (CORE_FAILED), and so are `host_crashed` and
 * `host_restarted` (F18: I13 ends a scan its host died in; I14-I16 judge the boots).
 *
 * Workflow: `buildGroundTruth(events)` once per trace, then query. Lookups that take `beforeSeq`
 * only see events strictly earlier in the trace, so an invariant can ask "what was true when the
 * core published" without scanning the whole trace again. The model keeps references to the
 * caller's event objects and never mutates them.
 */
import { pushTo, setFirst } from './internal/multimap.ts';
import { planRef } from './internal/plan-ref.ts';
import { countBefore, latestBefore } from './internal/seq-search.ts';
import {
  asKnownEvent,
  type CallExecutedEvent,
  type CallRefusedByServerEvent,
  type DisconnectedEvent,
  type CallSentEvent,
  type ConfirmationEvent,
  type CoreFailedEvent,
  type DefectPlantedEvent,
  type DisclosureEvent,
  type EffectPolicyEvent,
  type HostCrashedEvent,
  type RollbackTriggeredEvent,
  type EmergencyDisabledEvent,
  type OperatorManifestEvent,
  type ContractChangedEvent,
  type PrimaryDownEvent,
  type ResultSentEvent,
  type DeprecationOrderedEvent,
  type AliasOrderedEvent,
  type LifecycleOrderedEvent,
  type HostRestartedEvent,
  type IdentityRotatedEvent,
  type ListenRequestedEvent,
  type NotificationDeliveredEvent,
  type PageRefusedEvent,
  type PageServedEvent,
  type PlanMadeEvent,
  type PolicyChangedEvent,
  type PolicyPushEvent,
  type PublishedPage,
  type RevisionEvent,
  type RoundEndEvent,
  type ServerUpEvent,
  type SessionOpenedEvent,
  type TraceEvent,
  type ViewTool,
} from './trace.ts';

/**
 * Trait prefixes that exempt a server from liveness (docs/TRACE.md `server_up`): cursor
 * misbehaviour, duplicate names, schema defects, a catalog over a whole-catalog limit (F23: the
 * core quarantines the whole key) and equivocation make convergence impossible by
 * design, so I12 does not demand it.
 */
export const DISQUALIFYING_TRAIT_PREFIXES: readonly string[] = ['F5', 'F6', 'F13', 'F23', 'EQUIV'];

/** One true revision of a server: from `t` on, `views` maps each audience to its tools in order. */
export interface TrueRevision {
  readonly server: string;
  readonly revision: number;
  readonly views: ReadonlyMap<string, readonly ViewTool[]>;
  readonly t: number;
  readonly seq: number;
}

/** An event from which on a server presents an identity: a (re)start or a rotation. */
export type IdentityChange = ServerUpEvent | IdentityRotatedEvent;

/** Everything the world logged about one server (plan id), each list in trace order. */
export class ServerModel {
  readonly boots: ServerUpEvent[] = [];
  /** Every `server_up` and `identity_rotated`, in trace order. */
  readonly identityChanges: IdentityChange[] = [];
  readonly revisions: TrueRevision[] = [];
  /** Audiences a client of the core connected as, in order of first session. */
  readonly sessionAudiences = new Set<string>();
  /**
   * Audiences the world's planners asked the core about (`disclosure` or `disclosure_refused`), in
   * order of first question: the world offered the core these keys, whether or not it connected.
   */
  readonly askedAudiences = new Set<string>();

  /**
   * Per descriptor digest, the first page (seq) that carried it to each audience, in order of
   * first page: what the server really handed to whom (I4 FOREIGN_TOOL).
   */
  readonly servedTo = new Map<string, Map<string, number>>();

  /**
   * Per audience, every `tools/list` request without a cursor the server answered (`page_served`
   * or `page_refused` with `cursorIn` null: the start of a fresh list, or a recheck), in trace
   * order (I18).
   */
  readonly freshListAnswers = new Map<string, Array<PageServedEvent | PageRefusedEvent>>();

  /**
   * Per audience, every `tools/list` request the server answered (`page_served` or
   * `page_refused`, with or without a cursor), in trace order: the walks the world served (I18,
   * I19), whatever the core says about its scans.
   */
  readonly listAnswers = new Map<string, Array<PageServedEvent | PageRefusedEvent>>();

  /** Per scanId the request carried (`_meta`), the seq of its first answer by this server. */
  readonly firstAnswerOfScan = new Map<string, number>();

  /** Every `disconnected` of a session of this server, in trace order (I19: a cut link excuses a late refresh). */
  readonly disconnects: DisconnectedEvent[] = [];

  /** Per audience, every `call_sent` to this server, in trace order (I18). */
  readonly callsSent = new Map<string, CallSentEvent[]>();

  constructor(readonly id: string) {}

  /** The seq of the first cursorless `tools/list` answer to `audience` after `afterSeq`, or Infinity. */
  firstFreshListAfter(audience: string, afterSeq: number): number {
    const answers = this.freshListAnswers.get(audience) ?? [];
    return answers[countBefore(answers, afterSeq + 1)]?.seq ?? Infinity;
  }

  /**
   * The seq of the answer that completed the first whole fresh list `audience` was served after
   * `afterSeq`, or Infinity. A fresh list starts with a cursorless request answered after
   * `afterSeq` and follows the cursors the server handed out from there (a page whose `cursorIn`
   * is a `cursorOut` of that walk), to a page with no next cursor; a refused page 1 also ends it
   * (the server answered the list, with an error, and there is nothing further to walk). Walks
   * begun before `afterSeq` never count, and neither does a walk a refusal cut after page 1.
   */
  firstWholeListAfter(audience: string, afterSeq: number): number {
    const answers = this.listAnswers.get(audience) ?? [];
    const open = new Set<string>();
    for (let index = countBefore(answers, afterSeq + 1); index < answers.length; index += 1) {
      const answer = answers[index] as PageServedEvent | PageRefusedEvent;
      const first = answer.cursorIn === null && !this.continuesWalkBefore(answer, afterSeq);
      if (!first && (answer.cursorIn === null || !open.has(walkRef(answer.scanId, answer.cursorIn)))) continue;
      if (answer.type === 'page_refused') {
        if (first) return answer.seq;
        continue;
      }
      if (answer.cursorOut === null) return answer.seq;
      open.add(walkRef(answer.scanId, answer.cursorOut));
    }
    return Infinity;
  }

  /**
   * The first cursorless `tools/list` answer to `audience` after `afterSeq` that begins a fresh
   * list (not the final recheck of a walk begun before), or null.
   */
  firstFreshListAnswerAfter(audience: string, afterSeq: number): PageServedEvent | PageRefusedEvent | null {
    const answers = this.freshListAnswers.get(audience) ?? [];
    for (let index = countBefore(answers, afterSeq + 1); index < answers.length; index += 1) {
      const answer = answers[index] as PageServedEvent | PageRefusedEvent;
      if (!this.continuesWalkBefore(answer, afterSeq)) return answer;
    }
    return null;
  }

  /**
   * Whether a request belongs to a walk the server was already serving at `seq`: its scanId (as
   * the request carried it on the wire) had an answer at or before `seq`. A cursorless request of
   * such a walk is its final recheck, not the start of a fresh list. Requests without a scanId
   * are each taken at their word (their cursors alone tie them to a walk).
   */
  continuesWalkBefore(answer: PageServedEvent | PageRefusedEvent, seq: number): boolean {
    if (answer.scanId === null) return false;
    const first = this.firstAnswerOfScan.get(answer.scanId);
    return first !== undefined && first <= seq;
  }

  /**
   * The walks the world was serving `audience` at `seq`: for every cursor a page before `seq`
   * handed out and a request after `seq` came back with (with the same scanId), the answer that
   * ended that walk (a page with no next cursor, or a refusal), or null for a walk that never
   * ended; and for every walk begun before `seq` whose final recheck (page 1 again, under the same
   * scanId) the world answered after it, that answer. A walk whose next cursor never came back is
   * not running (its client gave it up or it ended).
   */
  walksRunningAt(audience: string, seq: number): Array<PageServedEvent | PageRefusedEvent | null> {
    const answers = this.listAnswers.get(audience) ?? [];
    const split = countBefore(answers, seq);
    const handedOut = new Set<string>();
    for (const answer of answers.slice(0, split))
      if (answer.type === 'page_served' && answer.cursorOut !== null)
        handedOut.add(walkRef(answer.scanId, answer.cursorOut));
    const ends: Array<PageServedEvent | PageRefusedEvent | null> = [];
    const later = answers.slice(split);
    // A walk's final recheck (page 1 again, under the scanId of a walk the world began serving
    // before the delivery) still belongs to that walk: the core learns how it ended only then.
    const begunBefore = new Set(
      answers.slice(0, split).flatMap((answer) => (answer.scanId === null ? [] : [answer.scanId])),
    );
    for (const answer of later) {
      const continues = answer.cursorIn !== null && handedOut.has(walkRef(answer.scanId, answer.cursorIn));
      const recheck = answer.cursorIn === null && answer.scanId !== null && begunBefore.has(answer.scanId);
      if (!continues && !recheck) continue;
      if (recheck) {
        // A recheck reads page 1 alone: its answer is where the walk ended for the core.
        begunBefore.delete(answer.scanId ?? '');
        ends.push(answer);
        continue;
      }
      handedOut.delete(walkRef(answer.scanId, answer.cursorIn ?? ''));
      ends.push(walkEnd(later, answer));
    }
    return ends;
  }

  /**
   * The last `tools/list` answer (a page or a refusal) the server gave `audience` before `seq`, or
   * null when it answered none.
   */
  lastListAnswerBefore(audience: string, seq: number): PageServedEvent | PageRefusedEvent | null {
    const answers = this.listAnswers.get(audience) ?? [];
    return answers[countBefore(answers, seq) - 1] ?? null;
  }

  /** Records which audience a page carried each of its descriptor digests to. */
  recordServed(page: PageServedEvent): void {
    for (const digest of page.tools) {
      let audiences = this.servedTo.get(digest);
      if (audiences === undefined) this.servedTo.set(digest, (audiences = new Map()));
      if (!audiences.has(page.audience)) audiences.set(page.audience, page.seq);
    }
  }

  /**
   * For a digest the server never served to `audience` before `beforeSeq`, the first other
   * audience it served it to before then and that page's seq; null when `audience` got it (or
   * nobody did).
   */
  servedOnlyToOthers(digest: string, audience: string, beforeSeq: number): { audience: string; seq: number } | null {
    const audiences = this.servedTo.get(digest);
    if (audiences === undefined) return null;
    const own = audiences.get(audience);
    if (own !== undefined && own < beforeSeq) return null;
    for (const [other, seq] of audiences) if (other !== audience && seq < beforeSeq) return { audience: other, seq };
    return null;
  }

  /** The latest `server_up` strictly before `beforeSeq` (whether it was versioned), or null. */
  bootBefore(beforeSeq: number): ServerUpEvent | null {
    return latestBefore(this.boots, beforeSeq);
  }

  /** The most recent `server_up`, or null if the server never came up. */
  latestBoot(): ServerUpEvent | null {
    return this.boots[this.boots.length - 1] ?? null;
  }

  /**
   * The `server_up` or `identity_rotated` that set the identity the server presented just before
   * `beforeSeq` (its `identity` field), or null if the server had not come up yet.
   */
  identityBefore(beforeSeq: number): IdentityChange | null {
    return latestBefore(this.identityChanges, beforeSeq);
  }

  /** The most recent `revision` event: the server's final true catalog. */
  latestRevision(): TrueRevision | null {
    return this.revisions[this.revisions.length - 1] ?? null;
  }

  /**
   * Every revision event numbered `revision` that precedes `beforeSeq`. Normally at most one; an
   * equivocating server may log the same number with different views.
   */
  revisionsNumbered(revision: number, beforeSeq: number): TrueRevision[] {
    return this.revisions.filter((r) => r.revision === revision && r.seq < beforeSeq);
  }

  /** Whether any boot carried a trait whose name starts with one of `prefixes`. */
  everHadTrait(prefixes: readonly string[]): boolean {
    return this.boots.some((boot) => hasTraitPrefix(boot, prefixes));
  }
}

/** Whether one boot carries a trait whose name starts with one of `prefixes`. */
export function hasTraitPrefix(boot: ServerUpEvent, prefixes: readonly string[]): boolean {
  return boot.traits.some((trait) => prefixes.some((prefix) => trait.startsWith(prefix)));
}

/** Every `tools/list` request the world answered for one scanId, in trace order. */
export class ScanRequests {
  /** Served and refused requests together, in trace order. */
  readonly requests: Array<PageServedEvent | PageRefusedEvent> = [];
  /** Served pages whose `cursorIn` is null: page 1 and the final recheck. */
  readonly cursorless: PageServedEvent[] = [];
  /** Served pages by pageDigest: nearly unique already, so matching compares cursors only. */
  private readonly byDigest = new Map<string, PageServedEvent[]>();
  /** The first served page per (server, audience), in order of first page. */
  private readonly firstByRecipient = new Map<string, PageServedEvent>();

  /**
   * `scanId` is the scanId the requests carried (for a walk without one, a name of the walk);
   * `label` names the walk in evidence (`scan "<scanId>"` by default).
   */
  constructor(
    readonly scanId: string,
    readonly label = `scan "${scanId}"`,
  ) {}

  /** Records one answered request; served pages become matchable. */
  add(event: PageServedEvent | PageRefusedEvent): void {
    this.requests.push(event);
    if (event.type !== 'page_served') return;
    const recipient = JSON.stringify([event.server, event.audience]);
    if (!this.firstByRecipient.has(recipient)) this.firstByRecipient.set(recipient, event);
    if (event.cursorIn === null) this.cursorless.push(event);
    const list = this.byDigest.get(event.pageDigest);
    if (list === undefined) this.byDigest.set(event.pageDigest, [event]);
    else list.push(event);
  }

  /**
   * The earliest page of this scan (anywhere in the trace) that was served by another server than
   * `server` or to another audience than `audience`, or null when every page went to that pair.
   * Constant work per distinct recipient, of which a scan normally has one.
   */
  firstPageNotServedTo(server: string, audience: string): PageServedEvent | null {
    for (const page of this.firstByRecipient.values()) {
      if (page.server !== server || page.audience !== audience) return page;
    }
    return null;
  }

  /**
   * The earliest served page before `beforeSeq` with the same cursorIn, cursorOut and pageDigest
   * as `page`, or null. Earliest, because page 1 and its recheck can be byte-identical and the
   * recheck must be found after the match, not be the match.
   */
  firstMatch(page: PublishedPage, beforeSeq: number): PageServedEvent | null {
    for (const served of this.byDigest.get(page.pageDigest) ?? []) {
      if (served.seq >= beforeSeq) return null;
      if (served.cursorIn === page.cursorIn && served.cursorOut === page.cursorOut) return served;
    }
    return null;
  }
}

/**
 * Requests without a scanId, grouped into walks by cursor, per server and audience and connection
 * (a `session_opened` ends the waiting of the walks before it): a cursorless request begins a walk; a request with a cursor continues the oldest walk whose last answered
 * page handed out that cursor and has not been followed yet (a server hands the same cursor to
 * every walk at the same position, and a client follows each one once), or begins a walk of its
 * own when no walk is waiting on it (a cursor guessed, or kept from a walk it never finished). A
 * client that follows a loop of cursors requests one of them again inside one walk. Each walk is
 * a {@link ScanRequests} named `unlabelled-walk-N` and labelled `walk N without a scanId` (N from 1, in
 * order of first request, over the whole round).
 */
export class UnlabelledWalks {
  /** Every walk, in order of its first request. */
  readonly walks: ScanRequests[] = [];
  /** Per `[server, audience]`, per cursor handed out, the walks waiting to follow it, oldest first. */
  private readonly waiting = new Map<string, Map<string, ScanRequests[]>>();

  /** Attributes one answered request without a scanId to its walk. */
  add(event: PageServedEvent | PageRefusedEvent): void {
    const recipient = JSON.stringify([event.server, event.audience]);
    let byCursor = this.waiting.get(recipient);
    if (byCursor === undefined) this.waiting.set(recipient, (byCursor = new Map()));
    const walk = (event.cursorIn === null ? undefined : byCursor.get(event.cursorIn)?.shift()) ?? this.begin(event);
    walk.add(event);
    if (event.type !== 'page_served' || event.cursorOut === null) return;
    const queue = byCursor.get(event.cursorOut);
    if (queue === undefined) byCursor.set(event.cursorOut, [walk]);
    else queue.push(walk);
  }

  /**
   * A new connection of `server` for `audience` opened (`session_opened`): the walks waiting on a
   * cursor were the old connection's, and a request on the new one continues none of them (a host
   * that died or was cut mid-walk walks again from page 1; a cursor kept across the cut begins a
   * walk of its own).
   */
  sessionOpened(server: string, audience: string): void {
    this.waiting.delete(JSON.stringify([server, audience]));
  }

  private begin(event: PageServedEvent | PageRefusedEvent): ScanRequests {
    const number = this.walks.length + 1;
    const walk = new ScanRequests(`unlabelled-walk-${number}`, `walk ${number} without a scanId`);
    this.walks.push(walk);
    return walk;
  }
}

/** The ground-truth model of one round. */
export class GroundTruth {
  /** Servers by plan id, in order of first mention. */
  readonly servers = new Map<string, ServerModel>();
  /** Boots by the identity they presented, in trace order. */
  readonly bootsByIdentity = new Map<string, ServerUpEvent[]>();
  /** Requests by scanId; pages served without a scanId are not attributed to any scan. */
  readonly scans = new Map<string, ScanRequests>();
  /**
   * The walks of requests that carried no scanId (a core or client library that does not label
   * its walks), tied by cursor alone: see {@link UnlabelledWalks}. I13 judges them as it judges
   * scans, so a core cannot escape the cursor rules by sending no scanId.
   */
  readonly unlabelledWalks = new UnlabelledWalks();
  /** Planted defects by descriptor digest; the first label wins if a digest is labelled twice. */
  readonly defects = new Map<string, DefectPlantedEvent>();
  /** Every `disclosure`, in trace order. */
  readonly disclosures: DisclosureEvent[] = [];
  /** Every `notification_delivered`, in trace order (I18, I19). */
  readonly notificationDeliveries: NotificationDeliveredEvent[] = [];
  /**
   * Per session, every descriptor digest a disclosure showed it, with the seq of the first such
   * disclosure (I9: "was this digest shown to this session before seq s" is one lookup).
   */
  readonly firstShownToSession = new Map<string, Map<string, number>>();
  /** The round's end, or null for a truncated trace. */
  roundEnd: RoundEndEvent | null = null;
  /**
   * Trusted effect classes by tool name, from the first `effect_policy` (the format writes one);
   * see `effectClassOf`.
   */
  readonly effectClasses = new Map<string, string>();
  /** Every `policy_changed`, in trace order. */
  readonly policyChanges: PolicyChangedEvent[] = [];
  /**
   * Probes ground truth says a correct core must admit (`plan_made` with kind `probe` and
   * `expectAdmit` true), by the plan's catalog key, each list in trace order.
   */
  readonly expectedProbesByKey = new Map<string, PlanMadeEvent[]>();
  /** The first `confirmation` per plan (`planRef(session, planId)`). */
  readonly confirmations = new Map<string, ConfirmationEvent>();
  /** Every `call_executed`, in trace order. */
  readonly callsExecuted: CallExecutedEvent[] = [];
  /** Every `call_refused_by_server`, in trace order: calls that reached a server and were not run (I9). */
  readonly callsRefused: CallRefusedByServerEvent[] = [];
  /** Every `core_failed`, in trace order. */
  readonly coreFailures: CoreFailedEvent[] = [];
  /** Every `rollback_triggered` (F19), in trace order. */
  readonly rollbackTriggers: RollbackTriggeredEvent[] = [];
  /** Every `emergency_disabled` (F26), in trace order. */
  readonly emergencyDisables: EmergencyDisabledEvent[] = [];
  /** Every `deprecation_ordered` (F31), in trace order. */
  readonly deprecations: DeprecationOrderedEvent[] = [];
  /** Every `alias_ordered` (F34), in trace order. */
  readonly aliasOrders: AliasOrderedEvent[] = [];
  /** Every `lifecycle_ordered` (F35), in trace order. */
  readonly lifecycleOrders: LifecycleOrderedEvent[] = [];
  /** Every `operator_manifest` (F32): the servers the operator described to the core, in trace order. */
  readonly operatorManifests: OperatorManifestEvent[] = [];
  /** Every `contract_changed` (F36): contracts a server started listing, with their true classes, in trace order. */
  readonly contractChanges: ContractChangedEvent[] = [];
  /** Every `plan_made`, by `planRef(session, planId)` (the first if a plan id repeats): what each run pinned. */
  readonly plans = new Map<string, PlanMadeEvent>();
  /** Every `primary_down` (F37): outages of a server's primary, with its backup's contract, in trace order. */
  readonly primaryDowns: PrimaryDownEvent[] = [];
  /** Every `result_sent` (F33): structured results the servers answered executed calls with, in trace order. */
  readonly resultsSent: ResultSentEvent[] = [];
  /** Every `host_crashed` (F18), in trace order. */
  readonly hostCrashes: HostCrashedEvent[] = [];
  /** Every `host_restarted` (F18), in trace order. */
  readonly hostRestarts: HostRestartedEvent[] = [];
  /** Every `session_opened`, in trace order (I19 after a host restart, I32). */
  readonly sessionOpens: SessionOpenedEvent[] = [];
  /** Every `listen_requested` (MCP 2026-07-28), in trace order (I32). */
  readonly listenRequests: ListenRequestedEvent[] = [];
  /** The first `call_executed` per leaseId (calls without a lease are not indexed here). */
  readonly firstExecutionByLeaseId = new Map<string, CallExecutedEvent>();
  /** The first `call_refused_by_server` per leaseId (refusals without a lease are not indexed). */
  readonly firstRefusalByLeaseId = new Map<string, CallRefusedByServerEvent>();
  /** The first `policy_changed` that set each (audience, epoch), by `epochRef(audience, epoch)`. */
  readonly epochSetBy = new Map<string, PolicyChangedEvent>();
  /** The first delivered `policy_push` of each (audience, epoch), by `epochRef(audience, epoch)`. */
  readonly deliveredPushOf = new Map<string, PolicyPushEvent>();
  private effectPolicySeen = false;

  /** The trusted effect class of a tool name; a tool the policy does not list is WRITE. */
  effectClassOf(toolName: string): string {
    return this.effectClasses.get(toolName) ?? 'WRITE';
  }

  /** Records the first `effect_policy`; later ones are ignored (the format writes one). */
  setEffectPolicy(event: EffectPolicyEvent): void {
    if (this.effectPolicySeen) return;
    this.effectPolicySeen = true;
    for (const [name, effectClass] of Object.entries(event.classes)) this.effectClasses.set(name, effectClass);
  }

  /**
   * The boot that presented `identity` most recently before `beforeSeq` (an identity is valid
   * from its `server_up` on), or null when no server had presented it yet.
   */
  bootForIdentity(identity: string, beforeSeq: number): ServerUpEvent | null {
    const boots = this.bootsByIdentity.get(identity) ?? [];
    let found: ServerUpEvent | null = null;
    for (const boot of boots) if (boot.seq < beforeSeq) found = boot;
    return found;
  }

  /** The server model for a plan id, created on first mention. */
  server(id: string): ServerModel {
    let model = this.servers.get(id);
    if (model === undefined) {
      model = new ServerModel(id);
      this.servers.set(id, model);
    }
    return model;
  }

  /** The requests of one scan, created on first mention. */
  scan(scanId: string): ScanRequests {
    let requests = this.scans.get(scanId);
    if (requests === undefined) {
      requests = new ScanRequests(scanId);
      this.scans.set(scanId, requests);
    }
    return requests;
  }
}

/**
 * Builds the ground-truth model from a trace's events in one pass. Core events are skipped; the
 * first `round_end` wins.
 */
export function buildGroundTruth(events: readonly TraceEvent[]): GroundTruth {
  const truth = new GroundTruth();
  for (const raw of events) {
    const event = asKnownEvent(raw);
    if (event === null || event.src !== 'world') continue;
    switch (event.type) {
      case 'server_up':
        addBoot(truth, event);
        break;
      case 'revision':
        truth.server(event.server).revisions.push(toTrueRevision(event));
        break;
      case 'page_served':
      case 'page_refused':
        addRequest(truth, event);
        break;
      case 'session_opened':
        truth.server(event.server).sessionAudiences.add(event.audience);
        truth.unlabelledWalks.sessionOpened(event.server, event.audience);
        truth.sessionOpens.push(event);
        break;
      case 'disconnected':
        truth.server(event.server).disconnects.push(event);
        break;
      case 'listen_requested':
        truth.listenRequests.push(event);
        break;
      case 'identity_rotated':
        truth.server(event.server).identityChanges.push(event);
        break;
      case 'defect_planted':
        addDefect(truth, event);
        break;
      case 'disclosure':
        addDisclosure(truth, event);
        break;
      case 'notification_delivered':
        truth.notificationDeliveries.push(event);
        break;
      case 'disclosure_refused':
        truth.server(event.server).askedAudiences.add(event.audience);
        break;
      case 'core_failed':
        truth.coreFailures.push(event);
        break;
      case 'host_crashed':
        truth.hostCrashes.push(event);
        break;
      case 'rollback_triggered':
        truth.rollbackTriggers.push(event);
        break;
      case 'emergency_disabled':
        truth.emergencyDisables.push(event);
        break;
      case 'deprecation_ordered':
        truth.deprecations.push(event);
        break;
      case 'alias_ordered':
        truth.aliasOrders.push(event);
        break;
      case 'lifecycle_ordered':
        truth.lifecycleOrders.push(event);
        break;
      case 'operator_manifest':
        truth.operatorManifests.push(event);
        break;
      case 'contract_changed':
        truth.contractChanges.push(event);
        break;
      case 'primary_down':
        truth.primaryDowns.push(event);
        break;
      case 'result_sent':
        truth.resultsSent.push(event);
        break;
      case 'host_restarted':
        truth.hostRestarts.push(event);
        break;
      case 'round_end':
        truth.roundEnd ??= event;
        break;
      case 'effect_policy':
        truth.setEffectPolicy(event);
        break;
      case 'policy_changed':
        addPolicyChange(truth, event);
        break;
      case 'policy_push':
        if (event.delivered) setFirst(truth.deliveredPushOf, epochRef(event.audience, event.epoch), event);
        break;
      case 'plan_made':
        addPlan(truth, event);
        break;
      case 'confirmation':
        addConfirmation(truth, event);
        break;
      case 'call_sent':
        pushTo(truth.server(event.server).callsSent, event.audience, event);
        break;
      case 'call_executed':
        addExecution(truth, event);
        break;
      case 'call_refused_by_server':
        addRefusal(truth, event);
        break;
      default:
        break;
    }
  }
  return truth;
}

/** One string naming (audience, policy epoch). */
export function epochRef(audience: string, epoch: number): string {
  return JSON.stringify([audience, epoch]);
}

function addPolicyChange(truth: GroundTruth, event: PolicyChangedEvent): void {
  truth.policyChanges.push(event);
  setFirst(truth.epochSetBy, epochRef(event.audience, event.epoch), event);
}

function addRefusal(truth: GroundTruth, event: CallRefusedByServerEvent): void {
  truth.callsRefused.push(event);
  if (event.leaseId !== null) setFirst(truth.firstRefusalByLeaseId, event.leaseId, event);
}

function addExecution(truth: GroundTruth, event: CallExecutedEvent): void {
  truth.callsExecuted.push(event);
  if (event.leaseId !== null) setFirst(truth.firstExecutionByLeaseId, event.leaseId, event);
}

function addDisclosure(truth: GroundTruth, event: DisclosureEvent): void {
  truth.disclosures.push(event);
  truth.server(event.server).askedAudiences.add(event.audience);
  let shown = truth.firstShownToSession.get(event.session);
  if (shown === undefined) {
    shown = new Map();
    truth.firstShownToSession.set(event.session, shown);
  }
  for (const digest of event.tools) if (!shown.has(digest)) shown.set(digest, event.seq);
}

function addPlan(truth: GroundTruth, event: PlanMadeEvent): void {
  const ref = planRef(event.session, event.planId);
  if (!truth.plans.has(ref)) truth.plans.set(ref, event);
  if (event.kind !== 'probe' || event.expectAdmit !== true) return;
  const probes = truth.expectedProbesByKey.get(event.key);
  if (probes === undefined) truth.expectedProbesByKey.set(event.key, [event]);
  else probes.push(event);
}

function addConfirmation(truth: GroundTruth, event: ConfirmationEvent): void {
  const ref = planRef(event.session, event.planId);
  if (!truth.confirmations.has(ref)) truth.confirmations.set(ref, event);
}

function addBoot(truth: GroundTruth, event: ServerUpEvent): void {
  const server = truth.server(event.server);
  server.boots.push(event);
  server.identityChanges.push(event);
  const boots = truth.bootsByIdentity.get(event.identity);
  if (boots === undefined) truth.bootsByIdentity.set(event.identity, [event]);
  else boots.push(event);
}

function addDefect(truth: GroundTruth, event: DefectPlantedEvent): void {
  if (!truth.defects.has(event.digest)) truth.defects.set(event.digest, event);
}

/**
 * One string naming a cursor within a walk: cursors are positions a server may hand out again to
 * another walk, so a page continues a walk only with the scanId its request carried (null for a
 * client that sends none: its cursors alone tie its pages together).
 */
function walkRef(scanId: string | null, cursor: string): string {
  return JSON.stringify([scanId, cursor]);
}

/** The answer that ended the walk `from` continues (itself included), following its cursors through `answers`; null if none did. */
function walkEnd(
  answers: ReadonlyArray<PageServedEvent | PageRefusedEvent>,
  from: PageServedEvent | PageRefusedEvent,
): PageServedEvent | PageRefusedEvent | null {
  let current = from;
  for (const answer of answers) {
    if (answer.seq < current.seq) continue;
    if (
      answer !== current &&
      (current.type === 'page_refused' || answer.cursorIn !== current.cursorOut || answer.scanId !== current.scanId)
    )
      continue;
    if (answer.type === 'page_refused' || answer.cursorOut === null) return answer;
    current = answer;
  }
  return null;
}

function addRequest(truth: GroundTruth, event: PageServedEvent | PageRefusedEvent): void {
  const server = truth.server(event.server);
  if (event.type === 'page_served') server.recordServed(event);
  if (event.cursorIn === null) pushTo(server.freshListAnswers, event.audience, event);
  pushTo(server.listAnswers, event.audience, event);
  if (event.scanId !== null && !server.firstAnswerOfScan.has(event.scanId))
    server.firstAnswerOfScan.set(event.scanId, event.seq);
  if (event.scanId !== null) truth.scan(event.scanId).add(event);
  else truth.unlabelledWalks.add(event);
}

/** Copies the views into a Map, so that an audience such as `__proto__` is an ordinary key. */
function toTrueRevision(event: RevisionEvent): TrueRevision {
  const views = new Map<string, readonly ViewTool[]>(Object.entries(event.views));
  return { server: event.server, revision: event.revision, views, t: event.t, seq: event.seq };
}
