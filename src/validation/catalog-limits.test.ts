import { describe, expect, it } from 'vitest';
import { catalogLimitProblem } from './catalog-limits.ts';
import { REFERENCE_TOOLS, tool } from './testing/support.ts';
import { DEFAULT_TRUST } from './trust.ts';

const OBJECT = { type: 'object' };

describe('catalogLimitProblem', () => {
  const tools = REFERENCE_TOOLS.filesystem;
  const bytes = tools.reduce((sum, descriptor) => sum + Buffer.byteLength(JSON.stringify(descriptor), 'utf8'), 0);

  it('passes the reference catalogs under the default limits', () => {
    expect(
      [REFERENCE_TOOLS.everything, REFERENCE_TOOLS.filesystem, REFERENCE_TOOLS.memory].map((list) =>
        catalogLimitProblem(list, DEFAULT_TRUST),
      ),
    ).toEqual([null, null, null]);
  });

  it('counts tools against toolCountMax', () => {
    expect(catalogLimitProblem(tools, { ...DEFAULT_TRUST, toolCountMax: 14 })).toBeNull();
    expect(catalogLimitProblem(tools, { ...DEFAULT_TRUST, toolCountMax: 13 })).toBe('TOO_MANY_TOOLS');
  });

  it('sums compact UTF-8 JSON bytes of every descriptor against catalogBytesMax', () => {
    expect(catalogLimitProblem(tools, { ...DEFAULT_TRUST, catalogBytesMax: bytes })).toBeNull();
    expect(catalogLimitProblem(tools, { ...DEFAULT_TRUST, catalogBytesMax: bytes - 1 })).toBe('CATALOG_TOO_LARGE');
  });

  it('reports the tool count first when both limits are passed', () => {
    expect(catalogLimitProblem(tools, { ...DEFAULT_TRUST, toolCountMax: 1, catalogBytesMax: 1 })).toBe(
      'TOO_MANY_TOOLS',
    );
  });

  it('counts a descriptor with no JSON form as 0 bytes when it fits the budget, and never throws', () => {
    const broken = tool('b', { type: 'object', maximum: 10n });
    const small = tool('a', OBJECT);
    const smallBytes = Buffer.byteLength(JSON.stringify(small), 'utf8');
    const trust = { ...DEFAULT_TRUST, catalogBytesMax: 2 * smallBytes };
    expect(catalogLimitProblem([broken, small, small], trust)).toBeNull();
    expect(catalogLimitProblem([broken, small, small, small], trust)).toBe('CATALOG_TOO_LARGE');
    expect(catalogLimitProblem([], { ...DEFAULT_TRUST, toolCountMax: 0, catalogBytesMax: 0 })).toBeNull();
  });
});
