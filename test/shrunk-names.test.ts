import { existsSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { coreSlug, defaultShrunkPrefix } from '../cli/commands/shrink.ts';
import { runMain } from './support/run-main.ts';

// Issue 35 item 9: the default name of a shrunk round's files held only the seed and round, so
// shrinking round 0 on a peer replaced the plan a mutant run had written for its round 0.
describe('the default shrunk file name holds the core', () => {
  const written = [
    'catsim-shrunk-1-3-mutant_no-final-recheck.plan.json',
    'catsim-shrunk-1-3-mutant_no-final-recheck.mmd',
  ];
  afterAll(() => {
    for (const file of written) rmSync(file, { force: true });
  });

  it('names a built-in core, a mutant and a module path', () => {
    expect([
      coreSlug('reference'),
      coreSlug('mutant:first-page-only'),
      coreSlug('peer:sdk-autorefresh'),
      coreSlug('./cores/my core.ts'),
    ]).toEqual(['reference', 'mutant_first-page-only', 'peer_sdk-autorefresh', 'cores_my_core.ts']);
    expect(defaultShrunkPrefix('1', 0, 'mutant:first-page-only')).toBe('catsim-shrunk-1-0-mutant_first-page-only');
  });

  it('catsim shrink without --out writes catsim-shrunk-SEED-ROUND-CORE files', async () => {
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
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'plan: catsim-shrunk-1-3-mutant_no-final-recheck.plan.json   (replay: catsim replay --plan catsim-shrunk-1-3-mutant_no-final-recheck.plan.json --core mutant:no-final-recheck)\n',
    );
    expect(written.map((file) => existsSync(file))).toEqual([true, true]);
  });
});
