/**
 * F25: a `public` claim on a list that varies by credential (MCP 2026-07-28). One modern server
 * (latency 5 ms, pages of 2, its own scope `private`) shows acme.dev read_file and write_file and
 * globex.dev list_directory and search_files at revision 7, and marks every page `public`.
 * Worked out: both sessions open at 20 (the legacy `initialize` refused, the listen acknowledged);
 * each key's page 1 is served at 25 (public), the recheck at 35, and each key publishes its own
 * two tools at 40; the refreshes publish again at 2080. The claim changes nothing for the
 * reference core, which keys every snapshot by tenant and role (I4 holds).
 *
 * The mutant `share-public` believes the claim: a key whose list was public shares one pointer
 * per identity and role. acme.dev publishes generation 1 at 40; globex.dev's publish at 40 loses
 * the shared pointer's compare-and-swap, so globex.dev is shown acme.dev's tools (I4 FOREIGN_TOOL,
 * DISCLOSED_UNKNOWN_GENERATION) until it publishes generation 2 over them at 61, and so on (I10
 * beside them). On the same plan with an honest `private` claim the mutant is clean: what it lacks
 * is exactly the refusal to share on a server's say-so.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import type { RoundPlan } from '../../sim/plan/types.ts';
import { handPlan, handServer, publishes, runHand, step, tools } from '../support/hand-plan.ts';

function plan(falselyPublic = true): RoundPlan {
  const views = { 'acme.dev': tools('read_file', 'write_file'), 'globex.dev': tools('list_directory', 'search_files') };
  const server = handServer({ audiences: ['acme.dev', 'globex.dev'], history: [step(0, 7, views)] });
  return handPlan({
    faults: ['F25'],
    servers: [{ ...server, era: 'modern', cacheTtlMs: 250, cacheScope: 'private', falselyPublic }],
  });
}

describe('F25: a public claim on a list that varies by credential', () => {
  it('the reference core keeps each tenant to its own key whatever the scope says', async () => {
    const run = await runHand(plan());
    expect(run.verdict.violations).toEqual([]);
    expect(run.of('page_served').every((e) => e.cacheScope === 'public')).toBe(true);
    expect(publishes(run).map(([t, key, generation, , names]) => [t, key, generation, names])).toEqual([
      [40, 'fp:0000000000000001|acme.dev', 1, ['read_file', 'write_file']],
      [40, 'fp:0000000000000001|globex.dev', 1, ['list_directory', 'search_files']],
      [2080, 'fp:0000000000000001|acme.dev', 2, ['read_file', 'write_file']],
      [2080, 'fp:0000000000000001|globex.dev', 2, ['list_directory', 'search_files']],
    ]);
    expect(probesHit(run.events)).toContain('public-varies-served');
  });

  it('a core that shares what a server calls public shows one tenant the other’s tools: I4 FOREIGN_TOOL', async () => {
    const mutant = MUTANTS.find((candidate) => candidate.name === 'share-public');
    if (mutant === undefined) throw new Error('no mutant share-public');
    const run = await runHand(plan(), mutant.core, 'mutant:share-public');
    const found = new Set(run.verdict.violations.map((v) => `${v.invariant} ${v.code}`));
    expect([...found].sort()).toEqual([
      'I10 CONFLICT_MISSTATED',
      'I10 GENERATION_GAP',
      'I4 DISCLOSED_UNKNOWN_GENERATION',
      'I4 FOREIGN_TOOL',
    ]);
    expect(
      publishes(run)
        .slice(0, 2)
        .map(([t, key, generation]) => [t, key, generation]),
    ).toEqual([
      [40, 'fp:0000000000000001|acme.dev', 1],
      [61, 'fp:0000000000000001|globex.dev', 2],
    ]);
    const honest = await runHand(plan(false), mutant.core, 'mutant:share-public');
    expect(honest.verdict.violations).toEqual([]);
  });
});
