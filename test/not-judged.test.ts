/**
 * Issue 27.2, nothing unjudged is a pass. The core here is the reference core without `rollback`
 * and `modelTurn` (test/support/cores/no-rollback-core.ts), so its rounds have zero violations and
 * only what it leaves out decides the verdict. On rounds 0..19 of seed 1 (default scenario) the
 * world wrote F19 triggers `unsupported` in rounds 0 (2), 3 (1), 4 (3), 8 (2), 16 (2) and 17 (1):
 * 11 triggers in 6 rounds; and planned model turns for a core without a surface stage in rounds 8
 * (8), 9 (9), 11 (8), 13 (5) and 15 (10): 40 turns in 5 rounds. Rounds 0..9 hold 8 triggers in 4
 * rounds and 17 turns in 2; rounds 10..19 the other 3 triggers in 2 rounds and 23 turns in 3.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { junitXml } from '../cli/format/junit.ts';
import { formatSummary } from '../cli/format/summary.ts';
import { parseNotJudged } from '../cli/not-judged.ts';
import { runCampaign } from '../runner/campaign.ts';
import { loadCore } from '../cores/index.ts';
import { mergeShardReports } from '../runner/merge.ts';
import { exitCodeOf, type CampaignReport } from '../runner/report.ts';
import type { Capability } from '../oracle/not-judged.ts';
import { loadScenario, type Scenario } from '../sim/plan/scenario.ts';
import { runMain } from './support/run-main.ts';

const CORE = './test/support/cores/no-rollback-core.ts';

async function campaign(
  options: { notJudged?: Capability[]; scenario?: Scenario; shard?: { index: number; count: number } } = {},
): Promise<CampaignReport> {
  await loadCore(CORE);
  return runCampaign({
    seed: '1',
    scenario: options.scenario ?? loadScenario('default'),
    core: CORE,
    firstRound: 0,
    rounds: 20,
    workers: 0,
    determinismEvery: 0,
    notJudged: options.notJudged,
    shard: options.shard,
  });
}

/** The summary's `verdict:` line. */
function verdictLine(report: CampaignReport): string | undefined {
  return formatSummary(report, 0)
    .split('\n')
    .find((line) => line.startsWith('verdict: '));
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'catsim-not-judged-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a capability the core leaves out is never a pass', () => {
  it('not accepted: NOT JUDGED, exit 1, naming each capability with its triggers or turns and rounds; JUnit fails each', async () => {
    const report = await campaign();
    expect(report.failingRounds).toEqual([]);
    expect(report.notJudged).toEqual([
      { capability: 'rollback', rounds: 6, count: 11, accepted: false },
      { capability: 'surface', rounds: 5, count: 40, accepted: false },
    ]);
    expect(report.notJudgedAccepted).toEqual([]);
    expect(exitCodeOf(report)).toBe(1);
    expect(verdictLine(report)).toBe(
      'verdict: NOT JUDGED: rollback (11 rollback triggers in 6 rounds), surface (40 model turns in 5 rounds): the core does not implement them (0 violations in what was judged; --not-judged rollback,surface accepts them as skipped)',
    );
    expect(formatSummary(report, 0)).toContain(
      '\ncapabilities not judged: rollback (11 rollback triggers in 6 rounds) NOT JUDGED (not accepted); surface (40 model turns in 5 rounds) NOT JUDGED (not accepted)\n',
    );
    const xml = junitXml(report);
    expect(xml).toContain(
      '<testcase classname="catsim.gate" name="not judged: rollback">\n      <failure message="rollback (11 rollback triggers in 6 rounds): the core does not implement it, and it was not accepted (--not-judged rollback)" type="not-judged"/>',
    );
    expect(xml).toContain(
      '<testcase classname="catsim.gate" name="not judged: surface">\n      <failure message="surface (40 model turns in 5 rounds): the core does not implement it, and it was not accepted (--not-judged surface)" type="not-judged"/>',
    );
  });

  it("accepted by --not-judged and the scenario's notJudged together: PASS (not judged: ...), exit 0, skipped (never passed) in the summary, the report and JUnit", async () => {
    const scenario: Scenario = { ...loadScenario('default'), notJudged: ['surface'] };
    const report = await campaign({ notJudged: ['rollback'], scenario });
    expect(report.notJudged).toEqual([
      { capability: 'rollback', rounds: 6, count: 11, accepted: true },
      { capability: 'surface', rounds: 5, count: 40, accepted: true },
    ]);
    expect(report.notJudgedAccepted).toEqual(['rollback', 'surface']);
    expect(exitCodeOf(report)).toBe(0);
    expect(verdictLine(report)).toBe('verdict: PASS (not judged: rollback, surface)');
    expect(formatSummary(report, 0)).toContain(
      '\ncapabilities not judged: rollback (11 rollback triggers in 6 rounds) SKIPPED (accepted by --not-judged or the scenario); surface (40 model turns in 5 rounds) SKIPPED (accepted by --not-judged or the scenario)\n',
    );
    const xml = junitXml(report);
    expect(xml).toContain('<testcase classname="catsim.gate" name="not judged: rollback">\n      <skipped/>');
    expect(xml).toContain('<testcase classname="catsim.gate" name="not judged: surface">\n      <skipped/>');
    expect(xml).toMatch(/<testsuite [^>]*skipped="2"/);
  });

  it('one accepted, one not: NOT JUDGED names only the other; after a violation the FAIL names it too', async () => {
    const report = await campaign({ notJudged: ['surface'] });
    expect(exitCodeOf(report)).toBe(1);
    expect(verdictLine(report)).toBe(
      'verdict: NOT JUDGED: rollback (11 rollback triggers in 6 rounds): the core does not implement it (0 violations in what was judged; --not-judged rollback accepts it as skipped)',
    );
    const failing: CampaignReport = {
      ...report,
      violationsByInvariant: { I9: 1 },
      failingRounds: [
        { round: 3, undecided: false, violations: [{ invariant: 'I9', code: 'X', seq: 1, evidence: 'e' } as never] },
      ],
    };
    expect(verdictLine(failing)).toBe(
      'verdict: FAIL (1 violations, 0 UNDECIDED; not judged: rollback (11 rollback triggers in 6 rounds))',
    );
  });

  it('merge accepts a capability only when every shard did, or merge --not-judged names it', async () => {
    const first = await campaign({ notJudged: ['rollback', 'surface'], shard: { index: 1, count: 2 } });
    const second = await campaign({ shard: { index: 2, count: 2 } });
    expect(first.notJudged).toEqual([
      { capability: 'rollback', rounds: 4, count: 8, accepted: true },
      { capability: 'surface', rounds: 2, count: 17, accepted: true },
    ]);
    expect(second.notJudged).toEqual([
      { capability: 'rollback', rounds: 2, count: 3, accepted: false },
      { capability: 'surface', rounds: 3, count: 23, accepted: false },
    ]);
    const inputs = [
      { path: 'a.json', report: JSON.parse(JSON.stringify(first)) },
      { path: 'b.json', report: JSON.parse(JSON.stringify(second)) },
    ];
    const merged = mergeShardReports(inputs);
    expect(merged.notJudged).toEqual([
      { capability: 'rollback', rounds: 6, count: 11, accepted: false },
      { capability: 'surface', rounds: 5, count: 40, accepted: false },
    ]);
    expect(exitCodeOf(merged)).toBe(1);
    const accepted = mergeShardReports(inputs, ['surface']);
    expect(accepted.notJudgedAccepted).toEqual(['surface']);
    expect(verdictLine(accepted)).toBe(
      'verdict: NOT JUDGED: rollback (11 rollback triggers in 6 rounds): the core does not implement it (0 violations in what was judged; --not-judged rollback accepts it as skipped)',
    );
    // A report whose notJudged names no capability is no report catsim wrote.
    const edited = {
      path: 'b.json',
      report: {
        ...JSON.parse(JSON.stringify(second)),
        notJudged: [{ capability: 'restart', rounds: 1, count: 1, accepted: true }],
      },
    };
    expect(() => mergeShardReports([inputs[0]!, edited])).toThrow(
      'b.json: not a report of catsim run --report (/notJudged/0/capability must be equal to one of the allowed values)',
    );
  });
});

