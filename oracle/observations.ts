/**
 * What the core said it did, rebuilt from `src: "core"` events only (SPEC section 11): publishes
 * in trace order, the latest publish per catalog key, and scan starts and ends by scanId.
 *
 * Workflow: `buildObservations(events)` once per trace, then read the maps. Like the ground-truth
 * model, it keeps references to the caller's events and never mutates them.
 */
import {
  asKnownEvent,
  type PublishedEvent,
  type ScanEndedEvent,
  type ScanStartedEvent,
  type TraceEvent,
} from './trace.ts';

/** The core's observations of one round. */
export interface Observations {
  /** Every `published` event, in trace order. */
  readonly published: readonly PublishedEvent[];
  /**
   * The latest `published` event per catalog key. Until rollback events exist in the trace format
   * this is the active pointer at the end of the round.
   */
  readonly latestPublished: ReadonlyMap<string, PublishedEvent>;
  /** The first `scan_started` per scanId. */
  readonly scanStarts: ReadonlyMap<string, ScanStartedEvent>;
  /** The first `scan_ended` per scanId. */
  readonly scanEnds: ReadonlyMap<string, ScanEndedEvent>;
}

/** Builds the observation indexes in one pass; world events and unknown types are skipped. */
export function buildObservations(events: readonly TraceEvent[]): Observations {
  const published: PublishedEvent[] = [];
  const latestPublished = new Map<string, PublishedEvent>();
  const scanStarts = new Map<string, ScanStartedEvent>();
  const scanEnds = new Map<string, ScanEndedEvent>();
  for (const raw of events) {
    const event = asKnownEvent(raw);
    if (event === null || event.src !== 'core') continue;
    if (event.type === 'published') {
      published.push(event);
      latestPublished.set(event.key, event);
    } else if (event.type === 'scan_started' && !scanStarts.has(event.scanId)) {
      scanStarts.set(event.scanId, event);
    } else if (event.type === 'scan_ended' && !scanEnds.has(event.scanId)) {
      scanEnds.set(event.scanId, event);
    }
  }
  return { published, latestPublished, scanStarts, scanEnds };
}
