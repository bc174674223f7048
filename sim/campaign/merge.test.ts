import { describe, expect, it } from 'vitest';
import { loadScenario } from '../plan/scenario.ts';
import { runCampaign } from './campaign.ts';
import { MergeError, mergeShardReports } from './merge.ts';
import { shardBlock, type CampaignReport } from './report.ts';

const scenario = loadScenario('default');
const campaign = (shard?: { index: number; count: number }) => runCampaign({ seed: '5', scenario, core: 'reference', firstRound: 10, rounds: 7, workers: 0, determinismEvery: 3, shard });
/** A report as JSON would carry it, without the real-time figures. */
const comparable = (report: CampaignReport) => JSON.stringify({ ...report, elapsedMs: 0, roundsPerSecond: 0 });

describe('shardBlock', () => {
  it('splits rounds into contiguous blocks whose sizes differ by at most one', () => {
    expect([1, 2, 3].map((index) => shardBlock(10, 7, index, 3))).toEqual([{ firstRound: 10, rounds: 2 }, { firstRound: 12, rounds: 2 }, { firstRound: 14, rounds: 3 }]);
    expect(shardBlock(0, 100_000, 2, 2)).toEqual({ firstRound: 50_000, rounds: 50_000 });
    expect(shardBlock(0, 2, 1, 3)).toEqual({ firstRound: 0, rounds: 0 });
  });
});

describe('mergeShardReports', async () => {
  const whole = await campaign();
  const shards: CampaignReport[] = [];
  // One after another: in-process rounds own the thread's virtual clock.
  for (const index of [1, 2, 3]) shards.push(await campaign({ index, count: 3 }));
  const inputs = shards.map((report, i) => ({ path: `s${i + 1}.json`, report: JSON.parse(JSON.stringify(report)) as unknown }));

  it('shard reports say which block they ran and carry what merge needs', () => {
    const [, second] = shards as [CampaignReport, CampaignReport, CampaignReport];
    expect([second.firstRound, second.roundsPlanned, second.roundsRun, second.resumeFrom]).toEqual([12, 2, 2, 14]);
    expect(second.shard).toEqual({ index: 2, count: 3, firstRound: 10, rounds: 7 });
    expect(second.shardData?.roundDigests).toHaveLength(2);
    expect(second.probesMissed).toEqual([]);
    expect(whole.shard).toBeNull();
    expect(whole.shardData).toBeUndefined();
  });

  it('gives the report of the whole campaign, in any order of the shards', () => {
    expect(comparable(mergeShardReports(inputs))).toBe(comparable(whole));
    expect(comparable(mergeShardReports([...inputs].reverse()))).toBe(comparable(whole));
    expect(mergeShardReports(inputs).campaignDigest).toBe(whole.campaignDigest);
    // Replays are sampled by round number, so a shard replays exactly the rounds the whole would.
    expect(mergeShardReports(inputs).determinism.replayed).toBe(whole.determinism.replayed);
  });

  it('refuses what cannot be one campaign, with one line naming the file', () => {
    const [a, b, c] = inputs as [(typeof inputs)[number], (typeof inputs)[number], (typeof inputs)[number]];
    const edit = (input: typeof a, change: (report: Record<string, unknown>) => void) => {
      const report = structuredClone(input.report) as Record<string, unknown>;
      change(report);
      return { path: input.path, report };
    };
    const cases: [typeof inputs, string][] = [
      [[], 'no shard reports given'],
      [[a, b], 'missing shard 3/3 (rounds 14..16)'],
      [[a, b, c, { path: 'again.json', report: c.report }], 'again.json: shard 3/3 is given twice (also s3.json)'],
      [[a, b, edit(c, (r) => { r.seed = '6'; })], 's3.json: seed is "6", but s1.json has "5": not shards of one campaign'],
      [[a, b, edit(c, (r) => { r.interrupted = true; })], 's3.json: shard 3/3 was interrupted after 3 of 3 rounds; run it again to the end'],
      [[a, b, { path: 'whole.json', report: JSON.parse(JSON.stringify(whole)) }], 'whole.json: the report of a whole campaign, not of a shard (catsim run --shard i/n --report FILE writes those)'],
      [[a, b, { path: 'text.json', report: 'hello' }], 'text.json: not a shard report of catsim run --shard i/n --report ((top level) must be object)'],
    ];
    for (const [given, message] of cases) {
      expect(() => mergeShardReports(given)).toThrow(MergeError);
      expect(() => mergeShardReports(given)).toThrow(message);
    }
  });
});
