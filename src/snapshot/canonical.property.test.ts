import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jcs } from './canonical.ts';

/** What `jcs` returns or throws, as comparable data: the text, or the error's class and message. */
function outcome(write: () => string | undefined): { text: string | undefined } | { error: string } {
  try {
    return { text: write() };
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

/** The `canonicalize` package wrapped as `jcs` was before its fast path: TypeError for no JSON form. */
function packageJcs(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

describe('jcs fast path (plain data) against the canonicalize package', () => {
  it('writes the same text and throws the same errors for any value (fixed seed)', () => {
    const anything = fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withBoxedValues: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
      maxDepth: 5,
    });
    fc.assert(
      fc.property(anything, (value) => {
        expect(outcome(() => jcs(value))).toEqual(outcome(() => packageJcs(value)));
      }),
      { numRuns: 5_000, seed: 11 },
    );
  });

  it('leaves what the package treats specially to the package: holes, toJSON, functions, cycles', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    // The package joins a hole as nothing and a function member as the text "undefined".
    expect(jcs([1, , 3])).toBe('[1,,3]');
    expect(jcs({ f: () => 1, a: 1 })).toBe('{"a":1,"f":undefined}');
    expect(jcs({ b: { toJSON: () => 5 }, a: new Date(0) })).toBe('{"a":"1970-01-01T00:00:00.000Z","b":5}');
    expect(() => jcs(cycle)).toThrow('Circular reference detected');
    // Undefined and symbol members: left out of objects, null in arrays (and a lone-surrogate
    // key whose value is left out is never looked at).
    expect(jcs({ b: undefined, a: [undefined, Symbol('s')], '\udc00': undefined })).toBe('{"a":[null,null]}');
    // Keys in UTF-16 code-unit order: "B" (0x42) < "a" < "b" < "é" (0xE9) < "😀" (0xD83D...) < "\uffff".
    expect(jcs({ b: 1, a: 2, B: 3, é: 4, '😀': 5, '\uffff': 6 })).toBe('{"B":3,"a":2,"b":1,"é":4,"😀":5,"\uffff":6}');
  });

  // Issue 35 item 1: a real server may send a lone surrogate (legal JSON text); the package
  // throws on it, which made `catsim discover` a testbed failure. It is written as its escape.
  it('writes a lone surrogate in a string or key as its \\u escape, where the package throws', () => {
    expect(() => canonicalize({ a: '\ud800' })).toThrow('Lone surrogate is not allowed');
    expect(jcs({ a: 'x\ud800y' })).toBe('{"a":"x\\ud800y"}');
    expect(jcs({ 'k\udc00': [1, '\udbff'] })).toBe('{"k\\udc00":[1,"\\udbff"]}');
    // A well-formed pair is the character itself, as before.
    expect(jcs({ a: '\ud83d\ude00' })).toBe('{"a":"😀"}');
  });

  it('hands nesting past 512 levels to the package, with the same text', () => {
    let deep: unknown = 0;
    for (let level = 0; level < 600; level += 1) deep = [deep];
    expect(jcs(deep)).toBe(`${'['.repeat(600)}0${']'.repeat(600)}`);
  });
});
