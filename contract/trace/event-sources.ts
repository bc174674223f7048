/** The `src` each event type of `catsim.trace.v1` must carry: `world` (ground truth) or `core` (observations). */
import { TRACE_EVENTS } from './events.ts';
import type { EventSource, TraceEventType } from './types.ts';

/** The `src` each event type must carry, in the order the types are documented. */
export const EVENT_SOURCES: ReadonlyMap<TraceEventType, EventSource> = new Map(
  Object.values(TRACE_EVENTS).map((kind) => [kind.name as TraceEventType, kind.src]),
);
