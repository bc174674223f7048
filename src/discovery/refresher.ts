/**
 * The refresh loop of one connection and audience class (SPEC sections 3 and 6).
 *
 * Order of calls: `start()` scans at once; afterwards a scan runs on a `tools/list_changed`
 * notification (a burst is coalesced into one scan at a fixed delay after the first
 * notification, so later notifications never postpone it: no starvation, unlike a resetting
 * debounce), on the refresh interval after a publish, after an INCOMPLETE scan with capped
 * exponential back-off and no cap on retries, and at the coalescing delay after the key's
 * connection was lost while idle (`onConnectionLost`: the push channel went with it). A QUARANTINED scan stops the loop until an
 * operator calls `start()` again. At most one scan runs at a time per refresher; several
 * refreshers may race on one key, and the registry's compare-and-swap picks one winner.
 *
 * Call barrier (SPEC section 7): a `tools/list_changed` opens a barrier that the next scan
 * *started after it* closes when it settles having walked the fresh list to the server's last
 * answer (a page with no next cursor, or a refusal of page 1), whatever its end state (published,
 * confirmed unchanged, refused, INCOMPLETE after the last page, or QUARANTINED). A scan cut short
 * before that (a second notification, a policy change, a dropped connection mid-walk) leaves the
 * barrier up for the retry: the oracle judges the barrier on the walks the server served, and a
 * walk abandoned at page 3 is no fresh list (issue 27). `settled()` waits for that; the host awaits
 * it before deciding a call, so no call chosen from the old list goes out before the refresh it
 * triggered.
 */
import { audienceName, keyName, type AudienceClass, type CatalogKey } from '../keys.ts';
import type { Clock, ObservationSink, Random, ScheduledTask, Scheduler } from '../ports.ts';
import type { CatalogRegistry, PublishResult } from '../registry/registry.ts';
import { pageRoot } from '../snapshot/digests.ts';
import { buildSnapshot, type SnapshotMemos } from '../snapshot/snapshot.ts';
import type { ContentChecks } from '../validation/content-checks.ts';
import { trustDigest, type TrustConfig } from '../validation/trust.ts';
import type { ScanLimits } from './config.ts';
import type { PageSource } from './page-source.ts';
import type { RevisionWatch } from './revision-watch.ts';
import { runScan, type ScanOutcome, type WalkConstructor } from './scan.ts';

/** Timings of the refresh loop, all in ms. */
export interface RefreshConfig {
  /** Rescan this long after a successful publish (the catalog TTL). */
  refreshIntervalMs: number;
  /** First back-off after an INCOMPLETE scan; doubles per consecutive failure. */
  retryBackoffMsBase: number;
  /** Back-off cap (`retryBackoffMsMax` of SPEC section 3). */
  retryBackoffMsMax: number;
  /** Fixed coalescing delay between the first notification of a burst and its scan. */
  listChangedDelayMs: number;
  /** A snapshot serves until discovery start + this (its `expiresAt`). */
  generationTtlMs: number;
}

/** Reads the current policy epoch of an audience class. */
export interface PolicyEpochView {
  epoch(audience: AudienceClass): number;
}

/** The endpoint a connection reached, as bound into snapshots. */
export interface EndpointInfo {
  endpointDigest: string;
  protocolVersion: string;
}

/** Everything a refresher needs; shared parts (registry, watches, ids) come from the host. */
export interface RefresherDeps {
  source: PageSource;
  audience: AudienceClass;
  endpoint: EndpointInfo;
  registry: CatalogRegistry;
  watchFor: (key: CatalogKey) => RevisionWatch;
  nextScanId: () => string;
  policy: PolicyEpochView;
  trust: TrustConfig;
  limits: ScanLimits;
  refresh: RefreshConfig;
  clock: Clock;
  scheduler: Scheduler;
  random: Random;
  sink: ObservationSink;
  /** The host's memos (src/memos.ts): digests, schema digests, verdicts and compiles. */
  memos: SnapshotMemos;
  /**
   * The walk and the per-tool content checks the host is built from (the reference ones, or a
   * checker-validation mutant's; see src/internal/seams.ts).
   */
  seams: { walk: WalkConstructor; contentChecks: ContentChecks };
}

