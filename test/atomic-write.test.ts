import { chmodSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertWritable, writeFileAtomically, writeOutputTo, type AtomicWriteFs } from '../cli/output.ts';

// Issue 35 item 5: a write that failed half-way (a full disk) left the requested path truncated
// and destroyed the good file that was there. Every output now goes to a temporary file beside
// it and is renamed over it, so the path holds the old file or the whole new one.
describe('outputs are written atomically', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-atomic-'));

  /** The node calls, except that the write stores the first 10 characters and then fails with ENOSPC. */
  const fullDisk: AtomicWriteFs = {
    writeFileSync: (path, text) => {
      writeFileSync(path, text.slice(0, 10));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    },
    renameSync: (from, to) => {
      throw new Error(`must not rename ${from} to ${to}`);
    },
    unlinkSync: (path) => execFileSync('rm', ['-f', path]),
  };

  it('a write that fails half-way leaves the previous good file as it was, and no temporary file', () => {
    const path = join(dir, 'report.json');
    writeFileSync(path, '{"previous": "good"}\n');
    expect(() => writeFileAtomically(path, '{"new": "report that does not fit"}\n', fullDisk)).toThrow('ENOSPC');
    expect(readFileSync(path, 'utf8')).toBe('{"previous": "good"}\n');
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('the failed write goes to the fallback file, and the requested path keeps its previous content', () => {
    const path = join(dir, 'kept.json');
    writeFileSync(path, 'old');
    let calls = 0;
    // The first write (the requested path) fails half-way, the fallback's succeeds.
    const where = writeOutputTo(
      { path, what: 'report', stem: 'catsim-atomic-test', extension: '.json' },
      'new text',
      (target, text) => {
        calls += 1;
        writeFileAtomically(target, text, calls === 1 ? fullDisk : undefined);
      },
    );
    expect(where).toBe(join(tmpdir(), `catsim-atomic-test-${process.pid}.json`));
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readFileSync(where!, 'utf8')).toBe('new text');
  });

  it('a file that is written replaces the old one whole, keeps its permission bits and a symbolic link to it', () => {
    const target = join(dir, 'target.xml');
    writeFileSync(target, 'old old old old');
    chmodSync(target, 0o640);
    const link = join(dir, 'link.xml');
    symlinkSync(target, link);
    writeFileAtomically(link, 'new');
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(statSync(target).mode & 0o777).toBe(0o640);
    expect(readFileSync(link, 'utf8')).toBe('new');
  });

  it('a device is written in place, not replaced: /dev/null stays a device', () => {
    writeFileAtomically('/dev/null', 'nothing');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  // Issue 35 item 10 (last point): a named pipe nobody reads blocked catsim for ever.
  it('a named pipe as an output is refused like a directory', () => {
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    expect(() => assertWritable(fifo, '--report')).toThrow(
      `--report ${fifo}: cannot write there (it is a named pipe (FIFO): catsim writes files, and a pipe nobody reads would block it for ever)`,
    );
  });
});
