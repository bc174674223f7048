import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './support/run-main.ts';

const dir = mkdtempSync(join(tmpdir(), 'catsim-shards-'));
const at = (file: string) => join(dir, file);
const read = (file: string) => readFileSync(at(file), 'utf8');
/** A JSON report without its real-time figures. */
const comparable = (file: string) => JSON.stringify({ ...JSON.parse(read(file)), elapsedMs: 0, roundsPerSecond: 0 });
/** A JUnit file without its times. */
const timeless = (file: string) => read(file).replace(/ time="[^"]*"/g, '');
const RUN = ['run', '--seed', '5', '--rounds', '5', '--workers', '0', '--determinism-every', '2', '--no-progress'];

describe('run --shard, merge, --junit', () => {
  it('two shards merged give the whole campaign: report, campaign digest and JUnit file', async () => {
    const whole = await runMain([...RUN, '--report', at('whole.json'), '--junit', at('whole.xml')]);
    expect(whole.code).toBe(0);
    const first = await runMain([...RUN, '--shard', '1/2', '--report', at('s1.json')]);
    expect(first.stdout.split('\n')[0]).toBe(
      'catsim run  seed=5  scenario=default  core=reference  rounds 0..1  shard 1/2 of rounds 0..4',
    );
    expect(first.stdout).toContain(
      'verdict: PASS (0 violations, 0 UNDECIDED); the coverage-probe gate is judged by catsim merge\n',
    );
    const second = await runMain([...RUN, '--shard', '2/2', '--report', at('s2.json')]);
    expect([first.code, second.code]).toEqual([0, 0]);
    const merged = await runMain([
      'merge',
      at('s2.json'),
      at('s1.json'),
      '--report',
      at('merged.json'),
      '--junit',
      at('merged.xml'),
    ]);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout.split('\n')[0]).toBe('catsim run  seed=5  scenario=default  core=reference  rounds 0..4');
    expect(merged.stdout).toMatch(/^throughput: [\d.]+ rounds\/s \(2 reports merged, [\d.]+ s\)$/m);
    expect(comparable('merged.json')).toBe(comparable('whole.json'));
    const digest = JSON.parse(read('whole.json')).campaignDigest as string;
    expect(merged.stdout).toContain(`campaign digest: ${digest} `);
    expect(timeless('merged.xml')).toBe(timeless('whole.xml'));
    expect(read('whole.xml')).toContain(`<property name="campaignDigest" value="${digest}"/>`);
    // One test case per invariant the oracle judges (I1-I40: 40) and five for the gates
    // (CORE_FAILED, UNDECIDED rounds, coverage probes, determinism, campaign complete).
    expect(read('whole.xml')).toContain('<testsuites tests="45" failures="0" errors="0" skipped="0"');
  });

  it('the JUnit file fails the test case of the invariant a mutant breaks, with its replay lines', async () => {
    const { code } = await runMain([
      'run',
      '--seed',
      '1',
      '--rounds',
      '2',
      '--workers',
      '0',
      '--no-shrink',
      '--core',
      'mutant:first-page-only',
      '--junit',
      at('mutant.xml'),
    ]);
    expect(code).toBe(1);
    const xml = read('mutant.xml');
    expect(xml).toMatch(
      /<testcase classname="catsim.gate" name="I2">\s*<failure message="\d+ violations? of I2 in 2 rounds" type="violation"\/>/,
    );
    expect(xml).toContain('catsim replay --seed 1 --round 0 --core mutant:first-page-only   # I2 ');
    expect(xml).toContain('<testcase classname="catsim.gate" name="I10"/>');
  });

  it('refuses a shard whose scenario file has the same name but other content (the scenario digest differs)', async () => {
    // A copy of the built-in default scenario, still named "default", with one field changed.
    const scenario = { ...JSON.parse(readFileSync('scenarios/default.json', 'utf8')), faultEnableFraction: 0.25 };
    writeFileSync(at('default-copy.json'), JSON.stringify(scenario));
    const second = await runMain([
      ...RUN,
      '--shard',
      '2/2',
      '--scenario',
      at('default-copy.json'),
      '--report',
      at('s2-copy.json'),
    ]);
    expect(second.code).toBe(0);
    const report = JSON.parse(read('s2-copy.json')) as {
      scenario: string;
      scenarioPath: string;
      scenarioDigest: string;
    };
    expect([report.scenario, report.scenarioPath]).toEqual(['default', at('default-copy.json')]);
    const builtIn = JSON.parse(read('s1.json')) as { scenarioPath: null; scenarioDigest: string };
    expect(builtIn.scenarioPath).toBeNull();
    const merged = await runMain(['merge', at('s1.json'), at('s2-copy.json')]);
    expect(merged.stderr).toBe(
      `catsim: ${at('s2-copy.json')}: scenarioDigest is "${report.scenarioDigest}", but ${at('s1.json')} has "${builtIn.scenarioDigest}": not parts of one campaign\n`,
    );
    expect(merged.code).toBe(2);
  });

  it('a failing round of a scenario given as a file is replayed from the printed line, which names the file', async () => {
    const scenario = { ...JSON.parse(readFileSync('scenarios/default.json', 'utf8')), name: 'custom' };
    writeFileSync(at('custom.json'), JSON.stringify(scenario));
    const run = await runMain([
      'run',
      '--seed',
      '1',
      '--rounds',
      '4',
      '--workers',
      '0',
      '--determinism-every',
      '0',
      '--no-progress',
      '--no-shrink',
      '--core',
      'mutant:no-final-recheck',
      '--scenario',
      at('custom.json'),
    ]);
    expect(run.code).toBe(1);
    // On the merged default scenario (F18-F23, per-fault swarm streams) round 0 is the first of
    // rounds 0-3 where the mutant publishes ELIGIBLE without its final recheck (I1), so its line is first.
    const line = run.stdout.split('\n').find((text) => text.startsWith('  catsim replay '));
    expect(line?.split('   #')[0]?.trim()).toBe(
      `catsim replay --seed 1 --round 0 --core mutant:no-final-recheck --scenario ${at('custom.json')}`,
    );
    const replay = await runMain([
      'replay',
      '--seed',
      '1',
      '--round',
      '0',
      '--core',
      'mutant:no-final-recheck',
      '--scenario',
      at('custom.json'),
      '--trace',
      at('custom-0.jsonl'),
    ]);
    expect(replay.stdout.split('\n')[0]).toBe(
      'catsim replay  seed=1  round=0  scenario=custom  core=mutant:no-final-recheck',
    );
    expect(replay.code).toBe(1);
  });

  it('refuses a malformed shard, a shard without a report, and shards that are not one campaign (exit 2, one line)', async () => {
    const negative = JSON.parse(read('s2.json')) as { violationsByInvariant: Record<string, number> };
    negative.violationsByInvariant.I1 = -5;
    writeFileSync(at('s2-negative.json'), JSON.stringify(negative));
    const cases: [string[], string][] = [
      [
        ['merge', at('s1.json'), at('s2-negative.json')],
        `catsim: ${at('s2-negative.json')}: not a report of catsim run --report (/violationsByInvariant/I1 must be >= 0)\n`,
      ],
      [
        [...RUN, '--report', at('same.out'), '--junit', at('same.out')],
        `catsim: --report and --junit name the same file ${at('same.out')}: one would overwrite the other\n`,
      ],
      [
        ['merge', at('s1.json'), at('s2.json'), '--report', at('s1.json')],
        `catsim: --report names the report ${at('s1.json')} being merged: the merge would overwrite it\n`,
      ],
      [[...RUN, '--shard', '3/2', '--report', at('x.json')], 'catsim: --shard must be i/n with 1 <= i <= n, got 3/2\n'],
      [[...RUN, '--shard', '0/2', '--report', at('x.json')], 'catsim: --shard must be i/n with 1 <= i <= n, got 0/2\n'],
      [[...RUN, '--shard', '1/2'], 'catsim: --shard needs --report FILE.json: catsim merge reads the shard reports\n'],
      [
        ['merge', at('s1.json')],
        `catsim: rounds 2..4 are in no report, but ${at('s1.json')} is a shard of rounds 0..4 (catsim run --from 2 --rounds 3 with the same seed, scenario, catalog and core runs them)\n`,
      ],
      [
        ['merge', at('s1.json'), at('whole.json')],
        `catsim: ${at('whole.json')}: its rounds 0..4 overlap the rounds 0..1 of ${at('s1.json')}\n`,
      ],
      [
        [...RUN, '--shard', '1/6', '--report', at('x.json')],
        'catsim: --shard 1/6: 5 rounds cannot make 6 shards (some would be empty); use at most 5\n',
      ],
      [['merge', dir], `catsim: ${dir}: is a directory, not a file\n`],
      [['merge', at('nope.json')], `catsim: ${at('nope.json')}: no such file\n`],
      [['merge', at('s1.json'), at('whole.xml')], `catsim: ${at('whole.xml')}: not valid JSON (line 1, column 1)\n`],
    ];
    for (const [args, stderr] of cases) {
      const result = await runMain(args);
      expect(result.stderr).toBe(stderr);
      expect(result.code).toBe(2);
    }
  });
});
