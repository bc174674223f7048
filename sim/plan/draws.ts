/**
 * Small drawing helpers of the plan generators (sim/plan/generate.ts and the fault files), on a
 * given seeded stream.
 */
import type { Rng } from '../random.ts';
import type { Range } from './scenario-types.ts';

/**
 * `count` distinct integer times in [1, endMs), sorted; at most as many as there are whole ms in
 * that interval (a count beyond it is cut there, so a generator never loops forever).
 */
export function distinctTimes(rng: Rng, count: number, endMs: number): number[] {
  const last = Math.max(1, endMs - 1);
  const wanted = Math.min(count, last);
  const set = new Set<number>();
  while (set.size < wanted) set.add(rng.int(1, last));
  return [...set].sort((a, b) => a - b);
}

/** An integer drawn uniformly from an inclusive range. */
export function drawIn(rng: Rng, range: Range): number {
  return rng.int(range.min, range.max);
}

/** `length` lowercase hex digits. */
export function hexDigits(rng: Rng, length: number): string {
  return Array.from({ length }, () => rng.int(0, 15).toString(16)).join('');
}

/** The item at the drawn fraction `u` in [0, 1) of `items` (a pick whose draw was made before it was known what to pick from). */
export function pickAt<T>(u: number, items: readonly T[]): T | undefined {
  return items[Math.floor(u * items.length)];
}
