/**
 * F19: operator and monitor rollback triggers. At seeded times a monitor reports that the
 * missing-tool rate of a catalog key rose, or that one privilege escalation occurred, and the
 * world asks the core to roll that key back (`rollback` of the core API, optional). A core must
 * then CAS the active pointer back to the latest earlier generation that is still unexpired and
 * still authorized under the policy and identity holding now, stop issuing leases for the
 * rolled-away generation at once, and DISABLE the key when no earlier generation qualifies (I21,
 * I28, I29, oracle/invariants/rollback.ts). Every trigger is written as `rollback_triggered`
 * (delivered, `unsupported` for a core without `rollback`, or `host_down` during an F18 restart).
 *
 * Models the catalog-admission report's rollout rule (seed 001: "if the missing-tool rate rises
 * or one privilege escalation occurs, CAS the active pointer back to the previous still-fresh
 * generation and stop issuing new leases; if the old catalog cannot prove current authorization
 * either, close the server rather than fall back to a stale full set").
 *
 * How often: a round that enables F19 plans 1 to 3 triggers at distinct seeded times in
 * [1, T_heal), each for a server and one of its audiences drawn uniformly, of a kind drawn
 * uniformly from `kinds`. A trigger for a key with nothing published asks nothing of the core.
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RollbackTriggerKind, RollbackTriggerPlan, RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { choices, counts } from './rates.ts';
import { arrayOf, audience, ms, object, string } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface RoundPlan {
    /** F19: rollback triggers in time order (absent or empty: none). */
    rollbackTriggers?: RollbackTriggerPlan[];
  }
}

/** How often F19 acts (scenario `faultRates.F19`), with its defaults. */
export const RATES = {
  triggersPerRound: counts(
    1,
    3,
    'Rollback triggers per round that enables F19, at distinct seeded times in [1, T_heal).',
    1,
  ),
  kinds: choices(
    ['missing_tool_rate', 'privilege_escalation'] as const satisfies readonly RollbackTriggerKind[],
    'What a trigger reports, drawn uniformly per trigger.',
  ),
};

/** F19: rollback triggers. */
export const F19: FaultDefinition<'F19', typeof RATES> = {
  id: 'F19',
  rates: RATES,
  plan: {
    round: {
      rollbackTriggers: {
        schema: arrayOf(
          object({
            atMs: ms,
            server: string,
            audience,
            kind: {
              title: 'one of "missing_tool_rate", "privilege_escalation"',
              enum: ['missing_tool_rate', 'privilege_escalation'],
            },
          }),
          'an array of rollback triggers',
        ),
      },
    },
  },
  title:
    'operator and monitor rollback triggers (missing-tool rate rise, privilege escalation): roll back to a fresh, authorized generation or DISABLE',
  lifetime: 'episode',
  probes: [
    'rollback-missing-tool-delivered',
    'rollback-escalation-delivered',
    'rolled-back-to-fresh',
    'rollback-disabled',
  ],
  // A trigger for a server or audience the plan no longer has (a shrink dropped it) does nothing.
  presentIn: (plan: RoundPlan) =>
    (plan.rollbackTriggers ?? []).some((trigger) =>
      plan.servers.some((server) => server.id === trigger.server && server.audiences.includes(trigger.audience)),
    ),
  generateRound({ plan }, rng, rates) {
    const servers = plan.servers.filter((server) => server.audiences.length > 0);
    if (servers.length === 0) return;
    const times = distinctTimes(rng, drawIn(rng, rates.triggersPerRound), plan.bounds.tHealMs);
    plan.rollbackTriggers = times.map((atMs): RollbackTriggerPlan => {
      const server = rng.pick(servers);
      return { atMs, server: server.id, audience: rng.pick(server.audiences), kind: rng.pick(rates.kinds) };
    });
  },
  // Which server and audience a trigger names is picked among other faults' data (F16 adds audiences): left out.
  fragment: (plan) => (plan.rollbackTriggers ?? []).map(({ atMs, kind }) => ({ atMs, kind })),
  reductions: (plan) =>
    (plan.rollbackTriggers ?? []).map((trigger) => ({
      name: `no rollback trigger at ${trigger.atMs} ms (${trigger.kind})`,
      plan: { ...plan, rollbackTriggers: (plan.rollbackTriggers ?? []).filter((other) => other !== trigger) },
    })),
};
