/**
 * The rule "When a session counts as open" (docs/CORE-API.md, issue 33 item 1): the world counts
 * a session open when the core's `connect()` or `connectTransport` handshake resolves, and a core
 * that hands its connection back before its client sent `notifications/initialized` gets one line
 * naming the rule (exit 3), not a round of CORE_FAILED or findings about notifications its client
 * could not have heard. The test core (test/support/cores/early-open-core.ts) resolves its
 * handshake without awaiting its client's `connect`.
 */
import { describe, expect, it } from 'vitest';
import earlyOpen from './support/cores/early-open-core.ts';
import { runRound } from '../sim/round.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { catsim } from './support/run-cli.ts';

describe('when a session counts as open', () => {
  it('a handshake that resolves before its client sent notifications/initialized ends the round with the rule named', async () => {
    // Round 0 of seed 1 has one server, s0, and globex.dev is its first audience. When its
    // connection comes back the trace holds the 11 world events of t=0 (effect_policy, three
    // policy_changed and policy_push, server_up, two defect_planted, revision), so seq 11.
    const run = runRound(generatePlan('1', 0, loadScenario('default')), earlyOpen.create, 'test:early-open');
    await expect(run).rejects.toThrow(
      'core "test:early-open" broke the rule "When a session counts as open" (docs/CORE-API.md): the connection of s0 globex.dev was handed back as open before its client sent notifications/initialized (resolve connect() or the connectTransport handshake only once the client\'s initialize handshake is done) (round 0, seq 11)',
    );
  });

  it('catsim run says it in one line and exits 3', async () => {
    const result = await catsim(
      ['run', '--core', './test/support/cores/early-open-core.ts', '--rounds', '1', '--workers', '0', '--quiet'],
      { timeoutMs: 120_000 },
    );
    expect(result.code).toBe(3);
    expect(result.stderr.trim().split('\n')).toEqual([
      'catsim: core "./test/support/cores/early-open-core.ts" broke the rule "When a session counts as open" (docs/CORE-API.md): the connection of s0 globex.dev was handed back as open before its client sent notifications/initialized (resolve connect() or the connectTransport handshake only once the client\'s initialize handshake is done) (round 0, seq 11)',
    ]);
  }, 150_000);
});
