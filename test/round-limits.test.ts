import { describe, expect, it } from 'vitest';
import { runCampaign } from '../runner/campaign.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { attachCores } from './support/attach-core.ts';
import { catsim } from './support/run-cli.ts';

// Issue 35 item 3: a core stuck in synchronous code hung the campaign for ever with no output,
// and a worker that died of heap exhaustion was a testbed failure (exit 3). Both are now the
// core's failure in that round (CORE_FAILED, with its replay line), and the campaign goes on.
describe('a round is bounded in time and memory in a worker thread', () => {
  const { core } = attachCores('catsim-round-limit-');

  it('--round-timeout 1: each of 2 stuck rounds is terminated after 1 s and is CORE_FAILED TIMED_OUT, exit 1', async () => {
    const stuck = core('stuck', 'for (;;) {}');
    // Without --no-shrink: an abandoned round is not shrunk (in this thread it would hang catsim).
    const run = await catsim([
      'run',
      '--core',
      stuck,
      '--rounds',
      '2',
      '--workers',
      '1',
      '--round-timeout',
      '1',
      '--no-progress',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('rounds: 2 run, 0 UNDECIDED, 2 failing\n');
    const evidence =
      'the round ran past the per-round time limit of 1 s (--round-timeout), so its worker thread was terminated: the core is stuck (a synchronous loop, or work that never ends)';
    expect(run.stdout).toContain(
      `  catsim replay --seed 1 --round 0 --core ${stuck}   # CORE_FAILED TIMED_OUT: ${evidence}\n`,
    );
    expect(run.stdout).toContain(
      `  catsim replay --seed 1 --round 1 --core ${stuck}   # CORE_FAILED TIMED_OUT: ${evidence}\n`,
    );
    expect(run.stdout).not.toContain('shrinking');
  });

  it('a worker dying of heap exhaustion is CORE_FAILED OUT_OF_MEMORY for its round, and the next round runs on a fresh worker', async () => {
    const hungry = core('hungry', 'const kept = []; for (;;) kept.push(new Array(100_000).fill(1));');
    const report = await runCampaign({
      seed: '1',
      scenario: loadScenario('default'),
      core: hungry,
      firstRound: 0,
      rounds: 2,
      workers: 1,
      determinismEvery: 0,
      workerResourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    expect(
      report.failingRounds.map((round) => [round.round, round.violations.map((v) => `${v.invariant} ${v.code}`)]),
    ).toEqual([
      [0, ['CORE_FAILED OUT_OF_MEMORY']],
      [1, ['CORE_FAILED OUT_OF_MEMORY']],
    ]);
  });
});
