/**
 * The validation every reader of a `catsim.trace.v1` trace applies to each event line, and the
 * simulator's observation sink to each observation (observation-problem.ts). It returns the first
 * problem as one sentence naming the field (e.g. `"page_read".cursorIn must be a string or null`),
 * or null when the event follows the contract; it never throws, and callers add the line number or
 * the core's name. An event that follows the contract costs one pass of allocation-free tests.
 *
 * Problems, in the order they are looked for: no `type`, an unknown type, a known type under the
 * other `src`, then the event's fields in their written order (a missing field, a field of the
 * wrong kind, a code outside its set), then a field the contract does not list, then the rules
 * across fields.
 */
import type { EventKind } from '../internal/event.ts';
import { problemOf } from '../internal/fields.ts';
import { TRACE_EVENTS } from './events.ts';
import { TRACE_SCHEMA } from './schema.ts';

const KIND_BY_TYPE: ReadonlyMap<string, EventKind> = new Map(Object.entries(TRACE_EVENTS) as [string, EventKind][]);

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

function ruleProblem(kind: EventKind, value: Readonly<Record<string, unknown>>): string | null {
  for (const rule of kind.doc.rules ?? []) {
    if (!rule.holds(value)) return `"${kind.name}".${rule.field} must be ${rule.expected}`;
  }
  return null;
}
