/**
 * Point-in-time lookups over per-key event lists. The indexes keep each list in trace order, so
 * `seq` is strictly increasing and "the latest event before seq s" is a binary search: a check
 * that asks it once per disclosure stays O(n log n) over a trace instead of quadratic.
 */

/**
 * The last element of `sorted` (strictly increasing `seq`) whose seq is below `beforeSeq`, or
 * null when there is none.
 */
export function latestBefore<T extends { readonly seq: number }>(sorted: readonly T[], beforeSeq: number): T | null {
  return sorted[countBefore(sorted, beforeSeq) - 1] ?? null;
}

/**
 * How many elements of `sorted` (strictly increasing `seq`) have a seq below `beforeSeq`: the
 * index of the first element at or after it (`sorted.length` when there is none).
 */
export function countBefore(sorted: readonly { readonly seq: number }[], beforeSeq: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const item = sorted[middle];
    if (item !== undefined && item.seq < beforeSeq) low = middle + 1;
    else high = middle;
  }
  return low;
}
