import { describe, expect, it } from 'vitest';
import { jsonDepth, measureJson } from './internal/json-measure.ts';
import { REFERENCE_TOOLS } from './testing/support.ts';

describe('JSON size and depth walks (internal)', () => {
  it('counts exactly the UTF-8 bytes of JSON.stringify', () => {
    const values: unknown[] = [
      ...REFERENCE_TOOLS.everything,
      null,
      true,
      false,
      0,
      -1.5e-7,
      'é€😀',
      '\u0000"\\',
      [],
      {},
      [[], {}, [null]],
      { 'ké y': ['x', 1, { a: false }] },
    ];
    expect(values.map((value) => measureJson(value, Number.MAX_SAFE_INTEGER))).toEqual(
      values.map((value) => ({ kind: 'json', bytes: Buffer.byteLength(JSON.stringify(value), 'utf8') })),
    );
  });

  it('stops at the limit, and reports values with no JSON form', () => {
    expect(measureJson({ a: 'xx' }, 10)).toEqual({ kind: 'json', bytes: 10 });
    expect(measureJson({ a: 'xx' }, 9)).toEqual({ kind: 'over' });
    const notJson: unknown[] = [
      undefined,
      () => 1,
      1n,
      Number.NaN,
      Infinity,
      Symbol('s'),
      new Date(0),
      new Map(),
      { a: undefined },
      [1, , 3],
      // A lone surrogate (issue 35 item 1) in a string or a key: JSON text can hold one, Unicode text cannot.
      '\ud800',
      { 'k\udc00': 1 },
      ['x\udbff'],
    ];
    expect(notJson.map((value) => measureJson(value, 1_000).kind)).toEqual(Array(notJson.length).fill('not-json'));
  });

  it('ends on cyclic input by running out of bytes', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(measureJson(cycle, 10_000)).toEqual({ kind: 'over' });
  });

  it('measures depth without recursion: scalars 0, {} 1, arrays and objects alike', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect([jsonDepth(1), jsonDepth({}), jsonDepth([{}, [[1]]]), jsonDepth({ a: { b: [] } }), jsonDepth(deep)]).toEqual(
      [0, 1, 3, 3, 100_000],
    );
  });
});
