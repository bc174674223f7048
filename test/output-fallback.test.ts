import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { assertWritable, fallbackPath, writeOutput } from '../cli/output.ts';
import { runMain } from './support/run-main.ts';

// An output path must be proven writable before the work starts, and a write that still fails at
// the end must not lose what the work computed: the text goes to a named fallback file, exit 2.
describe('output paths are proven writable up front', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-probe-'));

  it('a directory where no file can be created (/proc, which root passes by permission bits) is refused before any round, exit 2', async () => {
    const result = await runMain(['run', '--rounds', '100000', '--report', '/proc/catsim-r.json']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --report /proc/catsim-r.json: cannot write there (cannot create a file in /proc: ENOENT)\n',
    });
    const junit = await runMain(['run', '--rounds', '100000', '--junit', '/sys/catsim.xml']);
    expect(junit).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --junit /sys/catsim.xml: cannot write there (cannot create a file in /sys: EACCES)\n',
    });
  });

  it('the probe touches no existing file and leaves nothing behind', () => {
    writeFileSync(join(dir, 'kept.json'), 'old content');
    assertWritable(join(dir, 'new.json'), '--report');
    assertWritable(join(dir, 'kept.json'), '--report');
    expect(readdirSync(dir)).toEqual(['kept.json']);
    expect(readFileSync(join(dir, 'kept.json'), 'utf8')).toBe('old content');
  });

  it('an empty path is named as such, not taken for the current directory', async () => {
    expect(await runMain(['run', '--rounds', '1', '--report', ''])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --report: the path is empty\n',
    });
    expect(await runMain(['replay', '--seed', '1', '--round', '0', '--trace', ''])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --trace: the path is empty\n',
    });
  });
});

describe('a write that fails at the end goes to a named fallback file, exit 2', () => {
  // /dev/full passes every up-front check (it exists and opens for writing) and fails every
  // write with ENOSPC: a disk that filled up during the campaign.
  it('run --report /dev/full: the summary is printed, the report is in the fallback file, exit 2 not 3', async () => {
    const fallback = join(tmpdir(), `catsim-report-fallback_seed-${process.pid}.json`);
    rmSync(fallback, { force: true });
    const { code, stdout, stderr } = await runMain([
      'run',
      '--seed',
      'fallback/seed',
      '--rounds',
      '1',
      '--workers',
      '0',
      '--no-progress',
      '--report',
      '/dev/full',
    ]);
    expect(stderr).toBe(`catsim: could not write the report to /dev/full (ENOSPC); wrote it to ${fallback}\n`);
    expect(stdout).toContain('verdict: PASS (0 violations, 0 UNDECIDED)\n');
    expect(code).toBe(2);
    const report = JSON.parse(readFileSync(fallback, 'utf8')) as {
      seed: string;
      roundsRun: number;
      campaignDigest: string;
    };
    expect([report.seed, report.roundsRun]).toEqual(['fallback/seed', 1]);
    expect(stdout).toContain(`campaign digest: ${report.campaignDigest} `);
    rmSync(fallback);
  });

  it('run --junit /dev/full and replay --trace /dev/full fall back the same way', async () => {
    const junit = join(tmpdir(), `catsim-junit-fb-${process.pid}.xml`);
    const run = await runMain([
      'run',
      '--seed',
      'fb',
      '--rounds',
      '1',
      '--workers',
      '0',
      '--no-progress',
      '--junit',
      '/dev/full',
    ]);
    expect([run.code, run.stderr]).toEqual([
      2,
      `catsim: could not write the JUnit XML to /dev/full (ENOSPC); wrote it to ${junit}\n`,
    ]);
    expect(readFileSync(junit, 'utf8')).toContain('<property name="seed" value="fb"/>');
    const trace = join(tmpdir(), `catsim-trace-fb-0-${process.pid}.jsonl`);
    const replay = await runMain(['replay', '--seed', 'fb', '--round', '0', '--no-timeline', '--trace', '/dev/full']);
    expect([replay.code, replay.stderr]).toEqual([
      2,
      `catsim: could not write the trace to /dev/full (ENOSPC); wrote it to ${trace}\n`,
    ]);
    expect(readFileSync(trace, 'utf8').split('\n')[0]).toContain('"type":"header"');
    rmSync(junit);
    rmSync(trace);
  });

  it('through the writer seam: a refused write names the error and the fallback; a fallback that fails too says the text is lost', () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const written = new Map<string, string>();
    const output = { path: '/x/r.json', what: 'report', stem: 'catsim-report-7', extension: '.json' };
    const refuse = (code: string) => Object.assign(new Error(`${code}: refused`), { code });
    try {
      const ok = writeOutput(output, 'TEXT', (path, text) => {
        if (path === '/x/r.json') throw refuse('EACCES');
        written.set(path, text);
      });
      expect(ok).toBe(false);
      expect([...written]).toEqual([[fallbackPath(output), 'TEXT']]);
      expect(fallbackPath(output)).toBe(join(tmpdir(), `catsim-report-7-${process.pid}.json`));
      expect(err).toHaveBeenLastCalledWith(
        `catsim: could not write the report to /x/r.json (EACCES); wrote it to ${fallbackPath(output)}\n`,
      );
      expect(
        writeOutput(output, 'TEXT', () => {
          throw refuse('EROFS');
        }),
      ).toBe(false);
      expect(err).toHaveBeenLastCalledWith(
        `catsim: could not write the report to /x/r.json (EROFS), nor to ${fallbackPath(output)} (EROFS): it is lost\n`,
      );
      expect(writeOutput(output, 'TEXT', (path, text) => written.set(path, text))).toBe(true);
      expect(written.get('/x/r.json')).toBe('TEXT');
    } finally {
      err.mockRestore();
    }
    expect(existsSync('/x/r.json')).toBe(false);
  });
});
