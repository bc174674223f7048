import { describe, expect, it, vi } from 'vitest';
import { formatSummary } from '../cli/format/summary.ts';
import { campaignWorkers } from '../cli/work-size.ts';
import { ReportBuilder, exitCodeOf } from '../runner/report.ts';
import { runMain } from './support/run-main.ts';

// Work that cannot test anything is refused, never reported as PASS; more workers than a run can
// use are capped, with a note.
describe('empty and absurd work', () => {
  it('a shard that would hold no round is refused before any round runs, exit 2', async () => {
    expect(await runMain(['run', '--rounds', '4', '--shard', '7/8', '--report', '/tmp/catsim-never.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --shard 7/8: 4 rounds cannot make 8 shards (some would be empty); use at most 4\n',
    });
    expect(await runMain(['run', '--rounds', '1', '--shard', '1/2', '--report', '/tmp/catsim-never.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --shard 1/2: 1 round cannot make 2 shards (some would be empty); use at most 1\n',
    });
  });

  it('a report of no rounds is a FAIL, never a PASS', () => {
    const report = new ReportBuilder({
      seed: '1',
      scenario: 'default',
      scenarioPath: null,
      scenarioDigest: '0'.repeat(64),
      catalog: null,
      core: 'reference',
      firstRound: 3,
      roundsPlanned: 0,
      faults: [],
    }).build(0, false);
    expect(formatSummary(report, 1).split('\n')[1]).toBe('verdict: FAIL (no round was run: nothing was tested)');
    expect(exitCodeOf(report)).toBe(1);
  });

  it('--workers is capped at one per round and two per CPU core, with one note on stderr', () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(campaignWorkers(1000, 2, 2)).toBe(2);
      expect(err).toHaveBeenLastCalledWith('catsim: note: --workers 1000 capped at 2 (one per round: 2 rounds)\n');
      expect(campaignWorkers(1000, 500, 2)).toBe(4);
      expect(err).toHaveBeenLastCalledWith('catsim: note: --workers 1000 capped at 4 (2 per CPU core: 2 cores)\n');
      expect(campaignWorkers(9, 1, 8)).toBe(1);
      expect(err).toHaveBeenLastCalledWith('catsim: note: --workers 9 capped at 1 (one per round: 1 round)\n');
      err.mockClear();
      expect([campaignWorkers(3, 500, 2), campaignWorkers(0, 5, 2)]).toEqual([3, 0]);
      expect(err).not.toHaveBeenCalled();
    } finally {
      err.mockRestore();
    }
  });

  it('run --workers 1000 --rounds 2 starts two workers and says so', async () => {
    const { code, stdout, stderr } = await runMain([
      'run',
      '--seed',
      '2',
      '--rounds',
      '2',
      '--workers',
      '1000',
      '--determinism-every',
      '0',
      '--no-progress',
    ]);
    expect(stderr).toBe('catsim: note: --workers 1000 capped at 2 (one per round: 2 rounds)\n');
    expect(stdout).toMatch(/^throughput: [\d.]+ rounds\/s \(2 workers, [\d.]+ s\)$/m);
    expect(code).toBe(0);
  });
});
