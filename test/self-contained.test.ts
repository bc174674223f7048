import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Every tracked file that is text (no NUL byte), with its content. */
function trackedTexts(): { path: string; text: string }[] {
  const paths = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' }).split('\0').filter((path) => path !== '');
  return paths.map((path) => ({ path, text: readFileSync(path, 'utf8') })).filter(({ text }) => !text.includes('\0'));
}

// A clone holds everything its documents and comments point to: the design is docs/DESIGN.md,
// and nothing refers to files beside the repository. (The strings are built here, so that this
// file does not match itself.)
describe('the repository is self-contained', () => {
  const texts = trackedTexts();

  it('no tracked file refers to a path outside the repository', () => {
    const outside = [['..', 'shared'].join('/'), ['shared', 'SPEC'].join('/'), ['shared', 'seeds'].join('/'), ['mcp-facts', 'md'].join('.'), ['', 'work', ''].join('/')];
    const found = texts.flatMap(({ path, text }) => outside.filter((needle) => text.includes(needle)).map((needle) => `${path}: ${needle}`));
    expect(found).toEqual([]);
  });

  it('every "SPEC section N" a file cites is a section of docs/DESIGN.md', () => {
    const sections = new Set([...readFileSync('docs/DESIGN.md', 'utf8').matchAll(/^## (\d+a?)\. /gm)].map((match) => match[1]));
    expect(sections.size).toBe(17);
    const cited = new Map<string, string>();
    for (const { path, text } of texts) {
      for (const match of text.matchAll(/SPEC(?: sections?)? (\d+a?(?:(?:, | and |-)\d+a?)*)/g)) {
        for (const number of (match[1] as string).split(/, | and |-/)) if (!cited.has(number)) cited.set(number, path);
      }
    }
    expect(cited.size).toBeGreaterThan(10);
    expect([...cited].filter(([number]) => !sections.has(number)).map(([number, path]) => `SPEC section ${number} (${path})`)).toEqual([]);
  });
});
