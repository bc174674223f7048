import { describe, expect, it } from 'vitest';
import { loadScenario } from '../sim/plan/scenario.ts';
import { runCampaign } from './campaign.ts';
import { MergeError, mergeShardReports } from './merge.ts';
import { shardBlock, type CampaignReport } from './report.ts';

const scenario = loadScenario('default');
const campaign = (shard?: { index: number; count: number }) =>
  runCampaign({
    seed: '5',
    scenario,
    core: 'reference',
    firstRound: 10,
    rounds: 7,
    workers: 0,
    determinismEvery: 3,
    shard,
  });
/** A report as JSON would carry it, without the real-time figures. */
const comparable = (report: CampaignReport) => JSON.stringify({ ...report, elapsedMs: 0, roundsPerSecond: 0 });
const asInput = (path: string, report: CampaignReport) => ({
  path,
  report: JSON.parse(JSON.stringify(report)) as unknown,
});

describe('shardBlock', () => {
  it('splits rounds into contiguous blocks whose sizes differ by at most one', () => {
    expect([1, 2, 3].map((index) => shardBlock(10, 7, index, 3))).toEqual([
      { firstRound: 10, rounds: 2 },
      { firstRound: 12, rounds: 2 },
      { firstRound: 14, rounds: 3 },
    ]);
    expect(shardBlock(0, 100_000, 2, 2)).toEqual({ firstRound: 50_000, rounds: 50_000 });
    expect(shardBlock(0, 2, 1, 3)).toEqual({ firstRound: 0, rounds: 0 });
  });
});

describe('mergeShardReports', async () => {
  const whole = await campaign();
  const shards: CampaignReport[] = [];
  // One after another: in-process rounds own the thread's virtual clock.
  for (const index of [1, 2, 3]) shards.push(await campaign({ index, count: 3 }));
  const inputs = shards.map((report, i) => asInput(`s${i + 1}.json`, report));
  // Rounds 10..16 stopped after its third round (batches of one, so the abort lands between rounds), and the rest.
  const abort = new AbortController();
  const stopped = await runCampaign({
    seed: '5',
    scenario,
    core: 'reference',
    firstRound: 10,
    rounds: 7,
    workers: 0,
    determinismEvery: 3,
    batchSize: 1,
    signal: abort.signal,
    onProgress: (done) => {
      if (done === 3) abort.abort();
    },
  });
  const rest = await runCampaign({
    seed: '5',
    scenario,
    core: 'reference',
    firstRound: stopped.resumeFrom,
    rounds: 17 - stopped.resumeFrom,
    workers: 0,
    determinismEvery: 3,
  });

  it('every report says which rounds it covers and carries what merge needs', () => {
    const [, second] = shards as [CampaignReport, CampaignReport, CampaignReport];
    expect([second.firstRound, second.roundsPlanned, second.roundsRun, second.resumeFrom]).toEqual([12, 2, 2, 14]);
    expect(second.shard).toEqual({ index: 2, count: 3, firstRound: 10, rounds: 7 });
    expect(second.mergeData.roundDigests).toHaveLength(2);
    expect(second.probesMissed).toEqual([]);
    expect(whole.shard).toBeNull();
    expect(whole.mergeData.roundDigests).toHaveLength(7);
    expect([
      stopped.interrupted,
      stopped.firstRound,
      stopped.roundsRun,
      stopped.resumeFrom,
      stopped.mergeData.roundDigests.length,
    ]).toEqual([true, 10, 3, 13, 3]);
  });

  it('gives the report of the whole campaign, in any order of the shards', () => {
    expect(comparable(mergeShardReports(inputs))).toBe(comparable(whole));
    expect(comparable(mergeShardReports([...inputs].reverse()))).toBe(comparable(whole));
    expect(mergeShardReports(inputs).campaignDigest).toBe(whole.campaignDigest);
    // Replays are sampled by round number, so a shard replays exactly the rounds the whole would.
    expect(mergeShardReports(inputs).determinism.replayed).toBe(whole.determinism.replayed);
  });

  it('an interrupted run and the run that resumed it merge into the uninterrupted run', () => {
    expect(comparable(mergeShardReports([asInput('rest.json', rest), asInput('stopped.json', stopped)]))).toBe(
      comparable(whole),
    );
  });

  it('refuses what cannot be one campaign, with one line naming the file', () => {
    const [a, b, c] = inputs as [(typeof inputs)[number], (typeof inputs)[number], (typeof inputs)[number]];
    const edit = (input: typeof a, change: (report: Record<string, unknown>) => void) => {
      const report = structuredClone(input.report) as Record<string, unknown>;
      change(report);
      return { path: input.path, report };
    };
    const hint = (from: number, rounds: number) =>
      ` (catsim run --from ${from} --rounds ${rounds} with the same seed, scenario, catalog and core runs them)`;
    const cases: [typeof inputs, string][] = [
      [[], 'no reports given'],
      [[a, b], `rounds 14..16 are in no report, but s1.json is a shard of rounds 10..16${hint(14, 3)}`],
      [[a, c], `rounds 12..13 are in no report: s1.json ends at round 11 and s3.json starts at round 14${hint(12, 2)}`],
      [
        [a, b, c, { path: 'again.json', report: c.report }],
        'again.json: its rounds 14..16 overlap the rounds 14..16 of s3.json',
      ],
      [[a, b, c, asInput('whole.json', whole)], 'whole.json: its rounds 10..16 overlap the rounds 10..11 of s1.json'],
      [
        [
          a,
          b,
          edit(c, (r) => {
            r.seed = '6';
          }),
        ],
        's3.json: seed is "6", but s1.json has "5": not parts of one campaign',
      ],
      [
        [asInput('stopped.json', stopped)],
        `rounds 13..16 are in no report, but stopped.json was run for rounds 10..16${hint(13, 4)}`,
      ],
      [
        [
          a,
          b,
          edit(c, (r) => {
            r.roundsRun = 0;
            (r.mergeData as { roundDigests: string[] }).roundDigests = [];
          }),
        ],
        's3.json: covers no round (interrupted before its first round was done): nothing to merge',
      ],
      [
        [
          a,
          b,
          edit(c, (r) => {
            r.roundsRun = 2;
          }),
        ],
        's3.json: holds 3 round digests for 2 rounds: not a report catsim wrote',
      ],
      [
        [a, b, { path: 'text.json', report: 'hello' }],
        'text.json: not a report of catsim run --report ((top level) must be object)',
      ],
      [
        [
          a,
          b,
          edit(c, (r) => {
            delete r.mergeData;
          }),
        ],
        "s3.json: not a report of catsim run --report ((top level) must have required property 'mergeData')",
      ],
    ];
    for (const [given, message] of cases) {
      expect(() => mergeShardReports(given)).toThrow(MergeError);
      expect(() => mergeShardReports(given)).toThrow(message);
    }
  });
});
