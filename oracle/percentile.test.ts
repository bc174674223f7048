import { describe, expect, it } from 'vitest';
import { percentile } from './percentile.ts';

describe('percentile (nearest rank)', () => {
  it('answers one of the values, never an interpolation', () => {
    const values = [10, 20, 30, 40];
    expect([0, 25, 26, 50, 51, 75, 99, 100].map((p) => percentile(values, p))).toEqual([
      10, 10, 20, 20, 30, 30, 40, 40,
    ]);
  });

  it('gives p50 and p99 of a hundred values as the 50th and 99th', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect([percentile(values, 50), percentile(values, 99)]).toEqual([50, 99]);
  });

  it('answers the only value of a single-element list, and null for no values', () => {
    expect([percentile([7], 0), percentile([7], 99)]).toEqual([7, 7]);
    expect(percentile([], 50)).toBeNull();
  });

  it.each([-1, 101, Number.NaN])('refuses p = %s', (p) => {
    expect(() => percentile([1], p)).toThrow(RangeError);
  });
});
