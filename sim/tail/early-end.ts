/**
 * The early end of a round (DESIGN.md section 10, "The early end"; issue 32): a round whose plan
 * says `earlyEnd` stops before T_end once its work is done, instead of running the whole quiet
 * tail. The decision is the world's, made from ground truth and its own bookkeeping; the oracle
 * judges the trace independently, as it judges any round.
 *
 * Order of calls: construct with the round's parts; hand `observe` to the recorder (it sees every
 * event as it is written); wrap every request the world makes of the core in `track`; `start` once
 * the round has begun. From then on a checkpoint runs every {@link CHECKPOINT_MS} from T_heal +
 * the settling time (below) and:
 * 1. does nothing while the world is busy: a world event is still queued (a message on a link, a
 *    fault's planned act, a probe about to be sent, a policy push or poll answer: anything but the
 *    core's own timers, which the world runs in the background), a request of the world's to the
 *    core has not settled (a call, a rollback, a model turn), a scan the core reported started has
 *    not ended, or a `list_changed` the core received has not been followed by a fresh page 1
 *    (served to a scan that was not open at the delivery) while I19's refresh window, counted
 *    from the delivery or the last answer to that audience, is still open;
 * 2. once the world is idle and every key the world owes a catalog has converged, sends every
 *    session's quiet-tail probe (the planners' `probe`), at most once;
 * 3. once the probes were sent and the world is idle again with every key still converged, stops
 *    the round (`World.stop`: `round_end` reason `done`).
 * A round whose keys never converge probes at `calls.probeAtMs` as a full-tail round does and runs
 * to T_end. The rule is generic: a fault added later keeps the round alive for as long as it has a
 * world event queued.
 *
 * Converged (the world's own reading of I12's rule, from the events it wrote and the core's
 * observations it recorded): for every server without a disqualifying trait and every audience
 * of its plan, the core's latest `published` for `"<the server's identity now>|<audience>"`
 * holds exactly the descriptor digests of that audience's view in the server's latest `revision`
 * (none when the view is missing), and no `server_disabled` of the key came after it.
 *
 * Settling time: probes are sent no earlier than T_heal + max(B, the policy poll interval + two
 * latency bounds), so a correct core has heard the last policy change of the faults (a lost push
 * included: polls are never lost) when it decides them.
 *
 * Fault model: none of its own; it injects nothing and draws nothing. What it gives up: a defect
 * that shows only later in a quiet tail (a core that misbehaves on its sixth identical rescan) is
 * seen only in the rounds that run the whole tail (`Scenario.fullTailFraction`).
 */
import type { RoundPlan } from '../plan/types.ts';
import type { World } from '../runtime/world.ts';
import type { TraceEvent } from '../trace/recorder.ts';

/** How often the watch looks whether the round's work is done, virtual ms. */
export const CHECKPOINT_MS = 50;

/** What the watch reads of one server: the parts of `SimCatalogServer` it needs. */
export interface WatchedServer {
  readonly plan: { readonly id: string; readonly audiences: readonly string[] };
  identity(): string;
  disqualified(): boolean;
}

/** The round's parts the watch reads and acts on. */
export interface EarlyEndParts {
  world: World;
  plan: RoundPlan;
  servers: readonly WatchedServer[];
  /** Sends every session's quiet-tail probe (the planners' `probe`). */
  probe: () => void;
  /** Whether the host is down (F18): a round never ends while it is. */
  hostDown: () => boolean;
}

/** A `list_changed` the core received and has not answered with a fresh list yet. */
interface OwedRelist {
  /** The scans the core reported open at the delivery: their rechecks are no fresh list. */
  readonly openAtDelivery: ReadonlySet<string>;
  /** The delivery, or the latest answer to that audience since (virtual ms). */
  sinceMs: number;
}

/** Watches one round with `earlyEnd` and ends it once its work is done. */
export class EarlyEnd {
  readonly #parts: EarlyEndParts;
  /** Per catalog key, the digests of its latest publish, or null when a `server_disabled` came after it. */
  readonly #published = new Map<string, ReadonlySet<string> | null>();
  /** Per server, per audience, the digests of the view in its latest `revision`. */
  readonly #finalViews = new Map<string, Map<string, readonly string[]>>();
  /** scanIds the core reported started and not ended. */
  readonly #openScans = new Set<string>();
  /** Per `"<server>\0<audience>"` a `list_changed` reached and no fresh list followed yet (the class comment). */
  readonly #relistsOwed = new Map<string, OwedRelist>();
  #inFlight = 0;
  /** Host boots that died so far (F18): a request handed to a dead boot never settles, and no longer counts. */
  #crashes = 0;
  #probed = false;

  constructor(parts: EarlyEndParts) {
    this.#parts = parts;
  }

