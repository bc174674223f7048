/**
 * Ports for hosts built outside the simulator in benchmarks: a virtual clock that moves only when
 * told, a scheduler that never runs anything (no real timers besides the SDK's own), and a sink
 * that counts observations without keeping them.
 */
import type { Clock, Observation, ObservationSink, ScheduledTask, Scheduler } from '../../src/ports.ts';

/** A clock that reads `nowMs`; nothing advances it unless a benchmark does. */
export class VirtualClock implements Clock {
  nowMs = 0;

  now(): number {
    return this.nowMs;
  }
}

/**
 * A scheduler that accepts tasks and never runs them: refresh loops, policy polls and call
 * timeouts stay armed forever, so a benchmark measures exactly the work it calls.
 */
export class NoopScheduler implements Scheduler {
  #nextId = 0;

  after(_delayMs: number, _fn: () => void): ScheduledTask {
    return { id: this.#nextId++ };
  }

  cancel(_task: ScheduledTask): void {}
}

/** A sink that counts observations by type and keeps none (memory stays flat over many calls). */
export class CountingSink implements ObservationSink {
  readonly counts = new Map<string, number>();

  emit(observation: Observation): void {
    this.counts.set(observation.type, (this.counts.get(observation.type) ?? 0) + 1);
  }
}
