import { describe, expect, it } from 'vitest';
import { BoundedMemo } from './bounded-memo.ts';

/** A memo of 3 entries a generation and a log of the keys it computed. */
function memo(): { memo: BoundedMemo<string>; computed: string[]; get: (key: string) => string } {
  const computed: string[] = [];
  const m = new BoundedMemo<string>(3);
  return { memo: m, computed, get: (key) => m.get(key, () => (computed.push(key), `v:${key}`)) };
}

describe('BoundedMemo (two generations)', () => {
  it('computes each key once while it is used', () => {
    const { computed, get } = memo();
    expect(['a', 'b', 'a', 'c', 'b'].map(get)).toEqual(['v:a', 'v:b', 'v:a', 'v:c', 'v:b']);
    expect(computed).toEqual(['a', 'b', 'c']);
  });

  it('keeps the previous generation when the young one fills, and moves a hit back into the young one', () => {
    const { memo: m, computed, get } = memo();
    ['a', 'b', 'c', 'd'].forEach(get); // d starts a new generation: old {a, b, c}, young {d}
    expect(m.size).toBe(4);
    get('a'); // from the old generation into the young one: young {d, a}
    expect(computed).toEqual(['a', 'b', 'c', 'd']);
    ['e', 'f'].forEach(get); // young {d, a, e} is full, f rotates: old {d, a, e}, young {f}; b and c are forgotten
    expect(m.size).toBe(4);
    ['a', 'd', 'b'].forEach(get);
    expect(computed).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'b']);
  });

  it('serves a cyclic working set a little larger than one generation from memory', () => {
    // 4 keys over generations of 3 (worked by hand): every key of a pass is young or old, so after
    // the first pass nothing is computed again. A memo that clears itself at 3 computes every key
    // of every pass (20 here).
    const { computed, get } = memo();
    for (let pass = 0; pass < 5; pass++) ['a', 'b', 'c', 'd'].forEach(get);
    expect(computed).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rejects a generation size that is not a positive integer', () => {
    expect(() => new BoundedMemo(0)).toThrow(RangeError);
    expect(() => new BoundedMemo(1.5)).toThrow('memo generation size must be a positive integer, got 1.5');
  });
});
