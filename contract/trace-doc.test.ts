/**
 * docs/TRACE.md is the document a user writing their own core reads; its field tables must be
 * exactly what contract/trace/ defines. When this fails, run
 * `npx tsx contract/scripts/trace-doc.ts --write` and review the diff.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withGeneratedTables } from './trace/doc.ts';

describe('docs/TRACE.md', () => {
  const doc = readFileSync(new URL('../docs/TRACE.md', import.meta.url), 'utf8');

  it('holds exactly the tables contract/trace/ generates', () => {
    expect(withGeneratedTables(doc)).toBe(doc);
  });

  it('refuses a document whose generated block lost its markers, naming the block', () => {
    const broken = doc.replace('<!-- END GENERATED codes -->', '');
    expect(() => withGeneratedTables(broken)).toThrow(
      'docs/TRACE.md: the generated block "codes" needs exactly one "<!-- BEGIN GENERATED codes (npx tsx contract/scripts/trace-doc.ts --write) -->" followed by "<!-- END GENERATED codes -->"',
    );
  });

  it('would notice a table edited by hand', () => {
    const edited = doc.replace('| `quiet` | (none) |', '| `quiet` | `why` (string) |');
    expect(edited).not.toBe(doc);
    expect(withGeneratedTables(edited)).toBe(doc);
  });
});
