import { copyFileSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './support/run-main.ts';

// Issue 35 item 4: an output option that names one of the command's input files used to
// overwrite it with exit 0. Each is refused before any round runs (exit 2, one line), and the
// input is left byte for byte as it was.
describe('an output over an input is refused before any work', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-over-'));
  const scenario = join(dir, 's.json');
  copyFileSync('scenarios/default.json', scenario);
  const catalog = join(dir, 'c.json');
  copyFileSync('scenarios/catalogs/memory.json', catalog);
  const core = join(dir, 'core.ts');
  copyFileSync('examples/testing/inert-core.ts', core);
  const plan = join(dir, 'p.plan.json');
  copyFileSync('scenarios/plans/seed1-round3606-rotation-before-burst-shrunk.plan.json', plan);
  const before = (path: string): string => readFileSync(path, 'utf8');

  it('run --report on the --scenario file', async () => {
    const text = before(scenario);
    expect(
      await runMain([
        'run',
        '--rounds',
        '1',
        '--workers',
        '0',
        '--no-progress',
        '--scenario',
        scenario,
        '--report',
        scenario,
      ]),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: --report ${scenario} names the --scenario file: writing it would destroy the input\n`,
    });
    expect(before(scenario)).toBe(text);
  });

  it('run --junit on the --catalog file', async () => {
    const text = before(catalog);
    expect(
      await runMain([
        'run',
        '--rounds',
        '1',
        '--workers',
        '0',
        '--no-progress',
        '--catalog',
        catalog,
        '--junit',
        catalog,
      ]),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: --junit ${catalog} names the --catalog file: writing it would destroy the input\n`,
    });
    expect(before(catalog)).toBe(text);
  });

  it('run --report on the --core module, named through a symbolic link', async () => {
    const text = before(core);
    const link = join(dir, 'link.ts');
    symlinkSync(core, link);
    expect(
      await runMain(['run', '--rounds', '1', '--workers', '0', '--no-progress', '--core', core, '--report', link]),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: --report ${link} names the --core file: writing it would destroy the input\n`,
    });
    expect(before(core)).toBe(text);
  });

  it("run --report on a built-in scenario's file in the package", async () => {
    expect(
      await runMain(['run', '--rounds', '1', '--workers', '0', '--no-progress', '--report', 'scenarios/default.json']),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: 'catsim: --report scenarios/default.json names the --scenario file: writing it would destroy the input\n',
    });
  });

  it('replay --trace on the --plan file', async () => {
    const text = before(plan);
    expect(await runMain(['replay', '--plan', plan, '--trace', plan])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: --trace ${plan} names the --plan file: writing it would destroy the input\n`,
    });
    expect(before(plan)).toBe(text);
  });

  it('shrink --out whose plan file is the --scenario file', async () => {
    const named = join(dir, 'x.plan.json');
    copyFileSync('scenarios/default.json', named);
    const text = before(named);
    expect(
      await runMain(['shrink', '--seed', '1', '--round', '5', '--scenario', named, '--out', join(dir, 'x')]),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: --out ${named} names the --scenario file: writing it would destroy the input\n`,
    });
    expect(before(named)).toBe(text);
  });
});
