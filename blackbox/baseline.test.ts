/**
 * `host-test --baseline FILE`: a bad file is refused in one line naming the file and the problem
 * (a user's shell shows exactly that line, exit 2).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBaseline } from './baseline.ts';

describe('loadBaseline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-baseline-'));

  it('reads the expected outcome of each CASE@TRANSPORT', () => {
    const path = join(dir, 'ok.json');
    writeFileSync(path, '{"expected": {"planted-defects@http": "FAILED", "non-object-schema@stdio": "HOST_FAILED"}}');
    expect([...loadBaseline(path)]).toEqual([
      ['planted-defects@http', 'FAILED'],
      ['non-object-schema@stdio', 'HOST_FAILED'],
    ]);
  });

  // Before, V8's message came through whole: `not JSON (Unexpected token 'o', "nonsense\n" is not valid JSON)`, two lines.
  it('a file that is not JSON is one line with where the parse failed', () => {
    const path = join(dir, 'bad.json');
    // "n" could still begin `null`; "no" cannot: the parse fails at column 2.
    writeFileSync(path, 'nonsense\n');
    expect(() => loadBaseline(path)).toThrow(`--baseline ${path}: not valid JSON (line 1, column 2)`);
    writeFileSync(path, '{"expected": {\n  "full-walk@http": "FAILED",\n}\n}\n');
    expect(() => loadBaseline(path)).toThrow(`--baseline ${path}: not valid JSON (line 3, column 1)`);
  });

  // Before: `--baseline /tmp: not JSON (EISDIR: illegal operation on a directory, read)`.
  it('a directory, a missing file and an empty path say so', () => {
    expect(() => loadBaseline(dir)).toThrow(`--baseline ${dir}: is a directory, not a file`);
    expect(() => loadBaseline(join(dir, 'none.json'))).toThrow(`--baseline ${join(dir, 'none.json')}: no such file`);
    expect(() => loadBaseline('')).toThrow('--baseline "": the path is empty');
  });

  it('a malformed entry is named', () => {
    const path = join(dir, 'entry.json');
    writeFileSync(path, '{"expected": {"full-walk@ftp": "FAILED"}}');
    expect(() => loadBaseline(path)).toThrow(
      `--baseline ${path}: entry "full-walk@ftp" is not CASE@http or CASE@stdio`,
    );
    writeFileSync(path, '{"expected": {"full-walk@http": "OK"}}');
    expect(() => loadBaseline(path)).toThrow(
      `--baseline ${path}: entry full-walk@http expects "OK", not one of FAILED, UNSUPPORTED, HOST_FAILED, UNDECIDED`,
    );
    writeFileSync(path, '{"expected": []}');
    expect(() => loadBaseline(path)).toThrow(`--baseline ${path}: needs {"expected": {"CASE@TRANSPORT": "OUTCOME"}}`);
  });
});
