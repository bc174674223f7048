import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { domainDigest, jcs } from './canonical.ts';
import { descriptorDigest, EMPTY_PAGE_ROOT, pageDigest, pageRoot, snapshotDigest } from './digests.ts';

// Expected digests were computed outside Node with coreutils `sha256sum` over the literal
// canonical text (printf 'catsim.descriptor.v1\n{...}' | sha256sum) and Python's hashlib.
describe('digest test vectors (SPEC section 4)', () => {
  it('canonicalises per RFC 8785: sorted keys, no whitespace, ES number form', () => {
    expect(jcs({ b: 1, a: [true, null, 'x'], c: { z: 1e21, y: 0.5, x: -0 } })).toBe(
      '{"a":[true,null,"x"],"b":1,"c":{"x":0,"y":0.5,"z":1e+21}}',
    );
    expect(jcs({ '\u00e9': 1, e: 2 })).toBe('{"e":2,"\u00e9":1}');
  });

  it('digests a descriptor with key order irrelevant', () => {
    const tool = {
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      description: 'Echo.',
    };
    expect(descriptorDigest(tool)).toBe('a883507857ecb6037c08e2141ba1ca95a23777a4121c772ed2979b805bd87e62');
    const reordered = {
      description: 'Echo.',
      inputSchema: { properties: { text: { type: 'string' } }, type: 'object' },
      name: 'echo',
    };
    expect(descriptorDigest(reordered)).toBe(descriptorDigest(tool));
  });

  it('digests a page, keeping the empty-string cursor distinct from null', () => {
    expect(pageDigest({ cursorIn: null, cursorOut: '', revision: 7, tools: [] })).toBe(
      'b2ce3ff5475049148c68cca3a0185383ef7a3c2cea66ff003abe749a041ce8b2',
    );
    expect(pageDigest({ cursorIn: null, cursorOut: null, revision: 7, tools: [] })).not.toBe(
      'b2ce3ff5475049148c68cca3a0185383ef7a3c2cea66ff003abe749a041ce8b2',
    );
  });

  it('folds page digests into a root from 32 zero bytes', () => {
    const page = 'b2ce3ff5475049148c68cca3a0185383ef7a3c2cea66ff003abe749a041ce8b2';
    expect(pageRoot([])).toBe(EMPTY_PAGE_ROOT);
    expect(pageRoot([page])).toBe('1041ac2b31e4261cd1215733750891731408d1346757497e30307688a54a0d19');
    expect(pageRoot([page, page])).toBe('cdd678bf9714851bbffef11798c6780e99aa24ff898e36a35d3634101726292d');
    expect(() => pageRoot(['xyz'])).toThrow(TypeError);
  });
});

describe('snapshotDigest', () => {
  it('equals the domain digest of the whole artifact: the memoised tools change nothing (property, fixed seed)', () => {
    const tool = fc.record({
      name: fc.string(),
      source: fc.jsonValue(),
      verdict: fc.constantFrom('ok', 'BAD_NAME'),
      annotations: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: null }),
    });
    const artifact = fc.record({
      schema: fc.constant('toolCatalogSnapshot.v1'),
      serverIdentity: fc.string(),
      sourceRevision: fc.option(fc.integer(), { nil: null }),
      pages: fc.array(fc.record({ cursorIn: fc.option(fc.string(), { nil: null }), digest: fc.string() })),
      tools: fc.array(tool, { maxLength: 6 }),
      trustConfigDigest: fc.string(),
      extra: fc.option(fc.jsonValue(), { nil: undefined }),
    });
    fc.assert(
      fc.property(artifact, (value) => {
        expect(snapshotDigest(value)).toBe(domainDigest('catsim.snapshot.v1', value));
        // A second time through the warm memo, and with the tools in another order.
        expect(snapshotDigest(value)).toBe(domainDigest('catsim.snapshot.v1', value));
        const reversed = { ...value, tools: [...value.tools].reverse() };
        expect(snapshotDigest(reversed)).toBe(domainDigest('catsim.snapshot.v1', reversed));
      }),
      { seed: 8785, numRuns: 300 },
    );
  });

  it('canonicalises anything that is not an object with a tools array whole', () => {
    expect(snapshotDigest({ tools: 'none' })).toBe(domainDigest('catsim.snapshot.v1', { tools: 'none' }));
    expect(snapshotDigest([1, 2])).toBe(domainDigest('catsim.snapshot.v1', [1, 2]));
    expect(snapshotDigest({ b: undefined, tools: [undefined, { z: 1, a: 2 }] })).toBe(
      domainDigest('catsim.snapshot.v1', { tools: [null, { a: 2, z: 1 }] }),
    );
  });
});