/** Where the loop stands. */
export type RefresherState = 'idle' | 'scanning' | 'quarantined' | 'stopped';

/** The refresh loop of one (connection, audience class). */
export class CatalogRefresher {
  #state: RefresherState = 'idle';
  #pending: { task: ScheduledTask; atMs: number } | undefined;
  #failures = 0;
  /** A notification arrived while a scan ran: rescan soon after it, not at the refresh interval. */
  #dirty = false;
  /** How many `tools/list_changed` notifications this loop has been told of. */
  #notified = 0;
  /** The highest notification count a settled scan started after (it saw their list). */
  #settledThrough = 0;
  /** The latest notification a scan that started after it walked and published (or confirmed) the whole list for; 0 before any. */
  #provenThrough = 0;
  readonly #waiters: { through: number; resolve: () => void }[] = [];
  /** The outcome of the last finished scan, for hosts and tests. */
  lastOutcome: ScanOutcome | undefined;
  /** The result of the last publish attempt. */
  lastPublish: PublishResult | undefined;

  constructor(private readonly deps: RefresherDeps) {}

  get state(): RefresherState {
    return this.#state;
  }

  /** The audience class this loop discovers for, written `tenant.role`. */
  get audienceName(): string {
    return audienceName(this.deps.audience);
  }

  /** The identity the connection presents now. */
  identity(): string {
    return this.deps.source.identity();
  }

  /** Starts (or, after a quarantine, restarts) the loop with a scan now. */
  start(): void {
    this.#state = 'idle';
    this.#failures = 0;
    this.#schedule(0);
  }

  /** Stops the loop; a running scan finishes but schedules nothing. Releases every barrier. */
  stop(): void {
    this.#state = 'stopped';
    this.#cancelPending();
    this.#release(this.#notified);
  }

