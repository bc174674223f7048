/** Multiset comparison of digest lists, used wherever order does not matter (I1, I12). */

/** How `actual` differs from `expected` as multisets; both lists sorted, empty when equal. */
export interface MultisetDiff {
  /** Items `expected` holds more often than `actual`, repeated once per missing copy. */
  readonly missing: string[];
  /** Items `actual` holds more often than `expected`, repeated once per extra copy. */
  readonly extra: string[];
}

/** Compares two lists as multisets in linear time (plus sorting the differences for evidence). */
export function multisetDiff(expected: readonly string[], actual: readonly string[]): MultisetDiff {
  const balance = new Map<string, number>();
  for (const item of expected) balance.set(item, (balance.get(item) ?? 0) + 1);
  for (const item of actual) balance.set(item, (balance.get(item) ?? 0) - 1);
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [item, count] of balance) {
    for (let i = 0; i < count; i += 1) missing.push(item);
    for (let i = 0; i < -count; i += 1) extra.push(item);
  }
  return { missing: missing.sort(), extra: extra.sort() };
}

/** Whether two lists hold the same items the same number of times, in linear time. */
export function sameMultiset(expected: readonly string[], actual: readonly string[]): boolean {
  if (expected.length !== actual.length) return false;
  const balance = new Map<string, number>();
  for (const item of expected) balance.set(item, (balance.get(item) ?? 0) + 1);
  for (const item of actual) {
    const count = balance.get(item);
    if (count === undefined || count === 0) return false;
    balance.set(item, count - 1);
  }
  return true;
}
