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
      code: 2, stdout: '',
      stderr: `catsim: --report ${report} is being written by another catsim (process ${process.ppid}): a second campaign on the same file would replace its report; wait for it, or choose another path (lock: ${report}.catsim-lock)\n`,
    });
    expect(existsSync(report)).toBe(false);
  });

  it('a lock left by a process that is gone is taken over, and removed when the campaign ends', async () => {
    const report = join(dir, 'stale.json');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(`${report}.catsim-lock`, `${gone}\n`);
    const { code } = await runMain(['run', '--rounds', '1', '--workers', '0', '--no-progress', '--no-shrink', '--report', report]);
    expect(code).not.toBe(2);
    expect(existsSync(report)).toBe(true);
    expect(existsSync(`${report}.catsim-lock`)).toBe(false);
  });
});
