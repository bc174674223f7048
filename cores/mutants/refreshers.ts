/**
 * Mutant refresh loops: the reference refresher with exactly one defence removed (SPEC section 12;
 * issue 13). The call barrier of SPEC section 7 and the fixed coalescing delay of a `list_changed`
 * burst both live in the refresher, which the host builds through its `refresher` seam.
 */
import { CatalogRefresher, type RefresherDeps } from '../../src/discovery/refresher.ts';
import { keyName } from '../../src/keys.ts';

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
