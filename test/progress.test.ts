import { describe, expect, it, vi } from 'vitest';
import { lineReporter, progressLine, progressMode, progressReporter } from '../cli/progress.ts';
import { catsim } from './support/run-cli.ts';
import { runMain } from './support/run-main.ts';

/** A clock the test sets by hand (ms). */
function fakeClock(startMs: number): { now: () => number; set: (ms: number) => void } {
  let at = startMs;
  return {
    now: () => at,
    set: (ms) => {
      at = ms;
    },
  };
}

describe('progress lines without a terminal', () => {
  it('writes one line at the first round finished 10 s or more after the previous line', () => {
    const clock = fakeClock(1_000);
    const lines: string[] = [];
    const reporter = lineReporter(100, (line) => lines.push(line), clock.now);
    const at = (ms: number, done: number, failing: number): void => {
      clock.set(ms);
      reporter.update(done, failing);
    };
    at(5_000, 1, 0); // 4 s after the start: too soon
    at(11_000, 2, 0); // 10 s: 2 rounds in 10 s is 0.2 rounds/s, 98 left take 490 s
    at(20_999, 40, 1); // 9.999 s after that line: too soon
    at(21_000, 42, 1); // 20 s in all: 2.1 rounds/s, 58 left take 27.6 s
    at(25_000, 43, 1);
    reporter.stop();
    expect(lines).toEqual([
      'progress: 2/100 rounds (2.0%), 0 failing, 0.2 rounds/s, 8m10s left\n',
      'progress: 42/100 rounds (42.0%), 1 failing, 2.1 rounds/s, 28s left\n',
    ]);
  });

  it('writes counts with thousands separators and the time left in hours and minutes', () => {
    // 1,260 rounds in 50 s: 25.2 rounds/s; 98,740 left take 3,918 s, 65.3 minutes.
    expect(progressLine(1_260, 100_000, 3, 50)).toBe(
      'progress: 1,260/100,000 rounds (1.3%), 3 failing, 25.2 rounds/s, 1h05m left',
    );
    expect(progressLine(0, 10, 0, 0)).toBe('progress: 0/10 rounds (0.0%), 0 failing, 0.0 rounds/s, - left');
    expect(progressLine(10, 10, 0, 5)).toBe('progress: 10/10 rounds (100.0%), 0 failing, 2.0 rounds/s, 0s left');
  });

  it('chooses the bar only on a terminal with worker threads, lines otherwise, nothing when disabled', () => {
    expect(progressMode({ enabled: true, terminal: true, workers: 2 })).toBe('bar');
    // In-process rounds fake the timer globals; cli-progress redraws on timers, the lines do not.
    expect(progressMode({ enabled: true, terminal: true, workers: 0 })).toBe('lines');
    expect(progressMode({ enabled: true, terminal: false, workers: 2 })).toBe('lines');
    expect(progressMode({ enabled: true, terminal: false, workers: 0 })).toBe('lines');
    expect(progressMode({ enabled: false, terminal: true, workers: 2 })).toBe('none');
    expect(progressMode({ enabled: false, terminal: false, workers: 0 })).toBe('none');
  });

  it('a disabled reporter writes nothing, however long the campaign', () => {
    const written: string[] = [];
    const clock = fakeClock(0);
    const reporter = progressReporter(
      'none',
      5,
      { write: (chunk: string) => written.push(chunk) } as unknown as NodeJS.WritableStream,
      clock.now,
    );
    for (let done = 1; done <= 5; done += 1) {
      clock.set(done * 60_000);
      reporter.update(done, 0);
    }
    reporter.stop();
    expect(written).toEqual([]);
  });
});

