/**
 * The world: one virtual clock and one event queue for simulator events and the SDK's timers.
 *
 * Fault model: the world injects no faults itself; it decides *when* everything happens. What can
 * go wrong in a round, and what the world does about it:
 * - a loop at one virtual instant (or a storm of events) — the event budget ends the round as
 *   `undecided/event_budget` instead of hanging it; every such round fails the gate;
 * - an event callback throws — the first error is recorded, the round stops, the globals are
 *   restored and `run` rethrows it (Node would crash on an uncaught timer error; so do we),
 *   except that a callback armed through the virtual `setTimeout`/`setInterval` goes to
 *   `timerFailure` when one is given (the round blames the core for it);
 * - `main` rejects — same: the round stops and `run` rethrows after cleanup;
 * - anything else on this thread arms a timer during a round (a progress bar, a worker pool, a
 *   test runner) — it lands on this queue and breaks determinism. That is forbidden: while a
 *   round runs, nothing else on the thread may call `setTimeout`/`setInterval` or read `Date`;
 * - two worlds running at once on one thread would fight over the globals — asserted against.
 */
import { EventQueue } from './internal/eventQueue.ts';
import { installVirtualGlobals } from './internal/virtualGlobals.ts';

/** How a `World.run` ended. Times are virtual ms. */
export interface RunResult {
  /** `settled`: the round reached quiet, its horizon or `stop`. `undecided`: the event budget ran out. */
  status: 'settled' | 'undecided';
  /**
   * `quiet`: no events left; `horizon`: the next event lies after the horizon; `done`: an event
   * called `stop` (the round's work was done before its horizon); or the budget.
   */
  reason: 'quiet' | 'horizon' | 'done' | 'event_budget';
  /** Events run by this call of `run` (cancelled events are not counted). */
  eventsRun: number;
  /** The virtual clock when the run stopped (the horizon itself when `reason` is `horizon`). */
  endedAtMs: number;
}

/** Options of a world. */
export interface WorldOptions {
  /** Maximum number of events one `run` may execute before it gives up as `undecided`. */
  eventBudget: number;
  /**
   * Where a throw from a callback armed through the virtual timer globals (`setTimeout`,
   * `setInterval` during a round: the core's own timers, or its client's) goes. Without it such
   * a throw ends the run like any event's; with it the run goes on (the round records the
   * core's failure). Events scheduled through `schedule`/`after` are the simulator's: their
   * throws always end the run.
   */
  timerFailure?: (error: unknown) => void;
}

/** Saved before anything can patch it: the world drains promise jobs through it. */
const realSetImmediate = globalThis.setImmediate;

/** Shared across module copies, so even a duplicated import cannot run two worlds at once. */
const RUNNING_WORLD_KEY = Symbol.for('catsim.runtime.runningWorld');

/**
 * A virtual-time world. Order of calls: construct; optionally `schedule`/`after` initial events;
 * `run(horizonMs, main)` once per round (a later `run` continues from where the clock stopped).
 * Between runs the world is inert: its timers only exist on its own queue.
 */
export class World {
  /** The clock port handed to the core: `now()` in virtual ms. */
  readonly clock: { now(): number } = { now: () => this.nowMs };

  private readonly queue = new EventQueue();
  private readonly eventBudget: number;
  private readonly timerFailure: ((error: unknown) => void) | undefined;
  private nowMs = 0;
  private failure: { error: unknown } | undefined;
  private stopped = false;

  /** Throws RangeError if `eventBudget` is not a positive integer. */
  constructor(opts: WorldOptions) {
    if (!Number.isSafeInteger(opts.eventBudget) || opts.eventBudget < 1) {
      throw new RangeError(`eventBudget must be a positive integer, got ${opts.eventBudget}`);
    }
    this.eventBudget = opts.eventBudget;
    this.timerFailure = opts.timerFailure;
  }

  /** Virtual ms since the world began (starts at 0; integer as long as callers schedule integers). */
  now(): number {
    return this.nowMs;
  }

  /**
   * Runs `fn` at absolute virtual time `atMs`; events at the same time run in scheduling order.
   * Returns an id for `cancel`. Throws RangeError if `atMs` is not finite or lies in the past.
   */
  schedule(atMs: number, fn: () => void): number {
    if (!Number.isFinite(atMs) || atMs < this.nowMs) {
      throw new RangeError(`cannot schedule at ${atMs} ms: now is ${this.nowMs} ms`);
    }
    return this.queue.push(atMs, fn);
  }

  /** Runs `fn` `delayMs` virtual ms from now (`delayMs` >= 0). Returns an id for `cancel`. */
  after(delayMs: number, fn: () => void): number {
    return this.schedule(this.nowMs + delayMs, fn);
  }

