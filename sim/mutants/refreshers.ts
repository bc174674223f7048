/**
 * Mutant refresh loops: the reference refresher with exactly one defence removed (SPEC section 12;
 * issue 13). The call barrier of SPEC section 7 and the fixed coalescing delay of a `list_changed`
 * burst both live in the refresher, which the host builds through its `refresher` seam.
 */
import { CatalogRefresher } from '../../src/discovery/refresher.ts';

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
