import { describe, expect, it } from 'vitest';
import { countBefore, latestBefore } from './seq-search.ts';

const at = (...seqs: number[]): Array<{ seq: number }> => seqs.map((seq) => ({ seq }));

describe('latestBefore', () => {
  it('finds the last element strictly before a seq', () => {
    const list = at(2, 5, 9);
    expect([0, 2, 3, 5, 6, 9, 10].map((seq) => latestBefore(list, seq)?.seq ?? null)).toEqual([
      null,
      null,
      2,
      2,
      5,
      5,
      9,
    ]);
  });

  it('returns null on an empty list', () => {
    expect(latestBefore([], 4)).toBeNull();
  });

  it('counts the elements strictly before a seq', () => {
    const list = at(2, 5, 9);
    expect([0, 2, 3, 5, 6, 9, 10].map((seq) => countBefore(list, seq))).toEqual([0, 0, 1, 1, 2, 2, 3]);
    expect(countBefore([], 4)).toBe(0);
  });
});
