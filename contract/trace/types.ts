/**
 * The TypeScript types of `catsim.trace.v1`, inferred from the field tables of events.ts and
 * header.ts (never written out a second time), read-only all the way down: whoever reads a trace
 * does not change it. A writer builds the same shapes from plain object literals.
 */
import type { EventSource } from '../internal/event.ts';
import type { Infer } from '../internal/fields.ts';
import type { TRACE_EVENTS } from './events.ts';
import type { TRACE_HEADER } from './header.ts';

export type { EventSource } from '../internal/event.ts';

/** Every event type name. */
export type TraceEventType = keyof typeof TRACE_EVENTS;

/** The event of one type, e.g. `TraceEventOf<'page_read'>`. */
export type TraceEventOf<T extends TraceEventType> = Infer<(typeof TRACE_EVENTS)[T]>;

/** Any event of the format (a union discriminated by `type`). */
export type TraceEvent = { [T in TraceEventType]: TraceEventOf<T> }[TraceEventType];

/** Every ground-truth event (`src: "world"`). */
export type WorldEvent = Extract<TraceEvent, { src: 'world' }>;

/** Every observation event (`src: "core"`). */
export type CoreEvent = Extract<TraceEvent, { src: 'core' }>;

/** The type names of world events and of core events. */
export type WorldEventType = WorldEvent['type'];
export type CoreEventType = CoreEvent['type'];

/** An event without the fields the recorder stamps (`seq`, `t`, `src`), distributed over the union. */
type Unstamped<E> = E extends unknown ? Omit<E, 'seq' | 't' | 'src'> : never;

/**
 * One observation as a core emits it: a core event without `seq`, `t` and `src`, which the
 * observation sink stamps. `type` names the event; the other fields are its own.
 */
export type CoreObservation = Unstamped<CoreEvent>;

/** The own fields of a world event type, as the simulator passes them to its recorder. */
export type WorldFields<T extends WorldEventType> = Omit<
  Extract<WorldEvent, { type: T }>,
  'seq' | 't' | 'src' | 'type'
>;

/** The fields every event starts with. */
export interface EventBase<S extends EventSource, T extends string> {
  readonly seq: number;
  readonly t: number;
  readonly src: S;
  readonly type: T;
}

/** Line 1 of a trace. */
export type TraceHeader = Infer<typeof TRACE_HEADER>;

/** The scenario bounds of a header. */
export type TraceBounds = TraceHeader['bounds'];

/** A parsed trace: the header and the events in trace order (`events[i].seq === i`). */
export interface Trace {
  readonly header: TraceHeader;
  readonly events: readonly TraceEvent[];
}
