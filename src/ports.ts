/**
 * Ports: every source of time, randomness, deferred work and observation the catalog core uses.
 *
 * The core never touches `Date`, `Math.random` or timers directly. A host embeds it with real
 * implementations (see {@link realClock}); the simulator passes virtual ones, so the same code
 * runs unchanged in both.
 */

import type { CoreObservation } from '../contract/trace/types.ts';

/** A monotone clock. `now()` returns milliseconds (integer in the simulator). */
export interface Clock {
  now(): number;
}

/** A source of uniform numbers in [0, 1). Used for back-off jitter only. */
export interface Random {
  next(): number;
}

/** Opaque handle of a scheduled callback. */
export type ScheduledTask = { readonly id: number };

/**
 * Deferred work. `after(delayMs, fn)` runs `fn` once, `delayMs` milliseconds (>= 0) from now;
 * `cancel` is idempotent and ignores handles that already ran.
 */
export interface Scheduler {
  after(delayMs: number, fn: () => void): ScheduledTask;
  cancel(task: ScheduledTask): void;
}

/**
 * One observation of the core, as plain JSON: a core event of the trace contract
 * (`catsim.trace.v1`, contract/trace/; docs/TRACE.md, "Core events") without `seq`, `t` and `src`,
 * which the sink stamps. `type` names the event; the compiler checks the other fields per type.
 */
export type Observation = CoreObservation;

/** Where the core reports what it did (the oracle's "observations"). */
export interface ObservationSink {
  emit(observation: Observation): void;
}

/** A sink that drops everything, for hosts that do not record observations. */
export const nullSink: ObservationSink = { emit: () => undefined };

/** Wall-clock implementation of {@link Clock} for hosts outside the simulator. */
export const realClock: Clock = { now: () => Date.now() }; // real-clock

/**
 * Wall-clock implementation of {@link Scheduler} for hosts outside the simulator, on the process's
 * timers (`setTimeout`). Each call returns an independent scheduler (its own task ids); `cancel`
 * of a task that ran or was cancelled does nothing.
 */
export function realScheduler(): Scheduler {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 0;
  return {
    after(delayMs, fn) {
      const task = { id: next++ };
      const run = (): void => {
        timers.delete(task.id);
        fn();
      };
      timers.set(task.id, setTimeout(run, delayMs)); // real-clock: the host's real timers, never used in a simulated round
      return task;
    },
    cancel(task) {
      const timer = timers.get(task.id);
      if (timer !== undefined) clearTimeout(timer); // real-clock
      timers.delete(task.id);
    },
  };
}
