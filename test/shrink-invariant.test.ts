/**
 * `catsim shrink --invariant ID` (issue 33 item 4): the shrink keeps the invariant asked for, not
 * the round's first violation's, and a round that does not break it is refused in one line.
 * Round 3 of seed 1 on `mutant:no-final-recheck` breaks I1 only; round 0 of seed 1 on
 * `peer:list-once` breaks I9 among others, and its first violation is an I5.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catsim } from './support/run-cli.ts';

describe('catsim shrink --invariant', () => {
  it('refuses, in one line and before writing anything, a round that does not break the invariant asked for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-shrink-inv-'));
    const out = join(dir, 'p');
    const result = await catsim(
      ['shrink', '--seed', '1', '--round', '3', '--core', 'mutant:no-final-recheck', '--invariant', 'I9', '--out', out],
      { timeoutMs: 120_000 },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'catsim: round 3 of seed 1 on mutant:no-final-recheck does not break I9 (it breaks I1): nothing to shrink for I9\n',
    );
    expect(readdirSync(dir)).toEqual([]);
  }, 150_000);

  it('refuses an id that is no verdict id', async () => {
    const result = await catsim(['shrink', '--seed', '1', '--round', '0', '--invariant', 'I99']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('catsim: --invariant I99 is not a verdict id: give one of I1..I40 or CORE_FAILED\n');
  });

  it("shrinks for I9, which is not the round's first violation, and names its files with the id", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-shrink-inv-'));
    const result = await catsim(
      [
        'shrink',
        '--seed',
        '1',
        '--round',
        '0',
        '--core',
        'peer:list-once',
        '--invariant',
        'I9',
        '--no-timeline',
        '--attempts',
        '3',
        '--out',
        join(dir, 'p'),
      ],
      { timeoutMs: 120_000 },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('that still breaks I9');
    expect(result.stdout).toMatch(/\nstill fails: I9 UNDISCLOSED_TOOL_ADMITTED at seq \d+: /);
    expect(readdirSync(dir).sort()).toEqual(['p.mmd', 'p.plan.json']);
  }, 150_000);
});