  /**
   * Like `after`, for a background event: one that is no work the world owes the round (the
   * core's own timers, which the virtual `setTimeout`/`setInterval` arm too, and a watch's
   * checkpoints). `pendingForeground` does not count it. Throws as `schedule` does.
   */
  afterInBackground(delayMs: number, fn: () => void): number {
    const atMs = this.nowMs + delayMs;
    if (!Number.isFinite(atMs) || atMs < this.nowMs) {
      throw new RangeError(`cannot schedule at ${atMs} ms: now is ${this.nowMs} ms`);
    }
    return this.queue.push(atMs, fn, true);
  }

  /**
   * Scheduled events of the world's own that have not run: messages on a link, a fault's
   * planned act, a planner's step, a policy push or poll answer (everything but the background).
   */
  get pendingForeground(): number {
    return this.queue.foregroundSize;
  }

  /**
   * Ends the current run after the event that calls it, as `settled`/`done`: the events still
   * queued do not run. For a round whose work is done before its horizon (sim/tail/).
   */
  stop(): void {
    this.stopped = true;
  }

  /** Cancels a scheduled event; unknown or already-run ids are ignored. */
  cancel(id: number): void {
    this.queue.cancel(id);
  }

  /**
   * Ends the current run with `error`, which `run` rethrows after cleanup (the first failure
   * wins). For broken simulator invariants detected where a throw would be swallowed, e.g.
   * inside an SDK handler, which would turn it into a JSON-RPC error the core could observe.
   */
  fail(error: unknown): void {
    this.failure ??= { error };
  }

  /**
   * Runs the round: installs the virtual timer globals and `Date`, starts `main`, then runs
   * events in (time, sequence) order, draining all promise jobs before each one, until the queue
   * is quiet, the next event lies after `horizonMs`, or the event budget is spent. `main` may
   * stay pending (it is then abandoned). Rethrows, after restoring the globals, the first error
   * thrown by an event or by `main`. Throws if another world is running on this thread or if
   * `horizonMs` is before now.
   */
  async run(horizonMs: number, main: () => Promise<void> | void): Promise<RunResult> {
    if (!(horizonMs >= this.nowMs)) {
      throw new RangeError(`horizon ${horizonMs} ms is before now (${this.nowMs} ms)`);
    }
    this.claimThread();
    const restore = installVirtualGlobals({
      now: () => this.nowMs,
      after: (delayMs, fn) =>
        this.afterInBackground(delayMs, this.timerFailure === undefined ? fn : guarded(fn, this.timerFailure)),
      cancel: (id) => this.cancel(id),
    });
    try {
      this.failure = undefined;
      this.stopped = false;
      this.startMain(main);
      return await this.loop(horizonMs);
    } finally {
      restore();
      this.releaseThread();
    }
  }

  private async loop(horizonMs: number): Promise<RunResult> {
    let eventsRun = 0;
    let reason: RunResult['reason'] | undefined;
    for (;;) {
      await drainPromiseJobs();
      if (this.failure !== undefined) break;
      reason = this.stopReason(horizonMs, eventsRun);
      if (reason !== undefined) break;
      this.runNextEvent();
      eventsRun++;
    }
    await drainPromiseJobs();
    if (this.failure !== undefined) throw this.failure.error;
    const status = reason === 'event_budget' ? 'undecided' : 'settled';
    return { status, reason: reason!, eventsRun, endedAtMs: this.nowMs };
  }

  /** Why the loop must stop before the next event, or undefined to go on. */
  private stopReason(horizonMs: number, eventsRun: number): RunResult['reason'] | undefined {
    if (this.stopped) return 'done';
    const next = this.queue.peek();
    if (next === undefined) return 'quiet';
    if (next.atMs > horizonMs) {
      this.nowMs = horizonMs;
      return 'horizon';
    }
    return eventsRun >= this.eventBudget ? 'event_budget' : undefined;
  }

  private runNextEvent(): void {
    const event = this.queue.pop()!;
    this.nowMs = event.atMs;
    try {
      event.fn();
    } catch (error) {
      this.fail(error);
    }
  }

  private startMain(main: () => Promise<void> | void): void {
    try {
      Promise.resolve(main()).catch((error: unknown) => this.fail(error));
    } catch (error) {
      this.fail(error);
    }
  }

  private claimThread(): void {
    const slots = globalThis as unknown as Record<symbol, World | undefined>;
    if (slots[RUNNING_WORLD_KEY] !== undefined) {
      throw new Error('another World is already running on this thread');
    }
    slots[RUNNING_WORLD_KEY] = this;
  }

  private releaseThread(): void {
    const slots = globalThis as unknown as Record<symbol, World | undefined>;
    if (slots[RUNNING_WORLD_KEY] === this) slots[RUNNING_WORLD_KEY] = undefined;
  }
}

/** `fn`, with a throw handed to `onError` instead of escaping. */
function guarded(fn: () => void, onError: (error: unknown) => void): () => void {
  return () => {
    try {
      fn();
    } catch (error) {
      onError(error);
    }
  };
}

/** Resolves once every promise job queued so far (and every job those queue) has run. */
function drainPromiseJobs(): Promise<void> {
  return new Promise((resolve) => realSetImmediate(resolve));
}
