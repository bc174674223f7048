import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './support/run-main.ts';

// Issue 35 item 10: messages that misled.
describe('messages that say what happens', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-messages-'));

  it('prove --peers --peer-rounds 0 is refused (it ran 1 round and quoted --peer-rounds 1)', async () => {
    expect(await runMain(['prove', '--peers', '--peer-rounds', '0'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --peer-rounds 0 with --peers: the table needs at least 1 round\n',
    });
  });

  it('check - says standard input is not read, instead of "": the path is empty', async () => {
    expect(await runMain(['check', '-'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'catsim: check -: reading a trace from standard input is not supported; save it to a file and give its path\n',
    });
  });

  it("check labels its per-invariant numbers as items checked, not in the summary's violation format", async () => {
    const trace = join(dir, 't.jsonl');
    expect((await runMain(['replay', '--seed', '1', '--round', '0', '--trace', trace, '--no-timeline'])).code).toBe(0);
    const { code, stdout } = await runMain(['check', trace]);
    expect(code).toBe(0);
    expect(stdout.split('\n')[2]).toMatch(/^items checked per invariant: I1 \d+ {2}I2 \d+/);
  });

  it("a value outside an option's choices is one line, not yargs' three", async () => {
    expect(await runMain(['host-test', '--agent', 'x', '--transport', 'ftp', '--', 'true'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'catsim: Invalid values: Argument: transport, Given: "ftp", Choices: "stdio", "http", "both"\nRun "catsim --help" for usage.\n',
    });
  });

  it('judge - says standard input is not read, as check - does', async () => {
    expect(await runMain(['judge', '-'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'catsim: judge -: reading a trace from standard input is not supported; save it to a file and give its path\n',
    });
  });

  // judge read a core's round by the wire rules: round 3 of seed 1, clean under check, came out FAILED with 24 violations.
  it("judge refuses a core's round with a pointer to check, as check refuses a black-box case's", async () => {
    const trace = join(dir, 'core-round.jsonl');
    expect((await runMain(['replay', '--seed', '1', '--round', '3', '--trace', trace, '--no-timeline'])).code).toBe(0);
    expect((await runMain(['check', trace])).code).toBe(0);
    expect(await runMain(['judge', trace])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: ${trace}: the trace of scenario default is a core's round, not a black-box case: check it with catsim check\n`,
    });
  });

  it('merge refuses a report whose rounds go past the last round number, instead of advising --rounds 1e+300', async () => {
    const part = join(dir, 'part.json');
    expect(
      (
        await runMain([
          'run',
          '--seed',
          '1',
          '--rounds',
          '1',
          '--workers',
          '0',
          '--no-progress',
          '--no-shrink',
          '--report',
          part,
        ])
      ).code,
    ).not.toBe(3);
    const report = JSON.parse(readFileSync(part, 'utf8'));
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, JSON.stringify({ ...report, roundsPlanned: 1e300 }));
    expect(await runMain(['merge', huge])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: ${huge}: its rounds go past round 2147483647, the last round number: not a report catsim wrote\n`,
    });
  });
});

// Issue 35 item 10: no JSON error gave a line and column, and a named pipe as an input blocked for ever.
describe('input files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-inputs-'));

  it('a JSON error names its line and column', async () => {
    const cases: [string, string][] = [
      // A trailing comma: the "]" after it, on line 4, column 3.
      ['{\n  "faults": [\n    "F1",\n  ]\n}\n', 'line 4, column 3'],
      // An unquoted word: its "d", on line 2, column 11.
      ['{\n  "name": default\n}\n', 'line 2, column 11'],
      // Cut short: the end of the text, just after the 14 characters of line 2.
      ['{\n  "name": "x",', 'line 2, column 15'],
    ];
    for (const [index, [text, where]] of cases.entries()) {
      const path = join(dir, `bad-${index}.json`);
      writeFileSync(path, text);
      expect(await runMain(['run', '--rounds', '1', '--scenario', path])).toEqual({
        code: 2,
        stdout: '',
        stderr: `catsim: ${path}: not valid JSON (${where})\n`,
      });
    }
  });

  it('a named pipe as a --scenario is refused, not read (which would block until someone writes it)', async () => {
    const { execFileSync } = await import('node:child_process');
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    expect(await runMain(['run', '--rounds', '1', '--scenario', fifo])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: ${fifo}: is a named pipe (FIFO), not a file\n`,
    });
  });
});
