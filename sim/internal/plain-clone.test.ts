import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainClone } from './plain-clone.ts';

describe('plainClone', () => {
  it('gives what structuredClone gives, never sharing an object with the input (property, fixed seed)', () => {
    const data = fc.anything({
      withNullPrototype: true,
      withObjectString: true,
      withBoxedValues: false,
      withMap: true,
      withSet: true,
      withDate: true,
      withTypedArray: true,
      withSparseArray: true,
      withBigInt: true,
    });
    fc.assert(
      fc.property(data, (value) => {
        const clone = plainClone(value);
        expect(isDeepStrictEqual(clone, structuredClone(value))).toBe(true);
        if (typeof value === 'object' && value !== null) expect(clone).not.toBe(value);
      }),
      { seed: 20261130, numRuns: 500 },
    );
  });

  it('keeps undefined members, NaN, -0, holes, aliasing and cycles; drops symbol keys; refuses functions', () => {
    const shared = { x: 1 };
    const cyclic: Record<string, unknown> = {
      a: undefined,
      n: Number.NaN,
      z: -0,
      [Symbol('s')]: 1,
      left: shared,
      right: shared,
      holes: [1, , 3],
    };
    cyclic.self = cyclic;
    const clone = plainClone(cyclic);
    expect(Object.keys(clone)).toEqual(['a', 'n', 'z', 'left', 'right', 'holes', 'self']);
    expect('a' in clone && clone.a === undefined).toBe(true);
    expect(Number.isNaN(clone.n)).toBe(true);
    expect(Object.is(clone.z, -0)).toBe(true);
    expect(clone.left).toBe(clone.right);
    expect(clone.left).not.toBe(shared);
    expect(clone.self).toBe(clone);
    expect(1 in (clone.holes as unknown[])).toBe(false);
    const proto = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const protoClone = plainClone(proto);
    expect(Object.getPrototypeOf(protoClone)).toBe(Object.prototype);
    expect(isDeepStrictEqual(protoClone, structuredClone(proto))).toBe(true);
    expect(Object.keys(protoClone)).toEqual(['__proto__']);
    expect(() => plainClone({ f: () => 1 })).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
    expect(() => structuredClone({ f: () => 1 })).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
  });
});