  /** A `tools/list_changed` arrived: scan after the fixed coalescing delay, unless one is due sooner. */
  onListChanged(): void {
    this.#notified += 1;
    if (this.#state === 'scanning') this.#dirty = true;
    if (this.#state === 'idle') this.scheduleAfterListChanged(this.deps.refresh.listChangedDelayMs);
  }

  /**
   * The key's connection closed after serving pages (ConnectedPageSource's `onConnectionLost`):
   * an idle loop walks after the coalescing delay, which reconnects, instead of waiting for its
   * next poll, since no `tools/list_changed` can reach it until a connection is open again (SPEC
   * section 3). Unlike a notification it opens no call barrier and does not count against
   * `changedSinceProven`: nothing was missed yet, and the new connection counts as a change when
   * it opens. A loop that is scanning finds the connection closed itself and backs off.
   */
  onConnectionLost(): void {
    if (this.#state === 'idle') this.#schedule(this.deps.refresh.listChangedDelayMs);
  }

  /**
   * How an idle loop schedules the scan a notification asks for: `delayMs` from now unless one is
   * due sooner, so a burst is coalesced into one scan a fixed delay after its first notification
   * and later ones never postpone it. Internal seam: a checker-validation mutant (a debounce that
   * resets on every notification) overrides exactly this, with {@link rescheduleScan}.
   */
  protected scheduleAfterListChanged(delayMs: number): void {
    this.#schedule(delayMs);
  }

  /** Cancels the pending scan, if any, and schedules one `delayMs` from now (for the seam above). */
  protected rescheduleScan(delayMs: number): void {
    this.#cancelPending();
    this.#schedule(delayMs);
  }

  /**
   * Whether a `tools/list_changed` arrived that no settled scan has caught up with yet, on a loop
   * that will still scan (a stopped or quarantined loop never holds calls back).
   */
  get listChangePending(): boolean {
    return this.#settledThrough < this.#notified && (this.#state === 'idle' || this.#state === 'scanning');
  }

  /**
   * Whether this loop has not caught up with what the server lists: no scan of it has published
   * (or confirmed) a whole list yet (a process that serves a catalog kept in a durable store from
   * an earlier boot), or a `tools/list_changed` (or a new connection, which counts as one) arrived
   * that no whole list started after it has caught up with. A host fails over to a backup only when
   * this is false: a call through a backup skips the barrier's relist on the key's connection.
   */
  get changedSinceProven(): boolean {
    return this.#provenThrough === 0 || this.#provenThrough < this.#notified;
  }

  /**
   * Resolves once a scan started after the latest `tools/list_changed` (as of this call) has
   * settled, at once if none is pending, or when the loop stops or is quarantined. Never rejects.
   */
  settled(): Promise<void> {
    if (!this.listChangePending) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ through: this.#notified, resolve }));
  }

  /** Runs one scan now and publishes it if it succeeded. Resolves when the scan settled. */
  async refreshNow(): Promise<ScanOutcome | undefined> {
    if (this.#state !== 'idle') return undefined;
    this.#cancelPending();
    this.#state = 'scanning';
    this.#dirty = false;
    const through = this.#notified;
    const outcome = await this.#scanAndPublish();
    const proven = outcome.state === 'SNAPSHOT_PROVEN' || outcome.state === 'UNVERSIONED_OBSERVATION';
    if (proven && this.lastPublish?.ok === true) this.#provenThrough = Math.max(this.#provenThrough, through);
    this.#afterScan(outcome);
    if (walkedToLastAnswer(outcome)) this.#release(through);
    return outcome;
  }

  /** A scan that started after notification `through` settled: release the calls waiting on it. */
  #release(through: number): void {
    this.#settledThrough = Math.max(this.#settledThrough, through);
    const releasedThrough = this.listChangePending ? this.#settledThrough : Number.POSITIVE_INFINITY;
    const released = this.#waiters.filter((waiter) => waiter.through <= releasedThrough);
    if (released.length === 0) return;
    this.#waiters.splice(
      0,
      this.#waiters.length,
      ...this.#waiters.filter((waiter) => waiter.through > releasedThrough),
    );
    for (const waiter of released) waiter.resolve();
  }

  async #scanAndPublish(): Promise<ScanOutcome> {
    const { deps } = this;
    const key: CatalogKey = { identity: deps.source.identity(), ...deps.audience };
    const expectedGeneration = deps.registry.generationOf(key);
    const outcome = await runScan(
      deps.source,
      {
        scanId: deps.nextScanId(),
        key: keyName(key),
        expectedGeneration,
        policyEpoch: () => deps.policy.epoch(deps.audience),
        clock: deps.clock,
        sink: deps.sink,
        limits: deps.limits,
        catalogLimits: deps.trust,
        watch: deps.watchFor(key),
        memos: deps.memos,
      },
      deps.seams.walk,
    );
    this.lastOutcome = outcome;
    if (outcome.state === 'SNAPSHOT_PROVEN' || outcome.state === 'UNVERSIONED_OBSERVATION')
      this.#publish(key, outcome, expectedGeneration);
    return outcome;
  }

  #publish(key: CatalogKey, outcome: ScanOutcome, expectedGeneration: number): void {
    const { deps } = this;
    if (this.#confirmsActive(key, outcome, expectedGeneration)) return;
    const snapshot = buildSnapshot(
      {
        key,
        endpointDigest: deps.endpoint.endpointDigest,
        protocolVersion: deps.endpoint.protocolVersion,
        scanId: outcome.scanId,
        discoveryState: outcome.state === 'SNAPSHOT_PROVEN' ? 'SNAPSHOT_PROVEN' : 'UNVERSIONED_OBSERVATION',
        discoveryStartedAt: outcome.startedAt,
        policyEpoch: outcome.policyEpoch,
        sourceRevision: outcome.revision,
        generationTtlMs: deps.refresh.generationTtlMs,
        trust: deps.trust,
        pages: outcome.pages,
        ...(outcome.cacheScope === undefined ? {} : { cacheScope: outcome.cacheScope }),
      },
      deps.memos,
      deps.seams.contentChecks,
    );
    this.lastPublish = deps.registry.publish(snapshot, expectedGeneration, {
      policyEpoch: deps.policy.epoch(deps.audience),
      identity: deps.source.identity(),
      trustConfigDigest: trustDigest(deps.trust),
    });
  }

  /**
   * A scan that proves exactly what the active generation already holds (same revision, page
   * root, policy epoch and trust) does not publish a copy of it while that generation has more
   * than two refresh intervals left before `expiresAt`. Nothing is emitted for it: the pointer does
   * not move, so the trace shows the scan's `scan_ended` and no `published`. Close to expiry the same content is published again, which renews it (SPEC section 6: a
   * generation serves only until its `expiresAt`).
   */
  #confirmsActive(key: CatalogKey, outcome: ScanOutcome, expectedGeneration: number): boolean {
    const { deps } = this;
    const active = deps.registry.active(key);
    // Only the generation this scan started against can be confirmed: if another refresher moved
    // the pointer meanwhile, this one lost the race and must hear CAS_CONFLICT from the registry.
    if (active === undefined || active.catalogGeneration !== expectedGeneration || deps.registry.isDisabled(key))
      return false;
    const { snapshot } = active;
    const renewalMarginMs = 2 * deps.refresh.refreshIntervalMs;
    const same =
      snapshot.sourceRevision === outcome.revision &&
      snapshot.discoveryState === outcome.state &&
      snapshot.policyEpoch === outcome.policyEpoch &&
      snapshot.cacheScope === outcome.cacheScope &&
      snapshot.trustConfigDigest === trustDigest(deps.trust) &&
      snapshot.pageRoot ===
        pageRoot(
          outcome.pages.map((page) => page.pageDigest),
          deps.memos,
        );
    if (!same || snapshot.expiresAt - deps.clock.now() <= renewalMarginMs) return false;
    this.lastPublish = { ok: true, record: active };
    return true;
  }

