import { describe, expect, it } from 'vitest';
import { COMPILES_PER_INSTANCE, SchemaCompiler } from './internal/schema-compiler.ts';
import { DEFAULT_TRUST, DIALECT_DRAFT_07 } from './trust.ts';

/** The ids an instance of `compiler` knows, to compare before and after a compile. */
function registries(compiler: SchemaCompiler, dialect: '2020-12' | 'draft-07'): { refs: string[]; schemas: string[] } {
  const ajv = compiler.ajvFor(dialect, DEFAULT_TRUST);
  return { refs: Object.keys(ajv.refs).sort(), schemas: Object.keys(ajv.schemas).sort() };
}

describe('SchemaCompiler: the ajv pool and the compile memo (internal)', () => {
  it('reuses one instance per dialect and trust configuration', () => {
    const compiler = new SchemaCompiler(1_000);
    expect(compiler.ajvFor('2020-12', DEFAULT_TRUST)).toBe(compiler.ajvFor('2020-12', DEFAULT_TRUST));
    expect(compiler.ajvFor('2020-12', DEFAULT_TRUST)).not.toBe(compiler.ajvFor('draft-07', DEFAULT_TRUST));
    expect(compiler.ajvFor('2020-12', { ...DEFAULT_TRUST, schemaDepthMax: 8 })).not.toBe(
      compiler.ajvFor('2020-12', DEFAULT_TRUST),
    );
  });

  it('shares nothing with another compiler: its own instances and its own memo', () => {
    const [one, other] = [new SchemaCompiler(1_000), new SchemaCompiler(1_000)];
    expect(one.ajvFor('2020-12', DEFAULT_TRUST)).not.toBe(other.ajvFor('2020-12', DEFAULT_TRUST));
    const schema = { type: 'object', required: ['a'] };
    const compiled = one.compilePinned(schema, '2020-12', DEFAULT_TRUST);
    expect(one.compilePinned(schema, '2020-12', DEFAULT_TRUST)).toBe(compiled);
    expect(other.compilePinned(schema, '2020-12', DEFAULT_TRUST)).not.toBe(compiled);
  });

  it('rolls back embedded $ids and meta-schema ids after every compile, failed or not', () => {
    const compiler = new SchemaCompiler(1_000);
    const compilePinned = compiler.compilePinned.bind(compiler);
    const before = { modern: registries(compiler, '2020-12'), draft07: registries(compiler, 'draft-07') };
    compilePinned({ type: 'object', $defs: { v: { $id: 'urn:catsim:v', type: 'string' } } }, '2020-12', DEFAULT_TRUST);
    compilePinned(
      { $schema: DIALECT_DRAFT_07, $id: 'http://json-schema.org/draft-07/schema#', type: 'object' },
      'draft-07',
      DEFAULT_TRUST,
    );
    expect(() => compilePinned({ $id: 5, type: 'object' }, 'draft-07', DEFAULT_TRUST)).toThrow();
    expect(() =>
      compilePinned(
        { type: 'object', $defs: { v: { $id: 'urn:catsim:w' } }, properties: { a: { type: 12 } } },
        '2020-12',
        DEFAULT_TRUST,
      ),
    ).toThrow();
    expect({ modern: registries(compiler, '2020-12'), draft07: registries(compiler, 'draft-07') }).toEqual(before);
  });

  it('replaces an instance after COMPILES_PER_INSTANCE compiles; older validators keep working', () => {
    const trust = { ...DEFAULT_TRUST, toolCountMax: 7 };
    const compiler = new SchemaCompiler(COMPILES_PER_INSTANCE);
    const [ajvFor, compilePinned] = [compiler.ajvFor.bind(compiler), compiler.compilePinned.bind(compiler)];
    const first = ajvFor('2020-12', trust);
    const early = compilePinned({ type: 'object', required: ['a'] }, '2020-12', trust);
    for (let count = 2; count < COMPILES_PER_INSTANCE; count += 1)
      compilePinned({ type: 'object', maxProperties: count }, '2020-12', trust);
    expect(ajvFor('2020-12', trust)).toBe(first);
    compilePinned({ type: 'object' }, '2020-12', trust);
    expect(ajvFor('2020-12', trust)).not.toBe(first);
    expect([early({ a: 1 }), early({})]).toEqual([true, false]);
  });
});
