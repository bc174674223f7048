import { describe, expect, it, vi } from 'vitest';
import { ReportBuilder } from '../runner/report.ts';
import { runMain } from './support/run-main.ts';

// Issue 35 item 8 (first point): SIGHUP mid-campaign (a closed terminal or ssh session) ended
// catsim at once, losing the summary and the report. It now stops the campaign like SIGTERM.
describe('SIGHUP stops a campaign like SIGTERM', () => {
  it('the rounds done are summarised as INTERRUPTED, with the --from that resumes it, exit 1', async () => {
    // The signal is sent when the first round is counted. The worker thread is stopped then,
    // and the rounds it finished after the signal are not counted.
    const add = ReportBuilder.prototype.add;
    const counted = vi.spyOn(ReportBuilder.prototype, 'add').mockImplementation(function (
      this: ReportBuilder,
      ...args: Parameters<ReportBuilder['add']>
    ) {
      add.apply(this, args);
      if (this.roundsRun === 1) process.emit('SIGHUP', 'SIGHUP');
    });
    let result;
    try {
      result = await runMain(['run', '--rounds', '50', '--workers', '0', '--no-progress', '--no-shrink']);
    } finally {
      counted.mockRestore();
    }
    const { code, stdout } = result;
    expect(stdout).toContain(
      'verdict: INTERRUPTED after 1 of 50 rounds: rounds 0..0 are done and counted here (resume with --from 1 --rounds 49, then catsim merge the two reports)\n',
    );
    expect(code).toBe(1);
    expect(process.listenerCount('SIGHUP')).toBe(0);
  });
});

// Issue 35 item 7 (second point): the summary ended with statistics and failing rounds, so the
// verdict was not among a CI log's last lines. It is repeated as the last line.
describe("the summary's last line is the verdict", () => {
  it('after the failing rounds of a failing campaign', async () => {
    const { code, stdout } = await runMain([
      'run',
      '--seed',
      '1',
      '--from',
      '3',
      '--rounds',
      '1',
      '--core',
      'mutant:no-final-recheck',
      '--workers',
      '0',
      '--no-progress',
      '--no-shrink',
    ]);
    const lines = stdout.trimEnd().split('\n');
    expect(code).toBe(1);
    expect(lines[1]).toMatch(/^verdict: FAIL \(\d+ violations, 0 UNDECIDED\)$/);
    expect(lines.at(-2)).toMatch(/^ {2}catsim replay --seed 1 --round 3 --core mutant:no-final-recheck {3}# /);
    expect(lines.at(-1)).toBe(lines[1]);
  });
});

// Issue 35 item 8 (second point): Ctrl-C during `catsim shrink` lost the best plan found so far.
// It now stops between rounds and writes that plan, saying it may not be the smallest.
describe('Ctrl-C during catsim shrink', () => {
  it('writes the plan found so far and says the shrink was interrupted', async () => {
    const { mkdtempSync, existsSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const prefix = join(mkdtempSync(join(tmpdir(), 'catsim-shrink-int-')), 'p');
    // Sent as soon as catsim listens for it: during the first run of the round, before any reduction.
    const sendOnceListened = (): void => {
      if (
        process.listenerCount('SIGINT') > 0 &&
        process.listeners('SIGINT').some((listener) => listener.name === 'onSignal')
      )
        process.emit('SIGINT', 'SIGINT');
      else setImmediate(sendOnceListened);
    };
    setImmediate(sendOnceListened);
    const { code, stdout } = await runMain([
      'shrink',
      '--seed',
      '1',
      '--round',
      '3',
      '--core',
      'mutant:no-final-recheck',
      '--out',
      prefix,
      '--no-timeline',
    ]);
    expect(code).toBe(1);
    expect(stdout.split('\n')[1]).toMatch(
      /^not shrunk: interrupted after 0 rounds, before a reduction kept I\d+ failing; the plan is the round's own \(size \d+\)$/,
    );
    expect(existsSync(`${prefix}.plan.json`)).toBe(true);
    expect(process.listeners('SIGINT').some((listener) => listener.name === 'onSignal')).toBe(false);
  });
});
