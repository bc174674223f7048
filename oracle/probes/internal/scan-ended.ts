/** A probe predicate: some scan ended with `reason` (INCOMPLETE or QUARANTINED reason codes). */
import type { KnownEvent } from '../../trace.ts';

/** True when a `scan_ended` event carries `reason`. */
export function scanEndedWith(reason: string): (events: readonly KnownEvent[]) => boolean {
  return (events) => events.some((e) => e.type === 'scan_ended' && e.reason === reason);
}
