import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../cli/format/summary.ts';
import { runCampaign } from '../runner/campaign.ts';
import type { CampaignReport } from '../runner/report.ts';
import { loadCatalog } from '../sim/plan/catalog.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { TOOL_POOL } from '../sim/plan/tool-pool.ts';
import { catsim } from './support/run-cli.ts';
import { noSurfaceMetrics } from '../oracle/metrics.ts';

describe('campaigns on the shipped catalogs', () => {
  for (const name of ['everything', 'filesystem', 'memory']) {
    it(`30 rounds built from scenarios/catalogs/${name}.json pass with zero violations`, async () => {
      const catalog = loadCatalog(`scenarios/catalogs/${name}.json`);
      const report = await runCampaign({
        seed: '1',
        scenario: loadScenario('default'),
        catalog,
        core: 'reference',
        firstRound: 0,
        rounds: 30,
        workers: 0,
        determinismEvery: 10,
      });
      expect(report.scenario).toBe(`default+catalog:${name}`);
      expect(report.catalog).toEqual({ name, path: `scenarios/catalogs/${name}.json` });
      expect(report.failingRounds).toEqual([]);
      expect(report.determinism).toEqual({ replayed: 3, mismatches: [] });
    });
  }

  it('30 rounds of the modern scenario built from scenarios/catalogs/everything.json pass with zero violations', async () => {
    // Every tool of everything.json carries `execution.taskSupport`, which the 2026-07-28 codec
    // strips; before sim/round.ts ran plans through `onTheWire`, round 1 (s0 modern over HTTP)
    // failed I13 PAGE_NOT_SERVED at seq 13 on the reference core.
    const report = await runCampaign({
      seed: '1',
      scenario: loadScenario('modern'),
      catalog: loadCatalog('scenarios/catalogs/everything.json'),
      core: 'reference',
      firstRound: 0,
      rounds: 30,
      workers: 0,
      determinismEvery: 0,
    });
    expect(report.scenario).toBe('modern+catalog:everything');
    expect(report.failingRounds).toEqual([]);
  });

  it('a catalog whose real tools a correct core must quarantine runs clean: no probe of theirs is owed an admission', async () => {
    // Two tools as real servers write them: an array root, and draft-03's boolean `required`.
    const file = JSON.parse(readFileSync('scenarios/catalogs/memory.json', 'utf8'));
    file.pages[0].tools.push(
      { name: 'list_tags', description: 'array root', inputSchema: { type: 'array', items: { type: 'string' } } },
      {
        name: 'tag_node',
        description: 'draft-03 required',
        inputSchema: { type: 'object', properties: { id: { type: 'string', required: true } } },
      },
    );
    const dir = mkdtempSync(join(tmpdir(), 'catsim-defective-catalog-'));
    writeFileSync(join(dir, 'defective.json'), JSON.stringify(file));
    const catalog = loadCatalog(join(dir, 'defective.json'));
    rmSync(dir, { recursive: true, force: true });
    const report = await runCampaign({
      seed: '1',
      scenario: loadScenario('default'),
      catalog,
      core: 'reference',
      firstRound: 0,
      rounds: 10,
      workers: 0,
      determinismEvery: 0,
    });
    // Before the world read the content checks itself, round 0 already failed I12 PROBE_REFUSED on both tools.
    expect(report.failingRounds).toEqual([]);
    expect(report.decisions.TOOL_QUARANTINED).toBeGreaterThan(0);
    expect(report.probeCalls.admitted).toBe(report.probeCalls.expected);
  });

  it('the plans draw their tools from the catalog, never from the built-in pool', () => {
    const catalog = loadCatalog('scenarios/catalogs/memory.json');
    const catalogNames = new Set(catalog.tools.map((tool) => tool.name as string));
    const builtInOnly = TOOL_POOL.map((entry) => entry.descriptor.name as string).filter(
      (name) => !catalogNames.has(name),
    );
    const names = new Set<string>();
    for (let round = 0; round < 40; round += 1) {
      for (const server of generatePlan('1', round, loadScenario('default'), catalog.pool).servers) {
        for (const step of server.history)
          for (const view of Object.values(step.views))
            for (const tool of view) names.add(String(tool.name).toLowerCase().replace(/-/g, '_'));
      }
    }
    expect([...catalogNames].filter((name) => names.has(name)).sort()).toEqual([...catalogNames].sort());
    expect([...names].filter((name) => builtInOnly.some((other) => name.startsWith(other)))).toEqual([]);
  });
});

