/**
 * The CI examples a host team copies (examples/ci/): the GitHub Actions matrix and the Kubernetes
 * Indexed Job parse, agree with themselves (shard count = matrix size = completions), run the
 * commands catsim accepts, and `--shard auto/N` takes its index from JOB_COMPLETION_INDEX.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { parseShard } from '../cli/shard.ts';
import { runMain } from './support/run-main.ts';

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface WorkflowJob {
  needs?: string | string[];
  if?: string;
  strategy?: { matrix: { shard: number[] } };
  steps: Step[];
}

const workflow = parse(readFileSync('examples/ci/github-actions.yml', 'utf8')) as {
  jobs: Record<string, WorkflowJob>;
  env: Record<string, string>;
};

/** The `--shard X/N` of a command line. */
function shardFlag(command: string): { index: string; count: number } {
  const match = / --shard (.+?)\/(\d+) /.exec(command);
  expect(match).not.toBeNull();
  return { index: match?.[1] ?? '', count: Number(match?.[2]) };
}

describe('examples/ci/github-actions.yml', () => {
  const { shard, merge } = workflow.jobs;
  const runStep = shard?.steps.find((step) => step.run?.includes('catsim run')) ?? {};

  it('runs one shard per matrix entry, 1..N, and the --shard count is N', () => {
    const flag = shardFlag(runStep.run ?? '');
    expect(flag).toEqual({ index: '${{ matrix.shard }}', count: 4 });
    expect(shard?.strategy?.matrix.shard).toEqual([1, 2, 3, 4]);
    expect(runStep.run).toBe(
      'npx catsim run --seed "$CATSIM_SEED" --rounds "$CATSIM_ROUNDS" --core "$CATSIM_CORE" --shard ${{ matrix.shard }}/4 --report shard-${{ matrix.shard }}.json --no-progress --no-shrink',
    );
    expect(workflow.env).toEqual({ CATSIM_SEED: '1', CATSIM_ROUNDS: '100000', CATSIM_CORE: './catsim/my-core.ts' });
  });

  it('uploads each shard report even when the shard found violations, and the merge job runs anyway', () => {
    const upload = shard?.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload).toMatchObject({
      if: 'always()',
      with: { name: 'catsim-shard-${{ matrix.shard }}', path: 'shard-${{ matrix.shard }}.json' },
    });
    expect(merge).toMatchObject({ needs: 'shard', if: 'always()' });
  });

  it('downloads every shard report and merges them with JUnit', () => {
    const steps = merge?.steps ?? [];
    const download = steps.findIndex((step) => step.uses?.startsWith('actions/download-artifact@'));
    const mergeStep = steps.findIndex((step) => step.run?.includes('catsim merge'));
    expect(download).toBeGreaterThanOrEqual(0);
    expect(steps[download]?.with).toEqual({ pattern: 'catsim-shard-*', 'merge-multiple': true });
    expect(mergeStep).toBeGreaterThan(download);
    expect(steps[mergeStep]?.run).toBe(
      'npx catsim merge shard-*.json --junit catsim-gate.xml --report catsim-gate.json',
    );
  });
});

describe('examples/ci/github-actions-host-test.yml', () => {
  const hostTest = parse(readFileSync('examples/ci/github-actions-host-test.yml', 'utf8')) as {
    jobs: Record<string, WorkflowJob>;
    env: Record<string, string>;
  };
  const steps = hostTest.jobs['host-test']?.steps ?? [];
  const command = steps.find((step) => step.run?.includes('catsim host-test'))?.run ?? '';

  it('sets up Python beside Node, and uploads the reports even when the job fails', () => {
    expect(steps.map((step) => step.uses ?? step.run)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'actions/setup-python@v5',
      'npm ci',
      command,
      'actions/upload-artifact@v4',
    ]);
    expect(steps.at(-1)).toMatchObject({ if: 'always()', with: { path: 'catsim-host-test/' } });
  });

  it('runs a command catsim accepts: against the Python example host with a baseline of its known failures, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-ci-host-test-'));
    writeFileSync(
      join(dir, 'baseline.json'),
      JSON.stringify({ expected: { 'empty-cursor@http': 'FAILED', 'empty-cursor@stdio': 'FAILED' } }),
    );
    const env: Record<string, string> = {
      ...hostTest.env,
      CATSIM_ADAPTER: 'examples/blackbox-python-host/adapter.py',
      CATSIM_BASELINE: join(dir, 'baseline.json'),
    };
    const words = command
      .replace(/^npx catsim /, '')
      .replace(/"\$([A-Z_]+)"/g, (_, name: string) => env[name] ?? '')
      .split(' ');
    const at = words.indexOf('--out');
    words.splice(at, 2, '--out', join(dir, 'out'), '--cases', 'empty-cursor');
    const ran = await runMain(words);
    expect([ran.code, ran.stdout.split('\n').at(-2)]).toEqual([
      0,
      `2 of 2 cases pass (OK, NON-STRICT, or as the baseline expects); reports in ${join(dir, 'out')}/ (summary.md, index.json, junit.xml)`,
    ]);
  }, 60_000);
});

