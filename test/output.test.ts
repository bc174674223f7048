import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertWritable } from '../cli/output.ts';

describe('assertWritable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-output-'));

  it('accepts a new file in an existing directory and an existing writable file', () => {
    expect(() => assertWritable(join(dir, 'new.json'), '--report')).not.toThrow();
    writeFileSync(join(dir, 'old.json'), '{}');
    expect(() => assertWritable(join(dir, 'old.json'), '--report')).not.toThrow();
  });

  it('names the option, the path and the problem', () => {
    const missing = join(dir, 'nope', 'r.json');
    expect(() => assertWritable(missing, '--report')).toThrow(
      `--report ${missing}: cannot write there (the directory ${join(dir, 'nope')} does not exist)`,
    );
    expect(() => assertWritable(dir, '--trace')).toThrow(`--trace ${dir}: cannot write there (it is a directory)`);
    writeFileSync(join(dir, 'file'), '');
    expect(() => assertWritable(join(dir, 'file', 'x.json'), '--out')).toThrow(
      `--out ${join(dir, 'file', 'x.json')}: cannot write there (${join(dir, 'file')} is not a directory)`,
    );
  });

  it.skipIf(process.getuid?.() === 0)('refuses a read-only file', () => {
    const path = join(dir, 'ro.json');
    writeFileSync(path, '{}');
    chmodSync(path, 0o444);
    expect(() => assertWritable(path, '--report')).toThrow(
      `--report ${path}: cannot write there (the file is not writable: EACCES)`,
    );
  });
});
