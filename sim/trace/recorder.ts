/**
 * Records one round's trace (docs/TRACE.md): world events (ground truth) and core events
 * (observations) interleaved in the order they happened, each stamped with `seq` and virtual `t`.
 * Events are stored as plain objects whose key order is the written order, so serialising them
 * gives the same bytes on every machine.
 *
 * Both kinds are typed by the one definition of the format (contract/trace/): a world event's
 * fields are checked by the compiler at every `world(type, fields)` call, and every observation a
 * core emits is checked at run time against the contract before it enters the trace. The first
 * observation outside the contract is kept as the round's `breach` (and left out of the trace);
 * `runRound` turns it into a `CoreContractError` once the round is over, so the failure names the
 * emitting event even if the core swallows errors thrown at it.
 */
import { createHash } from 'node:crypto';
import { observationProblem } from '../../contract/trace/observation-problem.ts';
import type {
  CoreObservation,
  TraceEvent,
  TraceEventOf,
  TraceHeader,
  WorldEventType,
  WorldFields,
} from '../../contract/trace/types.ts';
import { plainClone } from '../internal/plain-clone.ts';

export type { TraceEvent, TraceHeader } from '../../contract/trace/types.ts';

/** The fields argument of `world(type, ...)`: none for an event without fields of its own. */
type WorldFieldsArg<T extends WorldEventType> = keyof WorldFields<T> extends never
  ? [fields?: WorldFields<T>]
  : [fields: WorldFields<T>];

/**
 * The first breach of a round: an observation outside the contract (its would-be seq and the
 * problem), or a rule of the core API the core broke (`rule`: the rule's name in
 * docs/CORE-API.md, e.g. `When a session counts as open`; `seq`: the trace's length then).
 */
export interface RecordedBreach {
  readonly seq: number;
  readonly problem: string;
  readonly rule?: string;
}

/** Collects the events of one round. */
export class TraceRecorder {
  readonly events: TraceEvent[] = [];
  /**
   * Called with each event right after it entered the trace (world events and admitted
   * observations alike); it must not change the event. The early end reads the trace through it.
   */
  listener: ((event: TraceEvent) => void) | undefined;
  #breach: RecordedBreach | null = null;

  constructor(private readonly now: () => number) {}

  /** The first observation outside the contract, or null while every one followed it. */
  get breach(): RecordedBreach | null {
    return this.#breach;
  }

  /**
   * Records that the core broke a rule of the core API the oracle cannot judge around (the first
   * breach of the round wins); `runRound` ends the round with it as a `CoreContractError`.
   */
  breakRule(rule: string, problem: string): void {
    if (this.#breach === null) this.#breach = { seq: this.events.length, problem, rule };
  }

  /** Records a ground-truth event; its fields are typed by the contract for `type`. */
  world<T extends WorldEventType>(type: T, ...[fields]: WorldFieldsArg<T>): void {
    const event = {
      seq: this.events.length,
      t: this.now(),
      src: 'world',
      type,
      ...fields,
    } as unknown as TraceEventOf<T>;
    this.events.push(event);
    this.listener?.(event);
  }

  /** The sink the core writes its observations to; each is copied and checked against the contract. */
  readonly core = {
    emit: (observation: CoreObservation): void => {
      const copy = plainClone(observation) as Readonly<Record<string, unknown>>;
      this.#admit(copy, { seq: this.events.length, t: this.now(), src: 'core', ...copy });
    },
  };

  #admit(observation: Readonly<Record<string, unknown>>, event: Readonly<Record<string, unknown>>): void {
    if (this.#breach !== null) return;
    const problem = observationProblem(observation, event);
    if (problem !== null) this.#breach = { seq: this.events.length, problem };
    else {
      this.events.push(event as unknown as TraceEvent);
      this.listener?.(event as unknown as TraceEvent);
    }
  }
}

/** The trace as JSON lines (header first), newline-terminated. */
export function traceText(header: TraceHeader, events: readonly TraceEvent[]): string {
  const lines = [JSON.stringify(header)];
  for (const event of events) lines.push(JSON.stringify(event));
  return `${lines.join('\n')}\n`;
}

/** sha256 of the trace text: equal digests mean byte-identical traces. */
export function traceDigest(header: TraceHeader, events: readonly TraceEvent[]): string {
  return createHash('sha256').update(traceText(header, events), 'utf8').digest('hex');
}