describe('examples/ci/k8s-indexed-job.yaml', () => {
  const documents = parseAllDocuments(readFileSync('examples/ci/k8s-indexed-job.yaml', 'utf8')).map(
    (document) => document.toJS() as Record<string, any>,
  );
  const [claim, campaign, merge] = documents;

  it('holds the reports volume, the Indexed Job and the merge Job', () => {
    expect(documents.map((document) => `${document.kind}/${document.metadata.name}`)).toEqual([
      'PersistentVolumeClaim/catsim-reports',
      'Job/catsim-campaign',
      'Job/catsim-merge',
    ]);
    expect(claim?.spec.accessModes).toEqual(['ReadWriteMany']);
  });

  it('runs N indexed pods at once, each with --shard auto/N, N = completions = parallelism', () => {
    expect(campaign?.spec).toMatchObject({
      completionMode: 'Indexed',
      completions: 4,
      parallelism: 4,
      backoffLimitPerIndex: 0,
    });
    const container = campaign?.spec.template.spec.containers[0];
    expect(container.command).toEqual(['sh', '-c']);
    const command = container.args[0] as string;
    expect(shardFlag(command)).toEqual({ index: 'auto', count: 4 });
    expect(command).toBe(
      'npx catsim run --seed 1 --rounds 100000 --core ./catsim/my-core.ts --shard auto/4 --report /reports/shard-$JOB_COMPLETION_INDEX.json --no-progress --no-shrink',
    );
    expect(container.volumeMounts).toEqual([{ name: 'reports', mountPath: '/reports' }]);
  });

  it('merges the N reports with JUnit once they all exist', () => {
    const spec = merge?.spec.template.spec;
    expect(spec.initContainers[0].command[2]).toBe(
      'until [ $(ls /reports/shard-*.json 2>/dev/null | wc -l) -ge 4 ]; do sleep 30; done',
    );
    expect(spec.containers[0].args[0]).toBe(
      'npx catsim merge /reports/shard-*.json --junit /reports/catsim-gate.xml --report /reports/catsim-gate.json',
    );
  });
});

describe('--shard auto/N', () => {
  it('is shard JOB_COMPLETION_INDEX + 1 of N', () => {
    expect(parseShard('auto/4', { JOB_COMPLETION_INDEX: '0' })).toEqual({ index: 1, count: 4 });
    expect(parseShard('auto/4', { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 4, count: 4 });
    expect(parseShard('2/4', { JOB_COMPLETION_INDEX: '0' })).toEqual({ index: 2, count: 4 });
  });

  it('refuses, in one line, a missing, empty, non-integer or out-of-range index', () => {
    const problem = (env: NodeJS.ProcessEnv): string => {
      try {
        parseShard('auto/4', env);
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    };
    const missing =
      '--shard auto/4 needs JOB_COMPLETION_INDEX (the 0-based completion index a Kubernetes Indexed Job sets), which is not set';
    expect(problem({})).toBe(missing);
    expect(problem({ JOB_COMPLETION_INDEX: '' })).toBe(missing);
    expect(problem({ JOB_COMPLETION_INDEX: '4' })).toBe(
      '--shard auto/4: JOB_COMPLETION_INDEX is "4", expected an integer 0..3',
    );
    expect(problem({ JOB_COMPLETION_INDEX: '-1' })).toBe(
      '--shard auto/4: JOB_COMPLETION_INDEX is "-1", expected an integer 0..3',
    );
    expect(problem({ JOB_COMPLETION_INDEX: '1.5' })).toBe(
      '--shard auto/4: JOB_COMPLETION_INDEX is "1.5", expected an integer 0..3',
    );
  });

  it('the command line runs the shard the environment names, and refuses with exit 2 before any round when the variable is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-auto-shard-'));
    const report = join(dir, 'shard.json');
    const args = [
      'run',
      '--seed',
      '1',
      '--rounds',
      '4',
      '--workers',
      '0',
      '--no-shrink',
      '--shard',
      'auto/2',
      '--report',
      report,
    ];
    const saved = process.env.JOB_COMPLETION_INDEX;
    try {
      process.env.JOB_COMPLETION_INDEX = '1';
      const ran = await runMain(args);
      expect(ran.code).toBe(0);
      expect(JSON.parse(readFileSync(report, 'utf8')).shard).toEqual({ index: 2, count: 2, firstRound: 0, rounds: 4 });
      expect(ran.stdout).toMatch(
        /^catsim run {2}seed=1 {2}scenario=default {2}core=reference {2}rounds 2\.\.3 {2}shard 2\/2 of rounds 0\.\.3$/m,
      );
      delete process.env.JOB_COMPLETION_INDEX;
      expect(await runMain(args)).toEqual({
        code: 2,
        stdout: '',
        stderr:
          'catsim: --shard auto/2 needs JOB_COMPLETION_INDEX (the 0-based completion index a Kubernetes Indexed Job sets), which is not set\n',
      });
    } finally {
      if (saved === undefined) delete process.env.JOB_COMPLETION_INDEX;
      else process.env.JOB_COMPLETION_INDEX = saved;
    }
  });
});
