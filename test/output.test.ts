import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertWritable, assertWritableDirectory } from '../cli/output.ts';

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

describe('assertWritableDirectory (host-test --out, serve --out)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-outdir-'));

  it('accepts an existing folder and a folder not made yet under one, and creates nothing', () => {
    expect(() => assertWritableDirectory(dir, '--out')).not.toThrow();
    expect(() => assertWritableDirectory(join(dir, 'a', 'b'), '--out')).not.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  // A file where the folder should be was found only after every case had run (exit 3, the reports lost).
  it('refuses a file, or a file on the way, naming the option, the path and the problem', () => {
    writeFileSync(join(dir, 'report.json'), '{}');
    expect(() => assertWritableDirectory(join(dir, 'report.json'), '--out')).toThrow(
      `--out ${join(dir, 'report.json')}: cannot write there (it is not a directory)`,
    );
    expect(() => assertWritableDirectory(join(dir, 'report.json', 'x'), '--out')).toThrow(
      `--out ${join(dir, 'report.json', 'x')}: cannot write there (${join(dir, 'report.json')} is not a directory)`,
    );
    expect(() => assertWritableDirectory('', '--out')).toThrow('--out: the path is empty');
  });

  // mkdirSync('/proc/x', { recursive: true }) never returns: host-test --out /proc/x hung after its cases.
  it.skipIf(!existsSync('/proc/self'))('refuses a folder under /proc at once', () => {
    expect(() => assertWritableDirectory('/proc/catsim-out', '--out')).toThrow(
      '--out /proc/catsim-out: cannot write there (cannot create a file in /proc: ENOENT)',
    );
  });
});
