/**
 * How long each revocation took to reach the core (SPEC section 7, for the report's p50/p99 of
 * I7's propagation delay).
 *
 * A revocation is a world `policy_changed` that revoked at least one tool; it is seen when the
 * core first logs a `policy_seen` for the same audience, later in the trace, with an epoch at
 * least the revoking one. Its delay is that `policy_seen`'s `t` minus the change's `t`. A
 * revocation the core never saw is censored at the round's end: its delay is `endT` minus the
 * change's `t`, a lower bound of the true delay.
 */
import { countBefore } from './internal/seq-search.ts';
import type { Observations } from './observations.ts';
import type { PolicyChangedEvent, PolicySeenEvent } from './trace.ts';

/** The propagation of one revoking policy change. */
export interface RevocationDelay {
  readonly change: PolicyChangedEvent;
  /** The first `policy_seen` that carried the revocation to the core, or null (censored). */
  readonly seen: PolicySeenEvent | null;
  readonly delayMs: number;
  /** True when the core never saw it: `delayMs` runs to the end of the round. */
  readonly censored: boolean;
}

/**
 * The delay of every revoking change, in trace order. A binary search finds the core's first
 * `policy_seen` after the change; the scan forward from there skips only epochs older than the
 * revoking one, which a core logs at most once each (it logs an epoch when it is new to it).
 */
export function revocationDelays(
  changes: readonly PolicyChangedEvent[],
  observed: Observations,
  endT: number,
): RevocationDelay[] {
  const delays: RevocationDelay[] = [];
  for (const change of changes) {
    if (change.revoked.length === 0) continue;
    const seen = firstSeenAtLeast(observed.policySeenByAudience.get(change.audience) ?? [], change);
    delays.push({ change, seen, delayMs: (seen?.t ?? endT) - change.t, censored: seen === null });
  }
  return delays;
}

function firstSeenAtLeast(seenList: readonly PolicySeenEvent[], change: PolicyChangedEvent): PolicySeenEvent | null {
  for (let index = countBefore(seenList, change.seq + 1); index < seenList.length; index += 1) {
    const seen = seenList[index];
    if (seen !== undefined && seen.epoch >= change.epoch) return seen;
  }
  return null;
}
