/**
 * The percentile a campaign report prints for I7's propagation delays (p50, p99), by the
 * nearest-rank method: no interpolation, so the answer is always one of the measured values and
 * the same values give the same answer everywhere.
 */

/**
 * The nearest-rank `p`-th percentile of `sortedValues` (ascending): the value at rank
 * `ceil(p / 100 * n)` counting from 1, and the smallest value for `p` = 0. For example the p50 of
 * [10, 20, 30, 40] is 20 and its p99 is 40. Returns null for no values.
 *
 * @throws RangeError when `p` is not a number from 0 to 100.
 */
export function percentile(sortedValues: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be from 0 to 100, got ${p}`);
  if (sortedValues.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sortedValues.length));
  return sortedValues[rank - 1] ?? null;
}
