import { describe, expect, it } from 'vitest';
import { createRng, createStreams, deriveRoundSeed } from './random.ts';

describe('deriveRoundSeed', () => {
  it('is pinned for ("1", 0)', () => {
    expect(deriveRoundSeed('1', 0)).toBe('aa7c4c0a6ff2ca61');
  });

  it('differs per round and per campaign seed', () => {
    const seeds = new Set([deriveRoundSeed('1', 0), deriveRoundSeed('1', 1), deriveRoundSeed('2', 0)]);
    expect(seeds.size).toBe(3);
    expect(deriveRoundSeed('1', 1)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('rejects a negative or fractional round', () => {
    expect(() => deriveRoundSeed('1', -1)).toThrow(RangeError);
    expect(() => deriveRoundSeed('1', 0.5)).toThrow(RangeError);
  });
});

describe('createStreams', () => {
  const draw = (seed: string, name: string): number[] => {
    const rng = createStreams(seed).stream(name);
    return [rng.next(), rng.next(), rng.next()];
  };

  it('gives the same sequence for the same seed and name', () => {
    expect(draw('s', 'link')).toEqual(draw('s', 'link'));
  });

  it('keeps streams independent: drawing from one never shifts another', () => {
    const streams = createStreams('s');
    streams.stream('planner').next();
    streams.stream('planner').next();
    const link = streams.stream('link');
    expect([link.next(), link.next(), link.next()]).toEqual(draw('s', 'link'));
  });

  it('is seedrandom(seed + "/" + name)', () => {
    const direct = createRng('s/link');
    expect(draw('s', 'link')).toEqual([direct.next(), direct.next(), direct.next()]);
  });

  it('memoises a stream per name', () => {
    const streams = createStreams('s');
    expect(streams.stream('a')).toBe(streams.stream('a'));
  });
});

describe('Rng', () => {
  it('int stays within inclusive bounds and reaches both ends', () => {
    const rng = createRng('int');
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) seen.add(rng.int(3, 6));
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
    expect(() => rng.int(2, 1)).toThrow(RangeError);
    expect(() => rng.int(0.5, 1)).toThrow(RangeError);
  });

  it('chance respects 0 and 1 and rejects non-fractions', () => {
    const rng = createRng('chance');
    expect(rng.chance(0)).toBe(false);
    expect(rng.chance(1)).toBe(true);
    expect(() => rng.chance(1.5)).toThrow(RangeError);
    expect(() => rng.chance(Number.NaN)).toThrow(RangeError);
  });

  it('pick and shuffle are deterministic and do not mutate', () => {
    const items = [1, 2, 3, 4, 5];
    const a = createRng('x');
    const b = createRng('x');
    expect(a.shuffle(items)).toEqual(b.shuffle(items));
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(a.shuffle(items).sort()).toEqual(items);
    expect(items).toContain(a.pick(items));
    expect(() => a.pick([])).toThrow(RangeError);
  });
});
