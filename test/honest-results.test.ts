import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeShrink } from '../cli/commands/shrink.ts';
import type { ShrinkResult } from '../runner/shrink.ts';
import { runMain } from './support/run-main.ts';

// Results that used to claim more than was done: a scenario with no servers passed, replay --plan
// dropped --seed silently, shrink said "shrunk" when it had not, and check refused a trace an
// editor had added a blank line to.
describe('no result claims more than was done', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-honest-'));
  const scenario = JSON.parse(readFileSync('scenarios/default.json', 'utf8')) as Record<string, unknown>;

  it('a scenario whose rounds have no server is refused when it is loaded (exit 2, one line)', async () => {
    writeFileSync(join(dir, 'empty.json'), JSON.stringify({ ...scenario, servers: { min: 0, max: 0 } }));
    expect(await runMain(['run', '--rounds', '1', '--scenario', join(dir, 'empty.json')])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: ${join(dir, 'empty.json')}: "servers.min" must be an integer from 1 to 64, got 0\n`,
    });
  });

  it('replay --plan refuses --seed, --round, --scenario and --catalog, which it would ignore', async () => {
    const plan = 'scenarios/plans/seed3-round50722-page-limit-shrunk.plan.json';
    expect(await runMain(['replay', '--plan', plan, '--seed', '4'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --plan runs the seed, round and scenario of its file: drop --seed\n',
    });
    expect(await runMain(['replay', '--plan', plan, '--round', '1', '--scenario', 'equivocation'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --plan runs the seed, round and scenario of its file: drop --round and --scenario\n',
    });
    expect(await runMain(['replay', '--plan', plan, '--catalog', 'scenarios/catalogs/memory.json'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --plan runs the seed, round and scenario of its file: drop --catalog\n',
    });
  });

  it('shrink --attempts 0 is refused; a shrink stopped by --attempts says it may not be the smallest', async () => {
    expect(await runMain(['shrink', '--seed', '1', '--round', '3', '--attempts', '0'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --attempts must be a positive integer, got 0\n',
    });
    const { code, stdout } = await runMain([
      'shrink',
      '--seed',
      '1',
      '--round',
      '3',
      '--core',
      'mutant:no-final-recheck',
      '--attempts',
      '1',
      '--no-timeline',
      '--out',
      join(dir, 'one'),
    ]);
    // Round 3 has two servers, s0 and s1: the first reduction drops s0 and still fails (`catsim shrink
    // --seed 1 --round 3 --core mutant:no-final-recheck --attempts 1`). Size 328 = 675 - 347: s0 is
    // 100, 20 for its one audience, 210 for its 21 revision steps and 15 for its tool names, and its
    // two F7 identity rotations go with it. It was 298 = 622 - 324 before the default scenario had
    // the tool-version faults (issue 30 item 7), which add revision steps and tools to both servers.
    expect(stdout.split('\n').slice(1, 3)).toEqual([
      'shrunk to a smaller plan (stopped at --attempts 1: maybe not the smallest) that still breaks I1: size 675 -> 328 in 1 round',
      '  - drop server s0',
    ]);
    expect(code).toBe(1);
  });

  it('a shrink that kept no reduction says "not shrunk", naming why it stopped', () => {
    const result = {
      invariant: 'I1',
      steps: [],
      attempts: 4,
      sizeBefore: 131,
      sizeAfter: 131,
      violations: [{ invariant: 'I1', code: 'NO_FINAL_RECHECK', seq: 9, evidence: 'e' }],
      run: { header: { core: 'reference' } },
    } as unknown as ShrinkResult;
    const files = { planPath: 'p.plan.json', diagramPath: 'p.mmd' };
    expect(describeShrink(result, files, 10)[0]).toBe(
      "not shrunk: no single reduction keeps I1 failing; the plan is the round's own (size 131)",
    );
    expect(describeShrink(result, files, 4)[0]).toBe(
      "not shrunk: no reduction tried in the 4 rounds allowed (--attempts 4) kept I1 failing; the plan is the round's own (size 131)",
    );
  });

  it('check accepts blank lines after the last event, and still refuses one before it', async () => {
    const trace = readFileSync('scenarios/traces/good-reference-seed1-round5.jsonl', 'utf8');
    writeFileSync(join(dir, 'blank-end.jsonl'), `${trace}\n`);
    writeFileSync(join(dir, 'blank-ends.jsonl'), `${trace}\r\n  \n`);
    for (const file of ['blank-end.jsonl', 'blank-ends.jsonl']) {
      const { code, stdout } = await runMain(['check', join(dir, file)]);
      expect(stdout.trimEnd().split('\n').at(-1), file).toBe('verdict: clean');
      expect(code).toBe(0);
    }
    const lines = trace.split('\n');
    writeFileSync(join(dir, 'blank-inside.jsonl'), [...lines.slice(0, 3), '', ...lines.slice(3)].join('\n'));
    expect(await runMain(['check', join(dir, 'blank-inside.jsonl')])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: ${join(dir, 'blank-inside.jsonl')}: line 4: empty line\n`,
    });
  });
});
