import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkTrace, parseTrace } from '../oracle/index.ts';

function catsim(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/catsim.mjs', ...args], (error, stdout) => resolve({ code: error === null ? 0 : Number((error as { code?: number }).code), stdout }));
  });
}

/** Violation codes of a saved trace, counted: `I1 NO_FINAL_RECHECK` -> 10. */
function codes(path: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of checkTrace(parseTrace(readFileSync(path, 'utf8'))).violations) counts[`${v.invariant} ${v.code}`] = (counts[`${v.invariant} ${v.code}`] ?? 0) + 1;
  return counts;
}

// scenarios/traces/ holds traces saved with `catsim replay --trace` (the bad ones from plans
// shrunk with `catsim shrink`): the oracle must keep giving each its known verdict.
describe('catsim check on the known traces of scenarios/traces/', () => {
  it('a reference-core round (seed 1, round 5) is clean', async () => {
    expect(codes('scenarios/traces/good-reference-seed1-round5.jsonl')).toEqual({});
    const { code, stdout } = await catsim(['check', 'scenarios/traces/good-reference-seed1-round5.jsonl']);
    expect(code).toBe(0);
    expect(stdout).toContain('verdict: clean');
  });

  it('the shrunk no-final-recheck round fails I1 NO_FINAL_RECHECK on each of its 10 publishes, and nothing else', async () => {
    expect(codes('scenarios/traces/bad-no-final-recheck-shrunk.jsonl')).toEqual({ 'I1 NO_FINAL_RECHECK': 10 });
    const { code, stdout } = await catsim(['check', 'scenarios/traces/bad-no-final-recheck-shrunk.jsonl']);
    expect(code).toBe(1);
    expect(stdout).toContain('verdict: 10 violations');
  });

  it('the shrunk key-without-tenant round is caught by I4 (and I2, I12)', async () => {
    expect(codes('scenarios/traces/bad-key-without-tenant-shrunk.jsonl')).toEqual({ 'I2 PAGE_FOREIGN': 10, 'I4 FOREIGN_KEY': 9, 'I12 NOT_PUBLISHED': 1 });
    expect((await catsim(['check', 'scenarios/traces/bad-key-without-tenant-shrunk.jsonl'])).code).toBe(1);
  });

  it('a trace that is not a trace gives one line and exit 2', async () => {
    const { code } = await catsim(['check', 'README.md']);
    expect(code).toBe(2);
  });
});