describe('replay and check say the same of one round', () => {
  it('round 8 (2 triggers, 8 turns): NOT JUDGED exit 1; with --not-judged rollback,surface, skipped and exit 0; check reads the same from the trace', async () => {
    const trace = join(dir, 'r8.jsonl');
    const replay = await runMain([
      'replay',
      '--seed',
      '1',
      '--round',
      '8',
      '--core',
      CORE,
      '--trace',
      trace,
      '--no-timeline',
    ]);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(
      '\nno violations\nNOT JUDGED: rollback (2 rollback triggers): the core does not implement it (--not-judged rollback accepts it)\nNOT JUDGED: surface (8 model turns): the core does not implement it (--not-judged surface accepts it)\n',
    );
    const accepted = await runMain([
      'replay',
      '--seed',
      '1',
      '--round',
      '8',
      '--core',
      CORE,
      '--trace',
      trace,
      '--no-timeline',
      '--not-judged',
      'rollback,surface',
    ]);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain(
      '\nno violations\nskipped (not judged, accepted): rollback (2 rollback triggers)\nskipped (not judged, accepted): surface (8 model turns)\n',
    );
    const check = await runMain(['check', trace]);
    expect(check.code).toBe(1);
    expect(check.stdout.split('\n').slice(-4)).toEqual([
      'NOT JUDGED: rollback (2 rollback triggers): the core does not implement it (--not-judged rollback accepts it)',
      'NOT JUDGED: surface (8 model turns): the core does not implement it (--not-judged surface accepts it)',
      'verdict: NOT JUDGED (see above)',
      '',
    ]);
    const checkAccepted = await runMain(['check', trace, '--not-judged', 'surface,rollback']);
    expect(checkAccepted.code).toBe(0);
    expect(checkAccepted.stdout.split('\n').slice(-2)).toEqual(['verdict: clean', '']);
  });

  it('round 3 (1 trigger): singular units', async () => {
    const trace = join(dir, 'r3.jsonl');
    const replay = await runMain([
      'replay',
      '--seed',
      '1',
      '--round',
      '3',
      '--core',
      CORE,
      '--trace',
      trace,
      '--no-timeline',
    ]);
    expect(replay.stdout).toContain(
      '\nNOT JUDGED: rollback (1 rollback trigger): the core does not implement it (--not-judged rollback accepts it)\n',
    );
    expect(replay.code).toBe(1);
  });
});

