/**
 * I15-I17 judge a core with its own schema on what it does across a host restart, not on catsim's
 * registry tables (issue 27.4): test/support/cores/own-schema-core.ts keeps its published
 * catalogs in a table of its own, `host_catalogs`, either in the database file or in a TEMP table
 * a new boot finds empty. On host-restart rounds 0-9 of seed 1 (rounds 0 and 5 restart the host
 * once) the first keeps every commit and has no restart finding; the second loses them.
 */
import { describe, expect, it } from 'vitest';
import type { CoreFactory } from '../sim/guard/adapter.ts';
import { runAndCheck } from '../runner/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { keepingCore, tempTableCore } from './support/cores/own-schema-core.ts';

/** Rounds that restarted, and the findings of the restart family (I4, I6, I10, I14-I17) by code, on rounds 0-9. */
async function restartFamily(
  core: CoreFactory,
  name: string,
): Promise<{ restartRounds: number[]; counts: Record<string, number> }> {
  const counts: Record<string, number> = {};
  const restartRounds: number[] = [];
  for (let round = 0; round < 10; round += 1) {
    const { summary, run } = await runAndCheck('1', round, loadScenario('host-restart'), core, name);
    if (run.events.some((event) => event.type === 'host_restarted')) restartRounds.push(round);
    for (const violation of summary.violations) {
      if (!['I4', 'I6', 'I10', 'I14', 'I15', 'I16', 'I17'].includes(violation.invariant)) continue;
      const code = `${violation.invariant} ${violation.code}`;
      counts[code] = (counts[code] ?? 0) + 1;
    }
  }
  return { restartRounds, counts };
}

describe('a core with its own schema across host restarts (I15 from observations)', () => {
  it('keeps its commits in its own table: no restart finding', async () => {
    // With I15-I17 read off the world's reading of catsim's tables (before), this core got I15
    // COMMITTED_PUBLISH_LOST 5 and I17 LEASE_FOR_UNCOMMITTED_GENERATION 2: the disk held none of
    // catsim's tables, so every key it had published read as lost.
    expect(await restartFamily(keepingCore.create, keepingCore.name)).toEqual({ restartRounds: [0, 5], counts: {} });
  }, 120_000);

  it('keeps them in a TEMP table: the new boot publishes generation 1 of 2 + 2 keys again, each one I15 loss and one I10 repeat', async () => {
    // Round 0: the crash at seq 45 came after generation 1 of globex.dev (seq 36) and acme.dev
    // (seq 37); boot 1 publishes generation 1 of both again (seq 93, 95). Round 5: acmex.ops (seq
    // 13) and acme.ops (seq 17) before the crash at seq 18, generation 1 again at seq 25 and 27.
    // (Read off the disk, before: 5 losses, one of them a key boot 1 never published again.)
    expect(await restartFamily(tempTableCore.create, tempTableCore.name)).toEqual({
      restartRounds: [0, 5],
      counts: { 'I15 COMMITTED_PUBLISH_LOST': 4, 'I10 GENERATION_REPEATED': 4 },
    });
  }, 120_000);
});
