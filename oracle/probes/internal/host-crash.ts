/**
 * Probe predicates of F18: the host died in a given situation and the boot that followed served
 * on (a `host_restarted`, then a `published` or a `disclosure` of the new boot).
 */
import type { HostCrashedEvent, KnownEvent } from '../../trace.ts';

/** What the trace held when a crash came: the events before it, and the crash. */
export type CrashSituation = (before: readonly KnownEvent[], crash: HostCrashedEvent) => boolean;

/** True when some crash matches `situation` and the next boot restarted and then served. */
export function crashThenServed(situation: CrashSituation): (events: readonly KnownEvent[]) => boolean {
  return (events) =>
    events.some(
      (event, index) =>
        event.type === 'host_crashed' && situation(events.slice(0, index), event) && servedAfter(events, index),
    );
}

function servedAfter(events: readonly KnownEvent[], crashIndex: number): boolean {
  const restart = events.findIndex((event, index) => index > crashIndex && event.type === 'host_restarted');
  return (
    restart >= 0 &&
    events.some((event, index) => index > restart && (event.type === 'published' || event.type === 'disclosure'))
  );
}

/** Whether some scan had started and not ended in `before`. */
export function scanOpen(before: readonly KnownEvent[]): boolean {
  const open = new Set<string>();
  for (const event of before) {
    if (event.type === 'scan_started') open.add(event.scanId);
    else if (event.type === 'scan_ended') open.delete(event.scanId);
  }
  return open.size > 0;
}

/** Whether some call had left the core (a `receipt`) without its outcome back in `before`. */
export function callInFlight(before: readonly KnownEvent[]): boolean {
  const open = new Set<string>();
  for (const event of before) {
    if (event.type === 'receipt') open.add(event.leaseId);
    else if (event.type === 'receipt_outcome') open.delete(event.leaseId);
  }
  return open.size > 0;
}
