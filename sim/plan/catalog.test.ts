import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogProblem, loadCatalog } from './catalog.ts';
import { ScenarioError } from './scenario.ts';

const tool = (name: string) => ({
  name,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
});
const file = (pages: unknown[]) => ({
  schema: 'catsim.catalog.v1',
  source: { command: 'x', serverInfo: { name: 's', version: '1' }, protocolVersion: '2025-11-25' },
  pages,
});
const page = (cursorIn: string | null, nextCursor: string | null, tools: unknown[]) => ({
  cursorIn,
  nextCursor,
  tools,
});

describe('loadCatalog', () => {
  it('loads the shipped catalogs with their tools in page order and a pool entry per tool', () => {
    const expected: Record<string, number> = { everything: 13, filesystem: 14, memory: 9 };
    for (const [name, count] of Object.entries(expected)) {
      const catalog = loadCatalog(`scenarios/catalogs/${name}.json`);
      expect(catalog.name).toBe(name);
      expect(catalog.tools).toHaveLength(count);
      expect(catalog.pool.map((entry) => entry.descriptor)).toEqual(catalog.tools);
    }
  });

  it('throws a ScenarioError naming the file and the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-catalog-'));
    const cases: [string, string, string][] = [
      ['missing.json', '', 'no such file'],
      ['garbage.json', '{"schema": ', 'not valid JSON (line 1, column 12)'],
      [
        'tool.json',
        JSON.stringify(file([page(null, null, [tool('a'), tool('b'), tool('c'), 'd'])])),
        '/pages/0/tools/3 must be object',
      ],
    ];
    for (const [name, text, problem] of cases) {
      const path = join(dir, name);
      if (text !== '') writeFileSync(path, text);
      expect(() => loadCatalog(path)).toThrow(ScenarioError);
      expect(() => loadCatalog(path)).toThrow(new ScenarioError(`${path}: ${problem}`));
    }
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('catalogProblem', () => {
  it('accepts a valid multi-page walk, where an empty string is a cursor', () => {
    expect(
      catalogProblem(file([page(null, '', [tool('a')]), page('', 'c2', [tool('b')]), page('c2', null, [])])),
    ).toBeUndefined();
  });

  it('names the first problem of the envelope', () => {
    expect(catalogProblem([])).toBe('the top level must be object');
    expect(catalogProblem({ ...file([]), schema: 'catsim.catalog.v0' })).toBe('/schema must be "catsim.catalog.v1"');
    expect(catalogProblem({ schema: 'catsim.catalog.v1', pages: [] })).toBe(
      "the top level must have required property 'source'",
    );
    expect(catalogProblem({ ...file([page(null, null, [tool('a')])]), extra: 1 })).toBe(
      'the top level must not have the property "extra"',
    );
    expect(catalogProblem(file([]))).toBe('/pages must NOT have fewer than 1 items');
    expect(catalogProblem(file([page(null, 3 as never, [])]))).toBe('/pages/0/nextCursor must be string or null');
    expect(catalogProblem(file([page(null, null, [{ name: 'a' }])]))).toBe(
      "/pages/0/tools/0 must have required property 'inputSchema'",
    );
    expect(catalogProblem(file([page(null, null, [{ name: '', inputSchema: {} }])]))).toBe(
      '/pages/0/tools/0/name must NOT have fewer than 1 characters',
    );
  });

  it('names broken cursor chains, duplicate names and an empty catalog', () => {
    expect(catalogProblem(file([page('c0', null, [tool('a')])]))).toBe(
      '/pages/0/cursorIn must be null (the first page is read without a cursor)',
    );
    expect(catalogProblem(file([page(null, 'c1', [tool('a')]), page('c9', null, [])]))).toBe(
      '/pages/1/cursorIn must equal /pages/0/nextCursor',
    );
    expect(catalogProblem(file([page(null, 'c1', [tool('a')]), page('c1', 'c1', []), page('c1', null, [])]))).toBe(
      '/pages/2/cursorIn repeats /pages/1/cursorIn (a cursor loop)',
    );
    expect(catalogProblem(file([page(null, 'c1', [tool('a')])]))).toBe(
      '/pages/0/nextCursor must be null (the last page ends the walk)',
    );
    expect(catalogProblem(file([page(null, 'c1', [tool('a')]), page('c1', null, [tool('a')])]))).toBe(
      '/pages/1/tools/0/name "a" repeats /pages/0/tools/0/name',
    );
    expect(catalogProblem(file([page(null, null, [])]))).toBe('the catalog has no tools');
  });
});
