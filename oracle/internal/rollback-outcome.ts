/**
 * What a core did about one rollback trigger (F19), read from a round's events: shared by the
 * rollback invariants (I21, I28, I29, oracle/invariants/rollback.ts) and the rollback probes.
 *
 * A trigger is *owed* an outcome when it was `delivered`, its key had a `published` before it and
 * was not DISABLED at that moment (a closed key needs nothing more). Outcomes are the key's
 * rollbacks (`published` with `rolledBackFrom`) and `server_disabled` events; an ordinary publish
 * (a refresh racing the decision) is none. The owed triggers of a key take its outcomes in order,
 * each the first one after it that no earlier trigger took: a rollback takes time (the reference
 * core polls the policy first), so a second trigger can come before the first one's outcome
 * (seed 1 round 1201: triggers at 1,667 and 1,671 ms, rollbacks at 1,671 and 1,675 ms), and the
 * outcomes still answer the triggers one for one. A `host_crashed` after a trigger and before its
 * outcome ends what it is owed (the boot that heard it died): it takes no outcome.
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

/**
 * Outcomes by the events array they were read from: the check and the four rollback probes of a
 * round each ask for the same array's (an array the oracle builds once and never changes).
 */
const outcomesByEvents = new WeakMap<readonly KnownEvent[], readonly TriggerOutcome[]>();

/**
 * The owed triggers of a round, in trace order, with their outcomes. Events of other types are
 * skipped. Computed once per `events` array, which must not change afterwards.
 */
export function triggerOutcomes(events: readonly KnownEvent[]): readonly TriggerOutcome[] {
  let outcomes = outcomesByEvents.get(events);
  if (outcomes === undefined) outcomesByEvents.set(events, (outcomes = outcomesOf(events)));
  return outcomes;
}

function outcomesOf(events: readonly KnownEvent[]): TriggerOutcome[] {
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
  /** Per key, how many of its outcomes earlier triggers took. */
  const taken = new Map<string, number>();
  for (const trigger of triggers) {
    if (trigger.delivery !== 'delivered') continue;
    const history = pointer.get(trigger.key) ?? [];
    const before = history.filter((event) => event.seq < trigger.seq);
    const last = before.at(-1);
    const activeAtTrigger = before.filter((event): event is PublishedEvent => event.type === 'published').at(-1);
    if (activeAtTrigger === undefined || last?.type === 'server_disabled') continue;
    const answers = history.filter((event) => event.type === 'server_disabled' || rolledBackFromOf(event) !== null);
    const crash = crashes.find((seq) => seq > trigger.seq) ?? Infinity;
    let index = taken.get(trigger.key) ?? 0;
    while (index < answers.length && (answers[index] as PublishedEvent | ServerDisabledEvent).seq < trigger.seq)
      index += 1;
    const next = answers[index];
    const outcome = next !== undefined && next.seq < crash ? next : null;
    if (outcome !== null) taken.set(trigger.key, index + 1);
    outcomes.push({ trigger, activeAtTrigger, outcome, crashed: outcome === null && crash < Infinity });
  }
  return outcomes;
}