  #afterScan(outcome: ScanOutcome): void {
    if (this.#state !== 'scanning') return;
    this.#state = 'idle';
    if (outcome.state === 'QUARANTINED') {
      // The scan's own `scan_ended` (state QUARANTINED, with its reason) records that the loop stops.
      this.#state = 'quarantined';
      return;
    }
    if (outcome.state === 'INCOMPLETE' || this.lastPublish?.ok === false) return this.#schedule(this.#backoffMs());
    this.#failures = 0;
    this.#schedule(this.#dirty ? this.deps.refresh.listChangedDelayMs : this.deps.refresh.refreshIntervalMs);
  }

  /** Capped exponential back-off with jitter in [50%, 100%] of the step. */
  #backoffMs(): number {
    const { retryBackoffMsBase, retryBackoffMsMax } = this.deps.refresh;
    const step = Math.min(retryBackoffMsMax, retryBackoffMsBase * 2 ** this.#failures);
    this.#failures += 1;
    return Math.max(1, Math.round(step * (0.5 + 0.5 * this.deps.random.next())));
  }

  /** Schedules a scan in `delayMs` unless one is already due no later than that. */
  #schedule(delayMs: number): void {
    const atMs = this.deps.clock.now() + delayMs;
    if (this.#pending !== undefined && this.#pending.atMs <= atMs) return;
    this.#cancelPending();
    const task = this.deps.scheduler.after(delayMs, () => {
      this.#pending = undefined;
      void this.refreshNow();
    });
    this.#pending = { task, atMs };
  }

  #cancelPending(): void {
    if (this.#pending !== undefined) this.deps.scheduler.cancel(this.#pending.task);
    this.#pending = undefined;
  }
}

/**
 * Whether a scan heard the server's last answer to its walk: it ended in a good state or
 * QUARANTINED, read a page with no next cursor, or had page 1 refused by the server.
 */
function walkedToLastAnswer(outcome: ScanOutcome): boolean {
  if (outcome.state !== 'INCOMPLETE') return true;
  const last = outcome.pages.at(-1);
  if (last !== undefined) return last.cursorOut === null;
  return (
    outcome.serverError !== undefined && (outcome.reason === 'AUTH_REQUIRED' || outcome.reason === 'REQUEST_FAILED')
  );
}