describe('run and replay --catalog on the command line', () => {
  it('exit 2 with one line naming the file and the problem for a malformed catalog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-catalog-cli-'));
    const good = JSON.parse(readFileSync('scenarios/catalogs/memory.json', 'utf8'));
    const files: Record<string, string> = {
      'not-json.json': '{"schema": "catsim.catalog.v1", ',
      'wrong-schema.json': JSON.stringify({ ...good, schema: 'catsim.plan.v1' }),
      'tools-not-objects.json': JSON.stringify({
        ...good,
        pages: [{ cursorIn: null, nextCursor: null, tools: [good.pages[0].tools[0], 'read_graph'] }],
      }),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const cases: [string, string][] = [
      ['not-json.json', 'not valid JSON (line 1, column 33)'],
      ['wrong-schema.json', '/schema must be "catsim.catalog.v1"'],
      ['tools-not-objects.json', '/pages/0/tools/1 must be object'],
      ['missing.json', 'no such file'],
    ];
    const runs: [string[], string, string][] = cases.map(([name, problem]) => [
      ['run', '--rounds', '1', '--workers', '0', '--catalog', join(dir, name)],
      problem,
      name,
    ]);
    runs.push([
      ['replay', '--seed', '1', '--round', '0', '--catalog', join(dir, 'tools-not-objects.json')],
      '/pages/0/tools/1 must be object',
      'tools-not-objects.json',
    ]);
    for (const [args, problem, name] of runs) {
      const { code, stdout, stderr } = await catsim(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(`catsim: ${join(dir, name)}: ${problem}\n`);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('replay --catalog names the catalog in its header', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-catalog-replay-'));
    const { code, stdout } = await catsim([
      'replay',
      '--seed',
      '1',
      '--round',
      '3',
      '--catalog',
      'scenarios/catalogs/filesystem.json',
      '--trace',
      join(dir, 't.jsonl'),
      '--no-timeline',
    ]);
    rmSync(dir, { recursive: true, force: true });
    expect(stdout.split('\n')[0]).toBe(
      'catsim replay  seed=1  round=3  scenario=default+catalog:filesystem  core=reference',
    );
    expect(code).toBe(0);
  });

  it('the line printed for a failing round replays it with the same --catalog', () => {
    const report: CampaignReport = {
      seed: '7',
      scenario: 'default+catalog:filesystem',
      scenarioPath: null,
      scenarioDigest: '0'.repeat(64),
      catalog: { name: 'filesystem', path: 'scenarios/catalogs/filesystem.json' },
      core: 'mutant:first-page-only',
      firstRound: 0,
      roundsPlanned: 1,
      roundsRun: 1,
      interrupted: false,
      resumeFrom: 1,
      violationsByInvariant: { I2: 1 },
      undecidedRounds: 0,
      endStates: {},
      endReasons: {},
      faultsEnabled: {},
      failingRounds: [
        {
          round: 0,
          undecided: false,
          violations: [{ invariant: 'I2', code: 'HALF_PAGE', seq: 1, evidence: 'e' } as never],
        },
      ],
      probes: {},
      probesMissed: [],
      notJudged: [],
      notJudgedAccepted: [],
      decisions: {},
      revocation: { count: 0, censored: 0, p50Ms: null, p99Ms: null, maxMs: null },
      receipts: { executed: 0, covered: 0 },
      unknownDialectAdmissions: 0,
      probeCalls: { expected: 0, admitted: 0 },
      surface: { ...noSurfaceMetrics(), unsupportedRounds: 0 },
      determinism: { replayed: 0, mismatches: [] },
      campaignDigest: null,
      shard: null,
      mergeData: { roundDigests: ['0'.repeat(64)], revocationDelaysMs: [], revocationsCensored: 0, probeGate: {} },
      elapsedMs: 1,
      roundsPerSecond: 1,
    };
    const text = formatSummary(report, 0);
    expect(text).toContain('catsim run  seed=7  scenario=default+catalog:filesystem  core=mutant:first-page-only');
    expect(text).toContain(
      '  catsim replay --seed 7 --round 0 --core mutant:first-page-only --catalog scenarios/catalogs/filesystem.json   # I2 HALF_PAGE: e\n',
    );
    const spaced = formatSummary(
      {
        ...report,
        scenario: 'busy+catalog:my catalog',
        catalog: { name: 'my catalog', path: "/x/it's my catalog.json" },
      },
      0,
    );
    expect(spaced).toContain(
      `--round 0 --core mutant:first-page-only --scenario busy --catalog '/x/it'\\''s my catalog.json'   #`,
    );
  });
});
