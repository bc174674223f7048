import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './support/run-main.ts';

// Issue 35 item 8 (third point): two campaigns writing one --report both exited 0 and one
// report was silently lost. The second is now refused before any round, by a lock beside it.
describe('one --report, one campaign at a time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-lock-'));

  it('a report locked by a live process (another campaign) is refused, exit 2', async () => {
    const report = join(dir, 'busy.json');
    // The parent of this test process is alive and is not this process: it stands for a campaign writing the report.
    writeFileSync(`${report}.catsim-lock`, `${process.ppid}\n`);
    expect(await runMain(['run', '--rounds', '1', '--workers', '0', '--no-progress', '--report', report])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: --report ${report} is being written by another catsim (process ${process.ppid}): a second writer on the same file would replace what the first writes; wait for it, or choose another path (lock: ${report}.catsim-lock)\n`,
    });
    expect(existsSync(report)).toBe(false);
  });

  it('a lock left by a process that is gone is taken over, and removed when the campaign ends', async () => {
    const report = join(dir, 'stale.json');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    writeFileSync(`${report}.catsim-lock`, `${gone}\n`);
    const { code } = await runMain([
      'run',
      '--rounds',
      '1',
      '--workers',
      '0',
      '--no-progress',
      '--no-shrink',
      '--report',
      report,
    ]);
    expect(code).not.toBe(2);
    expect(existsSync(report)).toBe(true);
    expect(existsSync(`${report}.catsim-lock`)).toBe(false);
  });

  // Issue 35 item 8: merge's outputs are locked as run's are.
  it('merge refuses a --report or --junit another catsim is writing, exit 2, before reading any report', async () => {
    const report = join(dir, 'merged-busy.json');
    const junit = join(dir, 'merged-busy.xml');
    writeFileSync(`${junit}.catsim-lock`, `${process.ppid}\n`);
    // The report to merge does not exist: the lock is refused first, and the --report lock taken before it is released.
    expect(await runMain(['merge', join(dir, 'absent.json'), '--report', report, '--junit', junit])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: --junit ${junit} is being written by another catsim (process ${process.ppid}): a second writer on the same file would replace what the first writes; wait for it, or choose another path (lock: ${junit}.catsim-lock)\n`,
    });
    expect([existsSync(report), existsSync(junit), existsSync(`${report}.catsim-lock`)]).toEqual([false, false, false]);
  });

  it('merge takes over a lock whose process is gone, writes, and removes its locks', async () => {
    const part = join(dir, 'part.json');
    expect(
      (await runMain(['run', '--rounds', '1', '--workers', '0', '--no-progress', '--no-shrink', '--report', part]))
        .code,
    ).not.toBe(2);
    const report = join(dir, 'merged-stale.json');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    writeFileSync(`${report}.catsim-lock`, `${gone}\n`);
    const merged = await runMain(['merge', part, '--report', report]);
    expect(merged.stderr).toBe('');
    expect(existsSync(report)).toBe(true);
    expect(existsSync(`${report}.catsim-lock`)).toBe(false);
  });
});