  /** Reads one event of the trace as it is written (the recorder's listener). */
  readonly observe = (event: TraceEvent): void => {
    switch (event.type) {
      case 'revision':
        this.#finalViews.set(
          event.server,
          new Map(Object.entries(event.views).map(([audience, tools]) => [audience, tools.map((tool) => tool.digest)])),
        );
        return;
      case 'published':
        this.#published.set(event.key, new Set(event.tools.map((tool) => tool.descriptorDigest)));
        return;
      case 'server_disabled':
        this.#published.set(event.key, null);
        return;
      case 'scan_started':
        this.#openScans.add(event.scanId);
        return;
      case 'scan_ended':
        this.#openScans.delete(event.scanId);
        return;
      case 'host_crashed':
        // The dead boot's scans and requests end with it (I13): they are in flight no more.
        this.#openScans.clear();
        this.#inFlight = 0;
        this.#crashes++;
        return;
      case 'notification_delivered':
        this.#relistsOwed.set(`${event.server}\u0000${event.audience}`, {
          openAtDelivery: new Set(this.#openScans),
          sinceMs: event.t,
        });
        return;
      case 'page_served':
      case 'page_refused':
        this.#listAnswered(event.server, event.audience, event.cursorIn, event.scanId, event.t);
        return;
      case 'session_opened':
        this.#listAnswered(event.server, event.audience, 'session', null, event.t);
        return;
    }
  };

  /** Counts `request` in flight until it settles (a request of the world's to the core); returns it. */
  track<T>(request: Promise<T>): Promise<T> {
    this.#inFlight++;
    const crashes = this.#crashes;
    const settled = (): void => {
      if (this.#crashes === crashes) this.#inFlight--;
    };
    request.then(settled, settled);
    return request;
  }

  /** Schedules the first checkpoint and the fallback probe at `calls.probeAtMs` (both in the background). */
  start(): void {
    const { world, plan } = this.#parts;
    const { tHealMs, revocationBoundMs, latencyMsMax } = plan.bounds;
    const settleMs = Math.max(revocationBoundMs, plan.policy.pollIntervalMs + 2 * latencyMsMax);
    world.afterInBackground(Math.max(0, tHealMs + settleMs - world.now()), () => this.#checkpoint());
    world.afterInBackground(Math.max(0, plan.calls.probeAtMs - world.now()), () => this.#probeOnce());
  }

  #checkpoint(): void {
    const { world } = this.#parts;
    if (this.#idle() && this.#converged()) {
      if (this.#probed) return world.stop();
      this.#probeOnce();
    }
    world.afterInBackground(CHECKPOINT_MS, () => this.#checkpoint());
  }

  #probeOnce(): void {
    if (this.#probed) return;
    this.#probed = true;
    this.#parts.probe();
  }

  /** Nothing of the world's is queued or in flight, no scan is open, no relist is owed, the host is up. */
  #idle(): boolean {
    this.#dropExpiredRelists();
    return (
      this.#parts.world.pendingForeground === 0 &&
      this.#inFlight === 0 &&
      this.#openScans.size === 0 &&
      this.#relistsOwed.size === 0 &&
      !this.#parts.hostDown()
    );
  }

  /** Every key the world owes a catalog holds exactly its final view (the class comment). */
  #converged(): boolean {
    for (const server of this.#parts.servers) {
      if (server.disqualified()) continue;
      const views = this.#finalViews.get(server.plan.id);
      if (views === undefined) return false;
      for (const audience of server.plan.audiences) {
        const published = this.#published.get(`${server.identity()}|${audience}`);
        if (published === undefined || published === null) return false;
        const view = views.get(audience) ?? [];
        if (new Set(view).size !== published.size || !view.every((digest) => published.has(digest))) return false;
      }
    }
    return true;
  }

  /**
   * A page 1 (no cursor) of a scan not open at the delivery discharges that audience's owed
   * relist; any other answer to it (or a new session of it) moves the owed relist's clock on.
   */
  #listAnswered(server: string, audience: string, cursorIn: string | null, scanId: string | null, atMs: number): void {
    const slot = `${server}\u0000${audience}`;
    const owed = this.#relistsOwed.get(slot);
    if (owed === undefined) return;
    if (cursorIn === null && (scanId === null || !owed.openAtDelivery.has(scanId))) this.#relistsOwed.delete(slot);
    else owed.sinceMs = Math.max(owed.sinceMs, atMs);
  }

  /**
   * Drops the owed relists whose wait is over: I19's refresh window (max(coalescing delay,
   * back-off cap) + a latency bound) and two more latency bounds have passed since the delivery
   * or the last answer to that audience, so the oracle can judge the refresh whether it came or
   * not (a core that quarantined the key, or lost the server, never lists it again).
   */
  #dropExpiredRelists(): void {
    const { plan, world } = this.#parts;
    const { latencyMsMax, retryBackoffMsMax } = plan.bounds;
    const waitMs = Math.max(plan.timings.listChangedDelayMs, retryBackoffMsMax) + 3 * latencyMsMax;
    for (const [slot, owed] of this.#relistsOwed)
      if (world.now() >= owed.sinceMs + waitMs) this.#relistsOwed.delete(slot);
  }
}
