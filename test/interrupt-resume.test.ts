import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../cli/format/summary.ts';
import { runCampaign } from '../runner/campaign.ts';
import type { CampaignReport } from '../runner/report.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { runMain } from './support/run-main.ts';

const dir = mkdtempSync(join(tmpdir(), 'catsim-resume-'));
const at = (file: string) => join(dir, file);
const readReport = (file: string) => JSON.parse(readFileSync(at(file), 'utf8')) as CampaignReport;
/** A report without its real-time figures. */
const comparable = (report: CampaignReport) => JSON.stringify({ ...report, elapsedMs: 0, roundsPerSecond: 0 });
const FLAGS = ['--seed', '8', '--determinism-every', '4', '--no-progress', '--no-shrink'];

// The summary, the report and the resume point of an interrupted campaign name the same rounds,
// and the printed resume line runs exactly the rest: merged, the two parts are the whole campaign.
describe('an interrupted campaign, resumed from its printed --from, merges into the uninterrupted one', () => {
  it('interrupt after 5 of 12 rounds, resume, merge: the same report and campaign digest as one run', async () => {
    const whole = await runMain(['run', ...FLAGS, '--rounds', '12', '--workers', '0', '--report', at('whole.json')]);
    expect(whole.code).toBe(0);
    // Interrupted through the campaign API's abort signal after its fifth round (batches of one round in-process, so exactly five are done).
    const abort = new AbortController();
    const first = await runCampaign({
      seed: '8',
      scenario: loadScenario('default'),
      core: 'reference',
      firstRound: 0,
      rounds: 12,
      workers: 0,
      determinismEvery: 4,
      batchSize: 1,
      signal: abort.signal,
      onProgress: (done) => {
        if (done === 5) abort.abort();
      },
    });
    writeFileSync(at('first.json'), `${JSON.stringify(first, null, 2)}\n`);
    const summary = formatSummary(first, 0);
    expect(summary).toContain(
      'verdict: INTERRUPTED after 5 of 12 rounds: rounds 0..4 are done and counted here (resume with --from 5 --rounds 7, then catsim merge the two reports)\n',
    );
    expect(summary).toContain('rounds: 5 run, 0 UNDECIDED, 0 failing\n');
    expect([first.interrupted, first.roundsRun, first.resumeFrom, first.mergeData.roundDigests.length]).toEqual([
      true,
      5,
      5,
      5,
    ]);
    expect(summary).toContain(`campaign digest: ${first.campaignDigest} `);
    const [, from, rounds] = /resume with --from (\d+) --rounds (\d+)/.exec(summary) ?? [];
    const rest = await runMain([
      'run',
      ...FLAGS,
      '--from',
      from as string,
      '--rounds',
      rounds as string,
      '--workers',
      '2',
      '--report',
      at('rest.json'),
    ]);
    expect(rest.stdout.split('\n')[0]).toBe('catsim run  seed=8  scenario=default  core=reference  rounds 5..11');
    expect(rest.code).toBe(0);
    const merged = await runMain(['merge', at('rest.json'), at('first.json'), '--report', at('merged.json')]);
    expect([merged.code, merged.stderr]).toEqual([0, '']);
    expect(merged.stdout.split('\n').slice(0, 3)).toEqual([
      'catsim run  seed=8  scenario=default  core=reference  rounds 0..11',
      'verdict: PASS (0 violations, 0 UNDECIDED)',
      'rounds: 12 run, 0 UNDECIDED, 0 failing',
    ]);
    expect(comparable(readReport('merged.json'))).toBe(comparable(readReport('whole.json')));
    expect(merged.stdout).toContain(`campaign digest: ${readReport('whole.json').campaignDigest} `);
  });
});
