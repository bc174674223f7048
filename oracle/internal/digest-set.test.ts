import { describe, expect, it } from 'vitest';
import { digestSetDiff, sameDigestSet } from './digest-set.ts';

describe('digestSetDiff', () => {
  it('ignores order and repeated copies', () => {
    expect(digestSetDiff(['c', 'a', 'b'], ['a', 'b', 'b', 'c', 'a'])).toEqual({ missing: [], extra: [] });
    expect(sameDigestSet(['a', 'b'], ['b', 'a', 'a'])).toBe(true);
  });

  it('reports each missing and extra distinct digest once, sorted', () => {
    expect(digestSetDiff(['d', 'a', 'b', 'b'], ['x', 'a', 'x', 'c'])).toEqual({
      missing: ['b', 'd'],
      extra: ['c', 'x'],
    });
    expect(sameDigestSet(['a', 'b', 'c'], ['a', 'b', 'b'])).toBe(false);
  });

  it('keeps two different digests distinct (two descriptors under one name)', () => {
    expect(digestSetDiff(['a1', 'a2'], ['a1'])).toEqual({ missing: ['a2'], extra: [] });
  });

  it('treats empty lists as the empty set', () => {
    expect(digestSetDiff([], [])).toEqual({ missing: [], extra: [] });
    expect(digestSetDiff([], ['a', 'a'])).toEqual({ missing: [], extra: ['a'] });
  });
});
