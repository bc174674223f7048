/**
 * A fake Node `Timeout` whose firing is an event on the world's queue.
 *
 * Fault model: none injected; this mirrors Node's timer semantics so the SDK cannot tell the
 * difference. Delays are coerced like Node (NaN, < 1 or > 2^31-1 become 1; fractions are
 * truncated), intervals re-arm after their callback unless cleared inside it, and `refresh()`
 * re-arms a timer that has already fired. `ref`/`unref` only flip the flag `hasRef()` reports:
 * the round's horizon, not process liveness, decides when the world stops, so an unref'd timer
 * that falls before the horizon fires just as it would in a live process.
 */

/** What a virtual timer needs from the world. */
export interface TimerHost {
  after(delayMs: number, fn: () => void): number;
  cancel(eventId: number): void;
}

/** Node's largest timer delay; anything larger is coerced to 1 ms. */
const TIMEOUT_MAX_MS = 2 ** 31 - 1;

/** Coerces a delay the way Node's `setTimeout` does. */
export function nodeDelayMs(delay: unknown): number {
  const delayMs = Number(delay);
  return delayMs >= 1 && delayMs <= TIMEOUT_MAX_MS ? Math.trunc(delayMs) : 1;
}

/** One virtual timeout or interval; the handle returned by the fake `setTimeout`/`setInterval`. */
export class VirtualTimeout {
  private eventId: number | undefined;
  private refed = true;
  private cleared = false;

  constructor(
    private readonly host: TimerHost,
    private readonly callback: (...args: unknown[]) => void,
    private readonly args: unknown[],
    private readonly delayMs: number,
    private readonly repeat: boolean,
    /** The number `[Symbol.toPrimitive]` yields, accepted by the fake `clearTimeout`. */
    readonly timerId: number,
    /** Live timers by `timerId`, so a numeric id can be cleared; kept in sync on arm/settle. */
    private readonly registry: Map<number, VirtualTimeout>,
  ) {
    this.arm();
  }

  /** True while the timer will still fire. */
  get active(): boolean {
    return this.eventId !== undefined;
  }

  /** Cancels the timer; safe to call repeatedly. */
  clear(): void {
    this.cleared = true;
    this.disarm();
  }

  /** Like Node: restart the countdown from now, re-arming a fired timeout. */
  refresh(): this {
    if (this.cleared) return this;
    this.disarm();
    this.arm();
    return this;
  }

  ref(): this {
    this.refed = true;
    return this;
  }

  unref(): this {
    this.refed = false;
    return this;
  }

  hasRef(): boolean {
    return this.refed;
  }

  /** Node's `Timeout.close()`: same as clearing it. */
  close(): this {
    this.clear();
    return this;
  }

  [Symbol.toPrimitive](): number {
    return this.timerId;
  }

  private arm(): void {
    this.eventId = this.host.after(this.delayMs, () => this.fire());
    this.registry.set(this.timerId, this);
  }

  private disarm(): void {
    if (this.eventId !== undefined) this.host.cancel(this.eventId);
    this.eventId = undefined;
    this.registry.delete(this.timerId);
  }

  private fire(): void {
    this.eventId = undefined;
    if (!this.repeat) this.registry.delete(this.timerId);
    this.callback(...this.args);
    // Node re-arms an interval after its callback, unless the callback cleared it.
    if (this.repeat && !this.cleared && this.eventId === undefined) this.arm();
  }
}
