import { describe, expect, it } from 'vitest';
import { ajvFor, compilePinned, COMPILES_PER_INSTANCE } from './internal/ajv-pool.ts';
import { DEFAULT_TRUST, DIALECT_DRAFT_07 } from './trust.ts';

/** The ids an instance knows, to compare before and after a compile. */
function registries(dialect: '2020-12' | 'draft-07'): { refs: string[]; schemas: string[] } {
  const ajv = ajvFor(dialect, DEFAULT_TRUST);
  return { refs: Object.keys(ajv.refs).sort(), schemas: Object.keys(ajv.schemas).sort() };
}

describe('ajv pool (internal)', () => {
  it('reuses one instance per dialect and trust configuration', () => {
    expect(ajvFor('2020-12', DEFAULT_TRUST)).toBe(ajvFor('2020-12', DEFAULT_TRUST));
    expect(ajvFor('2020-12', DEFAULT_TRUST)).not.toBe(ajvFor('draft-07', DEFAULT_TRUST));
    expect(ajvFor('2020-12', { ...DEFAULT_TRUST, schemaDepthMax: 8 })).not.toBe(ajvFor('2020-12', DEFAULT_TRUST));
  });

  it('rolls back embedded $ids and meta-schema ids after every compile, failed or not', () => {
    const before = { modern: registries('2020-12'), draft07: registries('draft-07') };
    compilePinned({ type: 'object', $defs: { v: { $id: 'urn:catsim:v', type: 'string' } } }, '2020-12', DEFAULT_TRUST);
    compilePinned({ $schema: DIALECT_DRAFT_07, $id: 'http://json-schema.org/draft-07/schema#', type: 'object' }, 'draft-07', DEFAULT_TRUST);
    expect(() => compilePinned({ $id: 5, type: 'object' }, 'draft-07', DEFAULT_TRUST)).toThrow();
    expect(() => compilePinned({ type: 'object', $defs: { v: { $id: 'urn:catsim:w' } }, properties: { a: { type: 12 } } }, '2020-12', DEFAULT_TRUST)).toThrow();
    expect({ modern: registries('2020-12'), draft07: registries('draft-07') }).toEqual(before);
  });

  it('replaces an instance after COMPILES_PER_INSTANCE compiles; older validators keep working', () => {
    const trust = { ...DEFAULT_TRUST, toolCountMax: 7 };
    const first = ajvFor('2020-12', trust);
    const early = compilePinned({ type: 'object', required: ['a'] }, '2020-12', trust);
    for (let count = 2; count < COMPILES_PER_INSTANCE; count += 1) compilePinned({ type: 'object', maxProperties: count }, '2020-12', trust);
    expect(ajvFor('2020-12', trust)).toBe(first);
    compilePinned({ type: 'object' }, '2020-12', trust);
    expect(ajvFor('2020-12', trust)).not.toBe(first);
    expect([early({ a: 1 }), early({})]).toEqual([true, false]);
  });
});
