/**
 * A virtual clock and scheduler for tests of the core: time moves only when the test says
 * (`advance`), tasks run in (time, sequence) order, and promise jobs are drained between steps
 * through `setImmediate` (the SDK's in-memory transport and the core only chain promises).
 */
import type { Clock, ScheduledTask, Scheduler } from '../../ports.ts';

interface Task {
  id: number;
  atMs: number;
  fn: () => void;
}

/** Virtual time for tests: implements the Clock and Scheduler ports. */
export class VirtualTime implements Clock, Scheduler {
  #nowMs = 0;
  #nextId = 0;
  #tasks: Task[] = [];

  /** Virtual ms since the test started. */
  now(): number {
    return this.#nowMs;
  }

  /** Queues `fn` at now + `delayMs` (negative delays count as 0). */
  after(delayMs: number, fn: () => void): ScheduledTask {
    const task = { id: this.#nextId++, atMs: this.#nowMs + Math.max(0, delayMs), fn };
    this.#tasks.push(task);
    return { id: task.id };
  }

  /** Drops a queued task; idempotent. */
  cancel(task: ScheduledTask): void {
    this.#tasks = this.#tasks.filter((candidate) => candidate.id !== task.id);
  }

  /** Drains pending promise jobs and I/O callbacks (several macrotask turns). */
  async settle(): Promise<void> {
    for (let turn = 0; turn < 20; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve)); // real-clock: test support, drains I/O of the in-memory SDK pair; no time is read
  }

  /** Runs every task due within `ms` from now, in (time, sequence) order, then sets the clock to now + ms. */
  async advance(ms: number): Promise<void> {
    const targetMs = this.#nowMs + ms;
    for (;;) {
      await this.settle();
      const next = this.#due(targetMs);
      if (next === undefined) break;
      this.#tasks = this.#tasks.filter((task) => task !== next);
      this.#nowMs = next.atMs;
      next.fn();
    }
    this.#nowMs = targetMs;
    await this.settle();
  }

  #due(targetMs: number): Task | undefined {
    let best: Task | undefined;
    for (const task of this.#tasks)
      if (
        task.atMs <= targetMs &&
        (best === undefined || task.atMs < best.atMs || (task.atMs === best.atMs && task.id < best.id))
      )
        best = task;
    return best;
  }
}
