/**
 * The clock of a black-box case: time is counted in wire events, never read from the wall. A
 * simulated server schedules its revision steps at "ticks" 1, 2, ...; a case trigger ("after page
 * 2 of walk 1") advances the clock by one tick, which runs the step due then. So a change happens
 * after the same request whatever the host's timing.
 */

/** The part of sim/runtime's World a SimCatalogServer uses, driven by wire events. */
export class WireClock {
  #tick = 0;
  readonly #due: Array<{ atMs: number; fn: () => void }> = [];

  /** Ticks fired so far (a server reads it as its virtual ms). */
  now(): number {
    return this.#tick;
  }

  /** Runs `fn` when the clock reaches tick `atMs`. Returns an id (unused). */
  schedule(atMs: number, fn: () => void): number {
    this.#due.push({ atMs, fn });
    return this.#due.length;
  }

  /** Runs `fn` right after the current step (a planned notification); the delay is ignored. */
  after(_delayMs: number, fn: () => void): number {
    queueMicrotask(fn);
    return 0;
  }

  /** Moves to the next tick and runs what is due, in scheduling order. */
  advance(): void {
    this.#tick += 1;
    const due = this.#due.filter((entry) => entry.atMs <= this.#tick);
    for (const entry of due) this.#due.splice(this.#due.indexOf(entry), 1);
    for (const entry of due) entry.fn();
  }
}
