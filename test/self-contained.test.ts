import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Every tracked file that is text (no NUL byte), with its content. */
function trackedTexts(): { path: string; text: string }[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '');
  return paths.map((path) => ({ path, text: readFileSync(path, 'utf8') })).filter(({ text }) => !text.includes('\0'));
}

// A clone holds everything its documents and comments point to: the design is docs/DESIGN.md,
// and nothing refers to files beside the repository. (The strings are built here, so that this
// file does not match itself.)
describe('the repository is self-contained', () => {
  const texts = trackedTexts();

  it('no tracked file refers to a path outside the repository', () => {
    const outside = [
      ['..', 'shared'].join('/'),
      ['shared', 'SPEC'].join('/'),
      ['shared', 'seeds'].join('/'),
      ['mcp-facts', 'md'].join('.'),
      ['', 'work', ''].join('/'),
    ];
    const found = texts.flatMap(({ path, text }) =>
      outside.filter((needle) => text.includes(needle)).map((needle) => `${path}: ${needle}`),
    );
    expect(found).toEqual([]);
  });

  it('every "SPEC section N" a file cites is a section of docs/DESIGN.md', () => {
    const sections = new Set(
      [...readFileSync('docs/DESIGN.md', 'utf8').matchAll(/^## (\d+a?)\. /gm)].map((match) => match[1]),
    );
    expect(sections.size).toBe(17);
    const cited = new Map<string, string>();
    for (const { path, text } of texts) {
      for (const match of text.matchAll(/SPEC(?: sections?)? (\d+a?(?:(?:, | and |-)\d+a?)*)/g)) {
        for (const number of (match[1] as string).split(/, | and |-/)) if (!cited.has(number)) cited.set(number, path);
      }
    }
    expect(cited.size).toBeGreaterThan(10);
    expect(
      [...cited]
        .filter(([number]) => !sections.has(number))
        .map(([number, path]) => `SPEC section ${number} (${path})`),
    ).toEqual([]);
  });
});

/** The top-level folders of the repository a document may name a path in. */
const REPO_FOLDERS = [
  'api',
  'bench',
  'bin',
  'blackbox',
  'cli',
  'contract',
  'cores',
  'docs',
  'examples',
  'oracle',
  'runner',
  'scenarios',
  'scripts',
  'sim',
  'src',
  'test',
];

/**
 * Paths in backticks that name no file of this repository on purpose, by document, each with why.
 * Every entry must still be named (the list cannot rot).
 */
const NAMED_ELSEWHERE: Record<string, Record<string, string>> = {
  'CONTRIBUTING.md': {
    'sim/faults/fNN-short-name.ts': 'the name a new fault file takes (NN its number)',
    'test/faults/fNN-short-name.test.ts': "the name of a new fault's hand-built test",
    'src/testing/': "TigerBeetle's folder, not this repository's",
  },
  'docs/CLI.md': {
    'scenarios/cases/NAME.json': 'the file of a black-box case named NAME',
  },
};

/** Every repository path `text` names in backticks (`sim/round.ts`, `cores/mutants/`), in order, once each. */
export function backtickedPaths(text: string): string[] {
  const pattern = new RegExp(`\`((?:${REPO_FOLDERS.join('|')})/[A-Za-z0-9_./-]*)\``, 'g');
  return [...new Set([...text.matchAll(pattern)].map((match) => match[1] as string))];
}

describe('every path a document names is there', () => {
  const documents = execFileSync('git', ['ls-files', '-z', '*.md'], { encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '');
  const named = documents.flatMap((document) =>
    backtickedPaths(readFileSync(document, 'utf8')).map((path) => ({ document, path })),
  );

  it('each `folder/file` in backticks in a tracked .md file exists (a move cannot leave a stale path behind)', () => {
    expect(named.length).toBeGreaterThan(100);
    const missing = named.filter(
      ({ document, path }) => !existsSync(path) && NAMED_ELSEWHERE[document]?.[path] === undefined,
    );
    expect(missing.map(({ document, path }) => `${document}: ${path}`)).toEqual([]);
  });

  it('every path named elsewhere on purpose is still named (the list cannot rot)', () => {
    const listed = Object.entries(NAMED_ELSEWHERE).flatMap(([document, paths]) =>
      Object.keys(paths).map((path) => `${document}: ${path}`),
    );
    const seen = new Set(named.map(({ document, path }) => `${document}: ${path}`));
    expect(listed.filter((entry) => !seen.has(entry))).toEqual([]);
  });

  it("finds paths in backticks only, under the repository's folders, once each", () => {
    const text =
      'See `sim/round.ts` and `cores/mutants/`, `sim/round.ts` again, sim/planner.ts bare, `node_modules/x.js`, `npm test`, `runner/campaign.ts`.';
    expect(backtickedPaths(text)).toEqual(['sim/round.ts', 'cores/mutants/', 'runner/campaign.ts']);
  });
});
