/**
 * Mutant refresh loops: the reference refresher with exactly one defence removed (SPEC section 12;
 * issue 13). The call barrier of SPEC section 7 and the fixed coalescing delay of a `list_changed`
 * burst both live in the refresher, which the host builds through its `refresher` seam.
 */
import { CatalogRefresher, type RefresherDeps } from '../../src/discovery/refresher.ts';
import { keyName } from '../../src/keys.ts';
import type { ScanOutcome } from '../../src/discovery/scan.ts';

/**
 * No list_changed barrier: the loop never reports a notification as pending, so the host sends a
 * call chosen from the old list while the refresh the notification triggered is still to come.
 */
export class NoBarrierRefresher extends CatalogRefresher {
  override get listChangePending(): boolean {
    return false;
  }
}

/**
 * A debounce that resets on every notification (the field report's bug): each `list_changed`
 * cancels the scheduled scan and schedules it again the coalescing delay later, so a burst whose
 * notifications come closer together than that delay postpones the refresh (and every call held
 * at the barrier) for as long as it lasts, the periodic refresh included.
 */
export class ResettingDebounceRefresher extends CatalogRefresher {
  protected override scheduleAfterListChanged(delayMs: number): void {
    this.rescheduleScan(delayMs);
  }
}

/**
 * Scans it never ran (issue 27): on a `list_changed` the loop reports a whole fresh scan at once
 * (`scan_started`, then `scan_ended` SNAPSHOT_PROVEN) without asking the server for a page, and
 * holds no call for it; only its periodic refresh really lists again. Judged on its own account it
 * refreshes in time and every call follows a fresh scan; the pages the world served say otherwise
 * (I18's barrier and I19's refresh, both read from the walks served).
 */
export class FabricatedScanRefresher extends CatalogRefresher {
  readonly #deps: RefresherDeps;

  constructor(deps: RefresherDeps) {
    super(deps);
    this.#deps = deps;
  }

  override get listChangePending(): boolean {
    return false;
  }

  protected override scheduleAfterListChanged(): void {
    const { sink, source, audience, registry } = this.#deps;
    const key = keyName({ identity: source.identity(), ...audience });
    const scanId = this.#deps.nextScanId();
    const expectedGeneration = registry.generationOf({ identity: source.identity(), ...audience });
    sink.emit({
      type: 'scan_started',
      key,
      scanId,
      expectedGeneration,
      policyEpoch: this.#deps.policy.epoch(audience),
    });
    sink.emit({ type: 'scan_ended', scanId, state: 'SNAPSHOT_PROVEN', reason: 'OK' });
  }
}

/**
 * A TTL trusted as proof of freshness (MCP 2026-07-28, F30; issue 29): once a walk has proved a
 * catalog, the loop takes the `ttlMs` its page 1 carried as a promise that nothing changes before
 * it runs out, and runs no scan until then, neither the periodic one nor the one a `list_changed`
 * asks for (it moves it to the TTL's end instead; calls wait at the barrier meanwhile). The TTL is
 * "a freshness hint, not a guarantee", and "Servers MAY change the underlying data before the TTL
 * expires": a change nothing pushed goes unread past the poll bound (I33), a notified one past the
 * refresh bound (I19), and with a TTL longer than the round the catalog never catches up (I12).
 * Legacy pages carry no TTL, so on a legacy server it is the reference loop.
 */
export class TrustTtlRefresher extends CatalogRefresher {
  readonly #clock: RefresherDeps['clock'];
  /** Virtual ms until which the last proved catalog counts as fresh (its page 1's receipt plus `ttlMs`). */
  #freshUntil = Number.NEGATIVE_INFINITY;
  /** The TTL's end read on page 1 of the scan running now, kept only if the scan proves a catalog. */
  #candidate: number | undefined;

  constructor(deps: RefresherDeps) {
    const sink: RefresherDeps['sink'] = {
      emit: (observation) => {
        if (observation.type === 'page_read' && observation.cursorIn === null && !observation.recheck)
          this.#candidate = observation.ttlMs === undefined ? undefined : deps.clock.now() + observation.ttlMs;
        deps.sink.emit(observation);
      },
    };
    super({ ...deps, sink });
    this.#clock = deps.clock;
  }

  override async refreshNow(): Promise<ScanOutcome | undefined> {
    const now = this.#clock.now();
    if (this.state === 'idle' && now < this.#freshUntil) {
      this.rescheduleScan(this.#freshUntil - now);
      return undefined;
    }
    this.#candidate = undefined;
    const outcome = await super.refreshNow();
    const proved = outcome?.state === 'SNAPSHOT_PROVEN' || outcome?.state === 'UNVERSIONED_OBSERVATION';
    if (proved && this.#candidate !== undefined) this.#freshUntil = this.#candidate;
    return outcome;
  }
}