describe('catsim run progress', () => {
  it('prints no bar when stderr is not a terminal, and nothing at all with --quiet', async () => {
    const plain = await catsim(['run', '--seed', '1', '--rounds', '2', '--workers', '1', '--no-shrink']);
    expect(plain.code, plain.stderr).toBe(0);
    // A run this short rarely reaches the first line (10 s); any line there is must be a plain one.
    for (const line of plain.stderr.split('\n').filter((text) => text !== ''))
      expect(line).toMatch(/^progress: [\d,]+\/2 rounds /);
    expect(plain.stderr).not.toMatch(/[\u2588\u2591]|\u001b\[/); // cli-progress's shades and escape codes
    const quiet = await catsim(['run', '--seed', '1', '--rounds', '2', '--workers', '1', '--no-shrink', '--quiet']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toContain('verdict: PASS');
  });

  it('writes the lines from the round callback in-process, where no timer may run, and --quiet silences them', async () => {
    // The real clock jumps 10 s at every read, so every finished round is due a line.
    let nowMs = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (nowMs += 10_000));
    const terminal = process.stderr.isTTY;
    process.stderr.isTTY = false;
    try {
      const args = ['run', '--seed', '1', '--rounds', '3', '--workers', '0', '--determinism-every', '0', '--no-shrink'];
      const shown = await runMain(args);
      expect(shown.code, shown.stderr).toBe(0);
      const done = shown.stderr
        .split('\n')
        .filter((line) => line !== '')
        .map(
          (line) => /^progress: (\d)\/3 rounds \(\d+\.\d%\), 0 failing, \d+\.\d rounds\/s, \S+ left$/.exec(line)?.[1],
        );
      expect(done).toEqual(['1', '2', '3']);
      expect((await runMain([...args, '--quiet'])).stderr).toBe('');
      expect((await runMain([...args, '--no-progress'])).stderr).toBe('');
    } finally {
      process.stderr.isTTY = terminal;
      clock.mockRestore();
    }
  });
});

// Issue 35 item 7: `catsim prove` printed nothing for 14 minutes without a terminal. Its stage
// lines follow run's rule: at most one every 10 s of the real clock, written between rounds.
describe('stage lines of catsim prove', () => {
  it('writes a line at the first call 10 s after the start or the last line, naming the stage', async () => {
    const { stageReporter } = await import('../cli/progress.ts');
    const lines: string[] = [];
    let now = 1_000;
    const stages = stageReporter(
      (line) => lines.push(line),
      () => now,
    );
    now = 10_999;
    stages.say('mutant a, 10 of at most 1000 rounds');
    now = 11_000;
    stages.say('mutant a, 20 of at most 1000 rounds');
    now = 20_999;
    stages.say('mutant b, 5 of at most 1000 rounds');
    now = 131_000;
    stages.say('reference beside the peers, 7 of 200 rounds');
    expect(lines).toEqual([
      'progress: mutant a, 20 of at most 1000 rounds, 10s elapsed\n',
      'progress: reference beside the peers, 7 of 200 rounds, 2m10s elapsed\n',
    ]);
  });
});

// Issue 35 item 7: `prove --peers` printed nothing until its table, as prove did before.
describe('stage lines of catsim prove --peers', () => {
  it('names the core and its rounds between rounds, and --quiet silences them', async () => {
    // The real clock jumps 10 s at every read, so every finished round is due a line.
    let nowMs = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (nowMs += 10_000));
    try {
      const args = ['prove', '--peers', '--peer-rounds', '2', '--workers', '0'];
      const shown = await runMain(args);
      expect(shown.code, shown.stderr).toBe(0);
      const { peerNames } = await import('../cli/commands/peers.ts');
      const cores = ['reference', ...peerNames()];
      const lines = shown.stderr
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.replace(/, \S+ elapsed$/, ''));
      expect(lines).toEqual(
        cores.flatMap((core, i) =>
          [1, 2].map((done) => `progress: ${core}, ${done} of 2 rounds (core ${i + 1} of ${cores.length})`),
        ),
      );
      // --quiet is one flag for every core: one peer and one round show it (the whole table above took ~10 s).
      const quiet = await runMain([
        'prove',
        '--peers',
        '--peer-rounds',
        '1',
        '--peer',
        'peer:mcp-client-v2',
        '--workers',
        '0',
        '--quiet',
      ]);
      expect([quiet.code, quiet.stderr]).toEqual([0, '']);
    } finally {
      clock.mockRestore();
    }
  });
});