describe('--not-judged', () => {
  it('run --not-judged reaches the campaign: round 3 alone (1 trigger) passes with rollback accepted, and is NOT JUDGED without it', async () => {
    const args = [
      'run',
      '--from',
      '3',
      '--rounds',
      '1',
      '--core',
      CORE,
      '--workers',
      '0',
      '--no-shrink',
      '--quiet',
      '--determinism-every',
      '0',
    ];
    const accepted = await runMain([...args, '--not-judged', 'rollback']);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout.split('\n')[1]).toBe('verdict: PASS (not judged: rollback)');
    const refused = await runMain(args);
    expect(refused.code).toBe(1);
    expect(refused.stdout.split('\n')[1]).toBe(
      'verdict: NOT JUDGED: rollback (1 rollback trigger in 1 round): the core does not implement it (0 violations in what was judged; --not-judged rollback accepts it as skipped)',
    );
  });

  it('takes capability names, comma-separated, each once; refuses an empty value or an unknown name (exit 2, one line)', async () => {
    expect(parseNotJudged(undefined)).toBeUndefined();
    expect(parseNotJudged('surface, rollback,surface')).toEqual(['surface', 'rollback']);
    expect(() => parseNotJudged(' , ')).toThrow(
      '--not-judged is empty: name capabilities (rollback, surface, versions, results, aliases, lifecycle, backups)',
    );
    const bad = await runMain(['check', 'x.jsonl', '--not-judged', 'rollbak']);
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'catsim: --not-judged: no capability "rollbak" (the capabilities are rollback, surface, versions, results, aliases, lifecycle, backups)\n',
    });
  });

  it('a scenario file may name them as notJudged; an unknown name is refused like any schema error', () => {
    const file = join(dir, 'nj.json');
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync('scenarios/default.json', 'utf8')), notJudged: ['rollback'] }),
    );
    expect(loadScenario(file).notJudged).toEqual(['rollback']);
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync('scenarios/default.json', 'utf8')), notJudged: ['restart'] }),
    );
    expect(() => loadScenario(file)).toThrow(/notJudged/);
  });
});

/**
 * Issue 30: a core that does not check results against the output schema of the version that ran
 * (the reference core whose `receipt_outcome` loses `output`, test/support/cores/no-output-check-core.ts)
 * is NOT JUDGED on F33's structured results, never passed. On rounds 0..19 of seed 1 of
 * capability-versions its outcomes of 3 structured results in 3 rounds carry no `output` (5 in 3
 * before F37 joined the scenario, 5 in 4 rounds before F35 and F36 did, 6 in 4 with F35 alone:
 * their planner rules, drawing in the rounds that enable them, change which tools are called,
 * and F37's outages which calls are made); it breaks nothing else.
 */
describe('a core that does not check results is NOT JUDGED on them', () => {
  const UNCHECKED = './test/support/cores/no-output-check-core.ts';

  async function resultsCampaign(notJudged?: Capability[]): Promise<CampaignReport> {
    await loadCore(UNCHECKED);
    return runCampaign({
      seed: '1',
      scenario: loadScenario('capability-versions'),
      core: UNCHECKED,
      firstRound: 0,
      rounds: 20,
      workers: 0,
      determinismEvery: 0,
      notJudged,
    });
  }

  it('not accepted: NOT JUDGED results, exit 1; accepted by --not-judged results: PASS (not judged: results)', async () => {
    const report = await resultsCampaign();
    expect(report.failingRounds).toEqual([]);
    expect(report.notJudged).toEqual([{ capability: 'results', rounds: 3, count: 3, accepted: false }]);
    expect(exitCodeOf(report)).toBe(1);
    expect(verdictLine(report)).toBe(
      'verdict: NOT JUDGED: results (3 structured results in 3 rounds): the core does not implement it (0 violations in what was judged; --not-judged results accepts it as skipped)',
    );
    const accepted = await resultsCampaign(['results']);
    expect(exitCodeOf(accepted)).toBe(0);
    expect(verdictLine(accepted)).toBe('verdict: PASS (not judged: results)');
  });
});
