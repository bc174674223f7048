/**
 * What a core did about one rollback trigger (F19), read from a round's events: shared by the
 * rollback invariants (I21, I28, I29, oracle/invariants/rollback.ts) and the rollback probes.
 *
 * A trigger is *owed* an outcome when it was `delivered`, its key had a `published` before it and
 * was not DISABLED at that moment (a closed key needs nothing more). Its window runs from the
 * trigger to the first of: the next trigger for the same key, a `host_crashed` (the boot that
 * heard it died; nothing more is owed), the end of the trace. Its outcome is the first pointer
 * event of its key in the window that is a rollback (`published` with `rolledBackFrom`) or a
 * `server_disabled`; an ordinary publish in between (a refresh racing the decision) is neither.
 */
import type { KnownEvent, PublishedEvent, RollbackTriggeredEvent, ServerDisabledEvent } from '../trace.ts';
import { rolledBackFromOf } from '../trace.ts';

/** One delivered, owed trigger and what followed it. */
export interface TriggerOutcome {
  readonly trigger: RollbackTriggeredEvent;
  /** The generation active for the key when the trigger came (its latest publish before it). */
  readonly activeAtTrigger: PublishedEvent;
  /** The rollback or DISABLE that answered it, or null when none came in its window. */
  readonly outcome: PublishedEvent | ServerDisabledEvent | null;
  /** Whether the window was cut by a host crash before any outcome (then nothing is owed). */
  readonly crashed: boolean;
}

/** The owed triggers of a round, in trace order, with their outcomes. Events of other types are skipped. */
export function triggerOutcomes(events: readonly KnownEvent[]): TriggerOutcome[] {
  const pointer = new Map<string, (PublishedEvent | ServerDisabledEvent)[]>();
  const triggers: RollbackTriggeredEvent[] = [];
  const crashes: number[] = [];
  for (const event of events) {
    if (event.type === 'rollback_triggered' && event.src === 'world') triggers.push(event);
    else if (event.type === 'host_crashed' && event.src === 'world') crashes.push(event.seq);
    else if ((event.type === 'published' || event.type === 'server_disabled') && event.src === 'core') {
      let list = pointer.get(event.key);
      if (list === undefined) pointer.set(event.key, (list = []));
      list.push(event);
    }
  }
  const outcomes: TriggerOutcome[] = [];
  triggers.forEach((trigger, index) => {
    if (trigger.delivery !== 'delivered') return;
    const history = pointer.get(trigger.key) ?? [];
    const before = history.filter((event) => event.seq < trigger.seq);
    const last = before.at(-1);
    const activeAtTrigger = before.filter((event): event is PublishedEvent => event.type === 'published').at(-1);
    if (activeAtTrigger === undefined || last?.type === 'server_disabled') return;
    const nextTrigger = triggers.slice(index + 1).find((other) => other.key === trigger.key)?.seq ?? Infinity;
    const crash = crashes.find((seq) => seq > trigger.seq) ?? Infinity;
    const end = Math.min(nextTrigger, crash);
    const outcome = history.find((event) => event.seq > trigger.seq && event.seq < end
      && (event.type === 'server_disabled' || rolledBackFromOf(event) !== null)) ?? null;
    outcomes.push({ trigger, activeAtTrigger, outcome, crashed: outcome === null && crash < nextTrigger && crash < Infinity });
  });
  return outcomes;
}
