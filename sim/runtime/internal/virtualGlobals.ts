/**
 * Swaps the timer globals and `Date` for virtual ones while a round runs.
 *
 * Fault model: none injected. What can go wrong is leakage in either direction: a real timer
 * armed by something else on this thread while a round runs lands on the world's queue (so
 * nothing else may arm timers then), and code that captured `setTimeout` or `Date` before the
 * round (`const { setTimeout } = globalThis` at module load, `node:timers` imports,
 * `timers/promises`) keeps the real ones. The SDK 1.32.2 resolves these globals at call time, so
 * its request timeouts and `Date.now()` reads land here. `setImmediate`, `queueMicrotask`,
 * `process.nextTick` and `performance.now()` are deliberately left real: the world drains promise
 * jobs through a saved `setImmediate`.
 */
import { nodeDelayMs, VirtualTimeout, type TimerHost } from './virtualTimeout.ts';

/** What the virtual globals read and schedule through. */
export interface VirtualHost extends TimerHost {
  now(): number;
}

type TimerCallback = (...args: unknown[]) => void;

/** The globals this module replaces, typed loosely so the fakes can be assigned. */
interface PatchableGlobals {
  setTimeout: unknown;
  clearTimeout: unknown;
  setInterval: unknown;
  clearInterval: unknown;
  Date: unknown;
}

const GLOBAL_NAMES = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] as const;

/** Captured at module load so a round can never be handed a fake as "the real one". */
const RealDate = Date;
const realClearTimeout = clearTimeout;

/** Installs the fakes on `globalThis` and returns the function that puts the originals back. */
export function installVirtualGlobals(host: VirtualHost): () => void {
  const target = globalThis as unknown as PatchableGlobals;
  const saved = GLOBAL_NAMES.map((name) => [name, target[name]] as const);
  Object.assign(target, createTimerFakes(host), { Date: createVirtualDate(() => host.now()) });
  return () => {
    for (const [name, original] of saved) target[name] = original;
  };
}

function createTimerFakes(host: TimerHost): Omit<PatchableGlobals, 'Date'> {
  const registry = new Map<number, VirtualTimeout>();
  let lastTimerId = 0;
  const arm =
    (repeat: boolean) =>
    (callback: unknown, delay?: unknown, ...args: unknown[]) => {
      if (typeof callback !== 'function') {
        throw new TypeError('The "callback" argument must be of type function');
      }
      const delayMs = nodeDelayMs(delay);
      return new VirtualTimeout(host, callback as TimerCallback, args, delayMs, repeat, ++lastTimerId, registry);
    };
  const clear = (handle: unknown): void => clearHandle(registry, handle);
  return { setTimeout: arm(false), setInterval: arm(true), clearTimeout: clear, clearInterval: clear };
}

/** Clears a virtual handle or its numeric id; anything else is passed to the real clearTimeout. */
function clearHandle(registry: Map<number, VirtualTimeout>, handle: unknown): void {
  if (handle instanceof VirtualTimeout) return handle.clear();
  if (typeof handle === 'number' || typeof handle === 'string') {
    const timer = registry.get(Number(handle));
    if (timer !== undefined) return timer.clear();
  }
  // A real timer armed before the round (say by the test runner) must still be clearable.
  if (handle !== undefined && handle !== null) realClearTimeout(handle as Parameters<typeof clearTimeout>[0]);
}

/**
 * A `Date` whose `Date.now()` and argument-less `new Date()` read virtual ms (so the epoch is
 * virtual time 0, i.e. 1970-01-01T00:00:00Z); everything else is the real `Date`, including
 * `Date()` called as a function, which returns the virtual now as a string like the real one.
 */
function createVirtualDate(now: () => number): DateConstructor {
  class VirtualDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now());
      else super(...(args as [number, number]));
    }

    static override now(): number {
      return now();
    }

    // Dates made before the round, or by code that captured the real Date, are still Dates.
    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof RealDate;
    }
  }
  // A class cannot be called without `new`; the proxy restores `Date()`'s string form.
  return new Proxy(VirtualDate, {
    apply: () => new RealDate(now()).toString(),
  }) as unknown as DateConstructor;
}
