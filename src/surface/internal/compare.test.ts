/**
 * The comparison both checks run, on hand-made surfaces: the classification rules of
 * surface-mismatch.ts, values a hook may leave behind (non-arrays, non-objects, throwing
 * getters), and the JSON-value helpers under it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SurfaceTool } from '../surface-tool.ts';
import { compareSurface } from './compare.ts';
import { copyJson, deepFreeze, firstDifference, jsonEqual, valueAt } from './json-value.ts';

const A: SurfaceTool = {
  name: 'a',
  description: 'tool a',
  inputSchema: { type: 'object', properties: { x: { type: 'string' } } },
};
const B: SurfaceTool = { name: 'b', description: 'tool b', inputSchema: { type: 'object' } };
const C: SurfaceTool = { name: 'c', description: 'tool c', inputSchema: { type: 'object', required: ['y'] } };
const EXPECTED = deepFreeze([A, B, C].map((tool) => copyJson(tool)));

const base = { check: 'early' as const, schemaPath: null };

describe('compareSurface', () => {
  it('equal surfaces, also as fresh copies with keys in another order', () => {
    expect(compareSurface(EXPECTED, copyJson(EXPECTED), 'early')).toBeUndefined();
    expect(
      compareSurface(
        EXPECTED,
        [
          { inputSchema: { properties: { x: { type: 'string' } }, type: 'object' }, description: 'tool a', name: 'a' },
          B,
          C,
        ],
        'final',
      ),
    ).toBeUndefined();
  });

  it('count: a list that is not one, fewer tools, and an admitted tool twice', () => {
    expect(compareSurface(EXPECTED, 'a, b, c', 'early')).toEqual({
      ...base,
      field: 'count',
      tool: null,
      index: null,
      expected: 3,
      actual: null,
    });
    expect(compareSurface(EXPECTED, [A, C], 'early')).toEqual({
      ...base,
      field: 'count',
      tool: 'b',
      index: null,
      expected: 3,
      actual: 2,
    });
    expect(compareSurface(EXPECTED, [A, B, C, B], 'early')).toEqual({
      ...base,
      field: 'count',
      tool: 'b',
      index: null,
      expected: 3,
      actual: 4,
    });
    expect(compareSurface(EXPECTED, [A, A, A, A], 'early')).toEqual({
      ...base,
      field: 'count',
      tool: 'b',
      index: null,
      expected: 3,
      actual: 4,
    });
  });

  it('unadmitted: an added tool, one without a string name, and a non-object among more tools', () => {
    expect(compareSurface(EXPECTED, [A, B, C, { ...B, name: 'z' }], 'final')).toEqual({
      ...base,
      check: 'final',
      field: 'unadmitted',
      tool: 'z',
      index: 3,
      expected: null,
      actual: 'z',
    });
    expect(compareSurface(EXPECTED, [A, { ...B, name: 7 }, B, C], 'early')).toEqual({
      ...base,
      field: 'unadmitted',
      tool: null,
      index: 1,
      expected: null,
      actual: 7,
    });
    expect(compareSurface(EXPECTED, [null, A, B, C], 'early')).toEqual({
      ...base,
      field: 'unadmitted',
      tool: null,
      index: 0,
      expected: null,
      actual: null,
    });
  });

  it('name: a rename, a rename onto another admitted name, a replacement by an unknown tool, a non-object', () => {
    expect(compareSurface(EXPECTED, [A, { ...B, name: 'b2' }, C], 'early')).toEqual({
      ...base,
      field: 'name',
      tool: 'b',
      index: 1,
      expected: 'b',
      actual: 'b2',
    });
    expect(compareSurface(EXPECTED, [A, { ...B, name: 'c' }, C], 'early')).toEqual({
      ...base,
      field: 'name',
      tool: 'b',
      index: 1,
      expected: 'b',
      actual: 'c',
    });
    expect(compareSurface(EXPECTED, [A, B, { name: 'helper', description: '', inputSchema: {} }], 'early')).toEqual({
      ...base,
      field: 'name',
      tool: 'c',
      index: 2,
      expected: 'c',
      actual: 'helper',
    });
    expect(compareSurface(EXPECTED, [A, 'b', C], 'early')).toEqual({
      ...base,
      field: 'name',
      tool: 'b',
      index: 1,
      expected: 'b',
      actual: null,
    });
  });

  it('order: the same names in another order, reported at the first position that differs', () => {
    expect(compareSurface(EXPECTED, [A, C, B], 'early')).toEqual({
      ...base,
      field: 'order',
      tool: 'b',
      index: 1,
      expected: 'b',
      actual: 'c',
    });
    expect(compareSurface(EXPECTED, [C, A, B], 'early')).toEqual({
      ...base,
      field: 'order',
      tool: 'a',
      index: 0,
      expected: 'a',
      actual: 'c',
    });
  });

  it('description before inputSchema, first position first', () => {
    expect(compareSurface(EXPECTED, [A, { ...B, description: 7 }, { ...C, description: 'x' }], 'early')).toEqual({
      ...base,
      field: 'description',
      tool: 'b',
      index: 1,
      expected: 'tool b',
      actual: 7,
    });
    expect(
      compareSurface(EXPECTED, [A, { ...B, inputSchema: { type: 'array' }, description: 'new' }, C], 'early'),
    ).toEqual({ ...base, field: 'description', tool: 'b', index: 1, expected: 'tool b', actual: 'new' });
    expect(
      compareSurface(EXPECTED, [A, B, { ...C, inputSchema: { type: 'object', required: ['y', 'z'] } }], 'early'),
    ).toEqual({
      ...base,
      field: 'inputSchema',
      tool: 'c',
      index: 2,
      expected: null,
      actual: 'z',
      schemaPath: '/required/1',
    });
    expect(
      compareSurface(EXPECTED, [{ ...A, inputSchema: { type: 'object', properties: {} } }, B, C], 'early'),
    ).toEqual({
      ...base,
      field: 'inputSchema',
      tool: 'a',
      index: 0,
      expected: null,
      actual: null,
      schemaPath: '/properties/x',
    });
    expect(compareSurface(EXPECTED, [A, { ...B, inputSchema: 'object' }, C], 'early')).toEqual({
      ...base,
      field: 'inputSchema',
      tool: 'b',
      index: 1,
      expected: null,
      actual: 'object',
      schemaPath: '',
    });
  });

  it('what cannot be read differs, and the comparison never throws', () => {
    const throwing = {
      name: 'a',
      description: 'tool a',
      get inputSchema(): never {
        throw new Error('no');
      },
    };
    expect(compareSurface(EXPECTED, [throwing, B, C], 'final')).toEqual({
      ...base,
      check: 'final',
      field: 'inputSchema',
      tool: 'a',
      index: 0,
      expected: null,
      actual: null,
      schemaPath: '',
    });
    const deep = {
      ...A,
      inputSchema: {
        type: 'object',
        properties: {
          get x(): never {
            throw new Error('no');
          },
        },
      },
    };
    expect(compareSurface(EXPECTED, [deep, B, C], 'final')).toMatchObject({
      field: 'inputSchema',
      tool: 'a',
      schemaPath: '',
    });
    const badList = new Proxy([A, B, C], {
      get: (target, key) =>
        key === 'length'
          ? (() => {
              throw new Error('no');
            })()
          : Reflect.get(target, key),
    });
    expect(compareSurface(EXPECTED, badList, 'early')).toEqual({
      ...base,
      field: 'count',
      tool: null,
      index: null,
      expected: 3,
      actual: null,
    });
    const flipping = {
      description: 'tool a',
      inputSchema: A.inputSchema,
      reads: 0,
      get name(): string {
        this.reads += 1;
        return this.reads === 1 ? 'c' : 'a';
      },
    };
    expect(compareSurface(EXPECTED, [flipping, B, C], 'early')).toEqual({
      ...base,
      field: 'name',
      tool: 'a',
      index: 0,
      expected: 'a',
      actual: 'c',
    });
  });
});

describe('JSON values', () => {
  it('jsonEqual: member order free, undefined members absent, arrays ordered, no coercion', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: '1' })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({ a: null }, { a: {} })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, toJSON: () => ({}) })).toBe(false);
    expect(jsonEqual(Number.NaN, Number.NaN)).toBe(false);
  });

  it('jsonEqual, keys in the same order (its fast path): inherited keys, undefined members and extra keys decided as in any order', () => {
    // b's for-in yields a's keys in order, but `y` is inherited: b has one member, a two.
    const inherited = Object.assign(Object.create({ y: 2 }) as Record<string, unknown>, { x: 1 });
    expect(jsonEqual({ x: 1, y: 2 }, inherited)).toBe(false);
    expect(jsonEqual({ x: 1 }, inherited)).toBe(true);
    expect(jsonEqual({ x: 1, y: undefined }, { x: 1, y: undefined })).toBe(true);
    expect(jsonEqual({ x: 1, y: undefined }, { x: 1, y: 2 })).toBe(false);
    expect(jsonEqual({ x: 1, y: 2 }, { x: 1, y: undefined })).toBe(false);
    expect(jsonEqual({ x: 1, y: { z: [1] } }, { x: 1, y: { z: [1] }, w: undefined })).toBe(true);
    expect(jsonEqual({ x: 1, y: 2 }, { x: 1 })).toBe(false);
    expect(jsonEqual({ x: 1 }, { x: 1, y: 2 })).toBe(false);
    expect(jsonEqual({ x: 1, y: { z: 1 } }, { x: 1, y: { z: 2 } })).toBe(false);
  });

  it('jsonEqual agrees with canonical JSON text (keys sorted) on generated values, copies, reorders and edits (fast-check, fixed seed)', () => {
    const canonical = (value: unknown): string =>
      JSON.stringify(value, (_key, member: unknown) =>
        typeof member === 'object' && member !== null && !Array.isArray(member)
          ? Object.fromEntries(
              Object.keys(member)
                .sort()
                .map((key) => [key, (member as Record<string, unknown>)[key]]),
            )
          : member,
      );
    /** A variant of `value`: each object's keys reversed, or an undefined member added, or one leaf changed, by `salt`. */
    const variant = (value: unknown, salt: number): unknown => {
      if (Array.isArray(value)) return value.map((member, index) => variant(member, salt + index));
      if (typeof value !== 'object' || value === null) return salt % 17 === 0 ? [value] : value;
      const entries = Object.entries(value).map(
        ([key, member], index) => [key, variant(member, salt * 3 + index)] as const,
      );
      const ordered = salt % 2 === 0 ? entries.reverse() : entries;
      return Object.fromEntries(salt % 5 === 0 ? [...ordered, ['\u0002unset', undefined]] : ordered);
    };
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.nat({ max: 1000 }), (value, salt) => {
        const other = variant(value, salt);
        expect(jsonEqual(value, other)).toBe(canonical(value) === canonical(other));
        expect(jsonEqual(value, copyJson(value))).toBe(true);
      }),
      { seed: 20261202, numRuns: 2000 },
    );
  });

  it('firstDifference and valueAt: RFC 6901 pointers, escapes included', () => {
    expect(firstDifference({ 'a/b': { 'c~d': 1 } }, { 'a/b': { 'c~d': 2 } })).toBe('/a~1b/c~0d');
    expect(valueAt({ 'a/b': { 'c~d': 1 } }, '/a~1b/c~0d')).toBe(1);
    expect(firstDifference({ a: 1 }, { a: 1, z: 2 })).toBe('/z');
    expect(firstDifference([1, 2], [1])).toBe('/1');
    expect(firstDifference({ a: 1 }, { a: 1 })).toBeUndefined();
    expect(valueAt({ a: [5] }, '/a/0')).toBe(5);
    expect(valueAt({ a: 1 }, '/a/b')).toBeUndefined();
  });

  it('copyJson shares no object; deepFreeze freezes all of it', () => {
    const original = { a: [{ b: 1 }], c: undefined };
    const copy = copyJson(original);
    expect(copy).toEqual({ a: [{ b: 1 }] });
    expect(copy.a).not.toBe(original.a);
    expect(copy.a[0]).not.toBe(original.a[0]);
    deepFreeze(copy);
    expect(Object.isFrozen(copy.a[0])).toBe(true);
    expect(Object.isFrozen(original.a[0])).toBe(false);
    const parsed = JSON.parse('{"__proto__":{"x":1},"y":2}') as Record<string, unknown>;
    const parsedCopy = copyJson(parsed);
    expect(Object.getPrototypeOf(parsedCopy)).toBe(Object.prototype);
    expect(Object.keys(parsedCopy)).toEqual(['__proto__', 'y']);
    expect(jsonEqual(parsed, parsedCopy)).toBe(true);
    expect(jsonEqual(parsed, { y: 2 })).toBe(false);
  });
});
