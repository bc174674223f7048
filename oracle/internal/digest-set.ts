/**
 * Set comparison of digest lists, used wherever order does not matter (I1, I12). SPEC I1 speaks
 * of the server's true *set*: an exact copy of a descriptor served twice (a cursor-ignoring
 * server overlapping its pages) adds nothing a host could call, while two different descriptors
 * under one name are two different digests and stay distinct.
 */

/** How `actual` differs from `expected` as sets; both lists sorted, empty when equal. */
export interface DigestSetDiff {
  /** Digests in `expected` and not in `actual`. */
  readonly missing: string[];
  /** Digests in `actual` and not in `expected`. */
  readonly extra: string[];
}

/** Compares two lists as sets in linear time (plus sorting the differences for evidence). */
export function digestSetDiff(expected: readonly string[], actual: readonly string[]): DigestSetDiff {
  const want = new Set(expected);
  const have = new Set(actual);
  return {
    missing: [...want].filter((digest) => !have.has(digest)).sort(),
    extra: [...have].filter((digest) => !want.has(digest)).sort(),
  };
}

/** Whether two lists hold the same distinct digests. */
export function sameDigestSet(expected: readonly string[], actual: readonly string[]): boolean {
  const diff = digestSetDiff(expected, actual);
  return diff.missing.length === 0 && diff.extra.length === 0;
}
