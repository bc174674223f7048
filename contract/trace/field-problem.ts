/**
 * The problem with one field's value as `catsim.trace.v1` defines it, for code that checks a
 * value before it becomes part of an event (the world checks what a core's `disclose` answers
 * before writing it as a `disclosure` or `disclosure_refused`).
 */
import type { EventKind } from '../internal/event.ts';
import { problemOf, type Field } from '../internal/fields.ts';
import { TRACE_EVENTS } from './events.ts';
import type { TraceEventType } from './types.ts';

/**
 * The first problem of `value` as field `field` of event type `type`, phrased after `at` (e.g.
 * `generation must be a non-negative integer`), or null when it is of the field's kind.
 */
export function fieldProblem<T extends TraceEventType>(
  type: T,
  field: keyof (typeof TRACE_EVENTS)[T]['fields'] & string,
  value: unknown,
  at: string,
): string | null {
  const kind = (TRACE_EVENTS[type] as EventKind).fields[field] as Field<unknown>;
  return problemOf(kind, value, at);
}
