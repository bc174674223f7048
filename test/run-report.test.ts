import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catsim } from './support/run-cli.ts';

describe('catsim run --report', () => {
  it('refuses an unwritable report path before any round runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-report-'));
    const path = join(dir, 'missing', 'report.json');
    const { code, stdout, stderr } = await catsim(['run', '--rounds', '100000', '--report', path]);
    expect(stderr).toBe(
      `catsim: --report ${path}: cannot write there (the directory ${join(dir, 'missing')} does not exist)\n`,
    );
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });

  it('gives the same campaign digest on 0 and 2 workers, in the summary and the JSON report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-report-'));
    const args = (workers: string, file: string) => [
      'run',
      '--seed',
      '5',
      '--rounds',
      '4',
      '--workers',
      workers,
      '--determinism-every',
      '0',
      '--report',
      join(dir, file),
    ];
    const [inProcess, twoWorkers] = await Promise.all([catsim(args('0', 'a.json')), catsim(args('2', 'b.json'))]);
    expect([inProcess.code, twoWorkers.code]).toEqual([0, 0]);
    const a = JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8'));
    const b = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8'));
    expect(a.campaignDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(b.campaignDigest).toBe(a.campaignDigest);
    const line = `campaign digest: ${a.campaignDigest} (sha256 over every round's trace digest, in round order)\n`;
    expect(inProcess.stdout).toContain(line);
    expect(twoWorkers.stdout).toContain(line);
    // Everything but the real-time figures is the same report.
    const strip = (report: Record<string, unknown>) => JSON.stringify({ ...report, elapsedMs: 0, roundsPerSecond: 0 });
    expect(strip(b)).toBe(strip(a));
  });
});
