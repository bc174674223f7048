/**
 * The validation every reader of a `catsim.trace.v1` trace applies, and the observation sink of
 * the simulator applies to every observation a core emits: each function returns the first
 * problem as one sentence naming the field (e.g. `"page_read".cursorIn must be a string or null`),
 * or null when the value follows the contract. Nothing here throws; callers add the line number or
 * the core's name. A value that follows the contract costs one pass of allocation-free tests.
 *
 * Problems, in the order they are looked for: no `type`, an unknown type, a known type under the
 * other `src`, then the event's fields in their written order (a missing field, a field of the
 * wrong kind, a code outside its set), then a field the contract does not list, then the rules
 * across fields.
 */
import type { EventKind } from '../internal/event.ts';
import { problemOf } from '../internal/fields.ts';
import { TRACE_EVENTS } from './events.ts';
import { TRACE_HEADER, TRACE_SCHEMA } from './header.ts';
import type { CoreEventType, EventSource, TraceEventType } from './types.ts';

const KIND_BY_TYPE: ReadonlyMap<string, EventKind> = new Map(Object.entries(TRACE_EVENTS) as [string, EventKind][]);

/** The `src` each event type must carry. */
export const EVENT_SOURCES: ReadonlyMap<TraceEventType, EventSource> = new Map(
  [...KIND_BY_TYPE].map(([type, kind]) => [type as TraceEventType, kind.src]),
);

/** Whether `type` is a core event type (one a core may emit). */
export function isCoreEventType(type: string): type is CoreEventType {
  return EVENT_SOURCES.get(type as TraceEventType) === 'core';
}

/** Returns the first problem with one event object (a parsed line), or null. */
export function eventProblem(value: Readonly<Record<string, unknown>>): string | null {
  const type = value['type'];
  const kind = typeof type === 'string' ? KIND_BY_TYPE.get(type) : undefined;
  if (kind !== undefined && kind.test(value)) return ruleProblem(kind, value);
  if (!Object.hasOwn(value, 'type')) return 'event has no field "type"';
  if (typeof type !== 'string') return 'event.type must be a string';
  if (kind === undefined) return `unknown event type ${JSON.stringify(type)} (not in ${TRACE_SCHEMA})`;
  if (value['src'] !== kind.src) {
    const found = Object.hasOwn(value, 'src') ? JSON.stringify(value['src']) : 'none';
    return `"${type}" must have src "${kind.src}", found ${found}`;
  }
  return problemOf(kind, value, `"${type}"`);
}

/**
 * Returns the first problem with one observation as a core emitted it (`observation`, before the
 * sink stamps `seq`, `t` and `src`; `stamped` is the event the sink would record), or null. An
 * observation must not carry the stamps itself, and its type must be a core event type: a core
 * cannot pass an observation off as ground truth.
 */
export function observationProblem(observation: Readonly<Record<string, unknown>>, stamped: Readonly<Record<string, unknown>>): string | null {
  for (const stamp of ['seq', 't', 'src']) {
    if (Object.hasOwn(observation, stamp)) return `an observation must not carry "${stamp}" (the sink stamps seq, t and src)`;
  }
  return eventProblem(stamped);
}

/** Returns the first problem with the header object (line 1), or null. */
export function headerProblem(value: Readonly<Record<string, unknown>>): string | null {
  if (value['type'] !== 'header') {
    const found = typeof value['type'] === 'string' ? `type ${JSON.stringify(value['type'])}` : 'no "type"';
    return `missing header (expected type "header", found ${found})`;
  }
  const schema = value['schema'];
  if (schema !== TRACE_SCHEMA) {
    const found = typeof schema === 'string' ? JSON.stringify(schema) : 'none';
    return `unsupported schema ${found} (expected "${TRACE_SCHEMA}")`;
  }
  return problemOf(TRACE_HEADER, value, 'header');
}

function ruleProblem(kind: EventKind, value: Readonly<Record<string, unknown>>): string | null {
  for (const rule of kind.doc.rules ?? []) {
    if (!rule.holds(value)) return `"${kind.name}".${rule.field} must be ${rule.expected}`;
  }
  return null;
}
