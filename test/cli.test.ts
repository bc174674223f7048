import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULT_ID_RANGE } from '../sim/faults/index.ts';
import { planProblem } from '../sim/plan/plan-schema.ts';
import { runMain } from './support/run-main.ts';
import { catsim } from './support/run-cli.ts';

describe('catsim command line', () => {
  it('prints help with every command and exits 0', async () => {
    const { code, stdout } = await catsim(['--help']);
    expect(code).toBe(0);
    for (const command of ['run', 'replay', 'discover']) expect(stdout).toContain(`catsim ${command}`);
  });

  it('runs a small campaign in-process and prints the summary lines', async () => {
    const { code, stdout } = await catsim([
      'run',
      '--seed',
      '1',
      '--rounds',
      '6',
      '--workers',
      '0',
      '--determinism-every',
      '3',
    ]);
    expect(stdout).toContain('catsim run  seed=1  scenario=default  core=reference  rounds 0..5');
    expect(stdout).toMatch(/^violations per invariant: I1 0 {2}I2 0 /m);
    expect(stdout).toContain('determinism: 2 rounds replayed in a fresh world, 0 mismatches');
    // One count per fault the default scenario lists: F1-F37 (issue 29 item 1 added the modern era's
    // F24, F25, F27-F30; issue 30 item 7 the tool-version faults F26 and F31-F37).
    expect(stdout).toMatch(
      /^faults enabled \(rounds\): F1 \d+ {2}F2 \d+ {2}F3 \d+ {2}F4 \d+ {2}F5 \d+ {2}F6 \d+ {2}F7 \d+ {2}F8 \d+ {2}F9 \d+ {2}F10 \d+ {2}F11 \d+ {2}F12 \d+ {2}F13 \d+ {2}F14 \d+ {2}F15 \d+ {2}F16 \d+ {2}F17 \d+ {2}F18 \d+ {2}F19 \d+ {2}F20 \d+ {2}F21 \d+ {2}F22 \d+ {2}F23 \d+ {2}F24 \d+ {2}F25 \d+ {2}F26 \d+ {2}F27 \d+ {2}F28 \d+ {2}F29 \d+ {2}F30 \d+ {2}F31 \d+ {2}F32 \d+ {2}F33 \d+ {2}F34 \d+ {2}F35 \d+ {2}F36 \d+ {2}F37 \d+$/m,
    );
    expect(code).toBe(0);
  });

  it('exits 2 with one line for usage and input errors', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-cli-'));
    writeFileSync(join(dir, 'bad.json'), '{"name": 3');
    const scenario = JSON.parse(readFileSync('scenarios/default.json', 'utf8'));
    writeFileSync(join(dir, 'wrong.json'), JSON.stringify({ ...scenario, faults: ['F99'] }));
    writeFileSync(join(dir, 'typo.json'), JSON.stringify({ ...scenario, pageSizee: scenario.pageSize }));
    const cases: [string[], string][] = [
      [['run', '--rounds', '-1'], 'catsim: --rounds must be a positive integer, got -1\n'],
      [
        ['run', '--rounds', '1', '--core', 'nope'],
        'catsim: unknown core "nope"; expected one of: reference, mutant:first-page-only, mutant:no-cursor-loop-detection, mutant:two-equal-scans, mutant:last-page-revision, mutant:no-final-recheck, mutant:unversioned-write, mutant:trust-readonly-hint, mutant:publish-without-cas, mutant:key-without-tenant, mutant:no-recheck-at-call, mutant:revocation-on-refresh, mutant:any-dialect, mutant:forward-undisclosed, mutant:receipt-without-epoch, mutant:serve-expired, mutant:ignore-identity-rotation, mutant:no-catalog-limits, mutant:no-list-changed-barrier, mutant:resetting-debounce, mutant:fabricated-scans, mutant:send-refused-name, mutant:auth-refusal-as-empty, mutant:ignore-cache-scope, mutant:share-public, mutant:keep-invalid-cursor-pages, mutant:never-resubscribes, mutant:rollback-to-stale, mutant:rollback-keeps-leasing, mutant:trust-ttl, mutant:disable-not-enforced, mutant:emergency-disable-ignored, mutant:late-empty-publish, mutant:deprecation-ignored, mutant:version-by-claim, mutant:output-unchecked, mutant:alias-follows-latest, mutant:breaking-alias-without-migration, mutant:remove-while-referenced, mutant:removal-misreported, mutant:disabled-still-executes, mutant:announce-as-no-new-binding, mutant:trust-semver-claim, mutant:snapshot-wide-drift, mutant:backup-any-contract, mutant:refuse-everything, mutant:seal-from-final-request, mutant:shallow-baseline, mutant:only-early-check, mutant:refusal-without-settlement, mutant:double-settlement, mutant:silent-top-n, mutant:hooks-add-tools, mutant:two-transaction-publish, mutant:resume-walk-after-restart, mutant:trust-pre-crash-memory, mutant:journal-beside-disk, peer:sdk-autorefresh, peer:list-once, peer:mcp-client-v2, peer:mcp-client-v2-modern, peer:openai-agents, peer:langchain-mcp, peer:ai-sdk-mcp\n',
      ],
      [
        ['run', '--rounds', '1', '--scenario', join(dir, 'bad.json')],
        `catsim: ${join(dir, 'bad.json')}: not valid JSON (line 1, column 11)\n`,
      ],
      [
        ['run', '--rounds', '1', '--scenario', join(dir, 'wrong.json')],
        `catsim: ${join(dir, 'wrong.json')}: "faults[0]" must be a fault id ${FAULT_ID_RANGE}, got "F99"\n`,
      ],
      [
        ['run', '--rounds', '1', '--scenario', join(dir, 'typo.json')],
        `catsim: ${join(dir, 'typo.json')}: unknown field "pageSizee"\n`,
      ],
      [
        ['run', '--rounds', '1', '--scenario', 'no-such-scenario'],
        'catsim: no built-in scenario "no-such-scenario" (there are: capability-versions, default, equivocation, host-restart, modern); a scenario file is named by a path with a "/" or ending in .json, e.g. ./no-such-scenario.json\n',
      ],
      [['frobnicate'], 'catsim: Unknown argument: frobnicate\n'],
      // Refused before any round runs (it used to run every campaign first and then lose them).
      [
        ['prove', '--peers', '--peer-rounds', '3', '--shrink', '--out', join(dir, 'missing')],
        `catsim: --out ${join(dir, 'missing')}/catsim-shrunk-1-0-check.plan.json: cannot write there (the directory ${join(dir, 'missing')} does not exist)\n`,
      ],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await catsim(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr.split('\n')[0] + '\n', args.join(' ')).toContain(message.split('\n')[0] as string);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('run --help', () => {
  it('lists the fault menu from the registry: every fault id with its title, equivocation last', async () => {
    const { code, stdout } = await catsim(['run', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'Faults (a scenario\'s "faults"; each round enables a seeded subset, sim/faults/):\n  F1     tools added, removed or changed between pages of a scan (each change\n         bumps the revision)\n  F2     A-B-A: a change and its revert between or within scans\n',
    );
    expect(stdout).toContain('\n  F12    unversioned server (no revision at all)\n');
    expect(stdout).toContain(
      "\n  F17    calls to tool names that were never listed (a model guessing real\n         names)\n  F18    host restart mid-scan, inside or right after a publish, or between\n         lease and dispatch (the registry reloads from its durable store)\n  F19    operator and monitor rollback triggers (missing-tool rate rise,\n         privilege escalation): roll back to a fresh, authorized generation or\n         DISABLE\n  F20    bursts of `list_changed` with no change, closer together than the\n         coalescing delay and far longer than it\n  F21    `tools/list` refused for authorization for some audiences, for a while\n  F22    host extensions tamper with the model's tool surface: hooks add,\n         remove, reorder and edit tools (in place through shared references\n         too), add an unadmitted helper, cut to top-N, edit late; harmless\n         hooks beside them\n  F23    a catalog over the whole-catalog limits (more tools than toolCountMax,\n         more descriptor bytes than catalogBytesMax)\n",
    );
    // Equivocation, the scenario-level fault, comes after the whole menu (however long it grows).
    expect(stdout).toMatch(/\n {2}F\d+ {4}[^\n]*\n(?: {9}[^\n]*\n)* {2}EQUIV  equivocation/);
    expect(stdout).toContain(
      '\n  EQUIV  equivocation: the same revision reported for different content\n         (scenario "equivocation": true)\n',
    );
  });
});

describe('counts on the command line (in-process)', () => {
  it('run --rounds must be a positive integer: a campaign of no rounds is a usage error, not a PASS', async () => {
    for (const rounds of ['0', '1.5', '-3']) {
      const { code, stdout, stderr } = await runMain(['run', '--rounds', rounds, '--workers', '0']);
      expect(stderr).toBe(`catsim: --rounds must be a positive integer, got ${rounds}\n`);
      expect(stdout).toBe('');
      expect(code).toBe(2);
    }
  });

  it('keeps the other counts non-negative and names the first bad one', async () => {
    expect(await runMain(['run', '--rounds', '1', '--from', '-2'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --from must be a non-negative integer, got -2\n',
    });
    expect(await runMain(['prove', '--cap', '0'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --cap must be a positive integer, got 0\n',
    });
    expect(await runMain(['discover', '--stdio', 'x', '--timeout', '0'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --timeout must be a positive integer, got 0\n',
    });
  });
});

describe('replay --plan and --trace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-replay-'));
  const core = 'mutant:no-final-recheck';
  const prefix = join(dir, 'shrunk');
  const planPath = `${prefix}.plan.json`;

  it('a plan catsim shrink writes validates and replays (still failing: exit 1)', async () => {
    const shrink = await runMain([
      'shrink',
      '--seed',
      '1',
      '--round',
      '3',
      '--core',
      core,
      '--attempts',
      '20',
      '--out',
      prefix,
      '--no-timeline',
    ]);
    expect(shrink.code, shrink.stderr).toBe(1);
    expect(planProblem(JSON.parse(readFileSync(planPath, 'utf8')))).toBeUndefined();
    const replay = await runMain([
      'replay',
      '--plan',
      planPath,
      '--core',
      core,
      '--trace',
      join(dir, 'shrunk.jsonl'),
      '--no-timeline',
    ]);
    expect(replay.stderr).toBe('');
    expect(replay.stdout).toContain('VIOLATION I1 NO_FINAL_RECHECK');
    expect(replay.code).toBe(1);
  });

  it('a plan with the right header and a broken body is exit 2 naming the file and the field, before the round runs', async () => {
    const plan = JSON.parse(readFileSync(planPath, 'utf8'));
    plan.servers[0].history = 'x';
    const broken = join(dir, 'broken.plan.json');
    writeFileSync(broken, JSON.stringify(plan));
    const trace = join(dir, 'broken.jsonl');
    const { code, stdout, stderr } = await runMain(['replay', '--plan', broken, '--core', core, '--trace', trace]);
    expect(stderr).toBe(`catsim: ${broken}: "servers[0].history" must be an array of revision steps, got "x"\n`);
    expect(stdout).toBe('');
    expect(code).toBe(2);
    expect(existsSync(trace)).toBe(false);
    const other = join(dir, 'not-a-plan.json');
    writeFileSync(other, JSON.stringify({ schema: 'catsim.trace.v1' }));
    expect((await runMain(['replay', '--plan', other])).stderr).toBe(
      `catsim: ${other}: not a catsim.plan.v1 plan (written by catsim shrink)\n`,
    );
  });

  it('a --trace path that cannot be written is exit 2 before the round runs', async () => {
    const missing = join(dir, 'no-such-dir');
    const trace = join(missing, 't.jsonl');
    for (const args of [
      ['--seed', '1', '--round', '3'],
      ['--plan', planPath, '--core', core],
    ]) {
      const { code, stdout, stderr } = await runMain(['replay', ...args, '--trace', trace]);
      expect(stderr).toBe(`catsim: --trace ${trace}: cannot write there (the directory ${missing} does not exist)\n`);
      expect(stdout).toBe('');
      expect(code).toBe(2);
    }
  });
});
