/** A probe predicate: the gate decided a call a certain way, optionally for plans of one kind. */
import type { KnownEvent } from '../../trace.ts';

/**
 * True when a `gate_decision` carries `decision` and, when `kind` is given, its plan (joined on
 * session and plan id to the world's `plan_made`) was of that kind (`stale`, `guessed`, ...).
 */
export function decidedWith(decision: string, kind?: string): (events: readonly KnownEvent[]) => boolean {
  return (events) => {
    const kinds = new Map<string, string>();
    for (const e of events) if (e.type === 'plan_made') kinds.set(`${e.session}#${e.planId}`, e.kind);
    return events.some(
      (e) =>
        e.type === 'gate_decision' &&
        e.decision === decision &&
        (kind === undefined || kinds.get(`${e.session}#${e.planId}`) === kind),
    );
  };
}
