/**
 * What the core said it did, rebuilt from `src: "core"` events only (SPEC section 11): publishes
 * in trace order, the latest publish per catalog key, each key's pointer history (publishes,
 * rollbacks included, and `server_disabled`), publishes by (key, generation), and scan starts and
 * ends by scanId.
 *
 * Workflow: `buildObservations(events)` once per trace, then read the maps or ask the point-in-time
 * lookups below (binary searches, so a check may ask once per event). Like the ground-truth model,
 * it keeps references to the caller's events and never mutates them. `publish_refused` and
 * `key_quarantined` are read by no invariant yet and are not indexed.
 */
import { latestBefore } from './internal/seq-search.ts';
import {
  asKnownEvent,
  type PublishedEvent,
  type ScanEndedEvent,
  type ScanStartedEvent,
  type ServerDisabledEvent,
  type TraceEvent,
} from './trace.ts';

/** A core event that moves or blocks a key's active pointer. */
export type PointerEvent = PublishedEvent | ServerDisabledEvent;

/** The core's observations of one round. */
export interface Observations {
  /** Every `published` event, in trace order. */
  readonly published: readonly PublishedEvent[];
  /**
   * The latest `published` event per catalog key: the active pointer at the end of the round
   * (a rollback is a publish too), unless a later `server_disabled` blocks the key
   * (see `pointerHistory`).
   */
  readonly latestPublished: ReadonlyMap<string, PublishedEvent>;
  /** Per catalog key, its `published` and `server_disabled` events in trace order. */
  readonly pointerHistory: ReadonlyMap<string, readonly PointerEvent[]>;
  /**
   * Per catalog key and generation, the publishes of that generation in trace order (more than
   * one only when a core repeated a generation, which I10 reports).
   */
  readonly publishesByGeneration: ReadonlyMap<string, ReadonlyMap<number, readonly PublishedEvent[]>>;
  /** The first `scan_started` per scanId. */
  readonly scanStarts: ReadonlyMap<string, ScanStartedEvent>;
  /** The first `scan_ended` per scanId. */
  readonly scanEnds: ReadonlyMap<string, ScanEndedEvent>;
}

/** Builds the observation indexes in one pass; world events and unknown types are skipped. */
export function buildObservations(events: readonly TraceEvent[]): Observations {
  const published: PublishedEvent[] = [];
  const latestPublished = new Map<string, PublishedEvent>();
  const pointerHistory = new Map<string, PointerEvent[]>();
  const publishesByGeneration = new Map<string, Map<number, PublishedEvent[]>>();
  const scanStarts = new Map<string, ScanStartedEvent>();
  const scanEnds = new Map<string, ScanEndedEvent>();
  for (const raw of events) {
    const event = asKnownEvent(raw);
    if (event === null || event.src !== 'core') continue;
    if (event.type === 'published') {
      published.push(event);
      latestPublished.set(event.key, event);
      pushTo(pointerHistory, event.key, event);
      pushTo(innerMap(publishesByGeneration, event.key), event.generation, event);
    } else if (event.type === 'server_disabled') {
      pushTo(pointerHistory, event.key, event);
    } else if (event.type === 'scan_started' && !scanStarts.has(event.scanId)) {
      scanStarts.set(event.scanId, event);
    } else if (event.type === 'scan_ended' && !scanEnds.has(event.scanId)) {
      scanEnds.set(event.scanId, event);
    }
  }
  return { published, latestPublished, pointerHistory, publishesByGeneration, scanStarts, scanEnds };
}

/**
 * The publish of generation `generation` of `key` that the pointer held most recently before
 * `beforeSeq` (the latest such publish strictly earlier in the trace), or null if there was none.
 */
export function publishOfGeneration(observed: Observations, key: string, generation: number, beforeSeq: number): PublishedEvent | null {
  const publishes = observed.publishesByGeneration.get(key)?.get(generation) ?? [];
  return latestBefore(publishes, beforeSeq);
}

/**
 * The latest `published` or `server_disabled` of `key` strictly before `beforeSeq` (pass
 * `Infinity` for the end of the round), or null. A `server_disabled` result means the key was
 * DISABLED at that point.
 */
export function pointerEventBefore(observed: Observations, key: string, beforeSeq: number): PointerEvent | null {
  return latestBefore(observed.pointerHistory.get(key) ?? [], beforeSeq);
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function innerMap<K, IK, V>(map: Map<K, Map<IK, V>>, key: K): Map<IK, V> {
  let inner = map.get(key);
  if (inner === undefined) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}
