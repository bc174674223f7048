/**
 * F8: the policy service revokes tools and grants them back at planned times, and until T_heal
 * loses a share of its pushes (polls are never lost). A core must stop admitting a revoked tool
 * within B (I7), so one that learns of revocations only on its next catalog refresh is caught.
 *
 * Models the catalog-admission report ("an admin revokes write permissions mid-session", "policy
 * revocation") and its gate: revocation propagation p99 under the bound.
 *
 * How often: in a round that enables F8, 1 to 3 revocations at seeded times in [1, T_heal - 202);
 * half of them are granted back 500 to 1,500 ms after B (only before T_heal); a fraction of 0.3,
 * 0.7 or 1 (drawn uniformly) of the pushes before T_heal is lost. In 1 of 4 such rounds, besides,
 * the first call a server executes before T_heal of a tool still granted revokes that tool for
 * the caller's audience at that instant, while the call's lease is live (an admin revoking a tool
 * while it runs; without it a revocation meets a live lease in about 1 round of 600, too rarely
 * for the probe `revocation-while-lease-live` to guard anything).
 */
import type { Rng } from '../random.ts';
import { distinctTimes, drawIn, pickAt } from '../plan/draws.ts';
import type { Scenario } from '../plan/scenario-types.ts';
import type { PolicyPlan, RoundPlan } from '../plan/types.ts';
import type { RatesOf } from './rates.ts';
import type { Reduction } from '../shrink/reduction.ts';
import type { FaultDefinition } from './fault.ts';
import { CHOICE_ORDER, type ToolChoiceRule } from '../planner-rules.ts';
import type { PolicyEnv, PolicyRule } from '../policy/policy-rules.ts';
import { fraction, fractions, counts, msRange } from './rates.ts';
import { arrayOf, audience, fractionSchema, ms, object, strings } from '../plan/schema-parts.ts';

/** F8: one policy change of an audience at a time (a new epoch). */
export interface PolicyChange {
  atMs: number;
  audience: string;
  revoke: string[];
  grant: string[];
}

declare module '../plan/types.ts' {
  interface PolicyPlan {
    /** F8: the planned policy changes, in time order. */
    changes: PolicyChange[];
    /** Until T_heal, this fraction of pushes is lost (F8); polls are never lost. */
    pushLossFraction: number;
    /**
     * F8, an admin revoking a tool while it runs: the first this many calls a server executes
     * before T_heal, of a tool the caller's audience still holds, make the policy service revoke
     * that tool for that audience at the instant of execution, while the answer (and so the
     * call's lease) is still on its way back. Absent: none.
     */
    midCallRevocations?: number;
  }
}

/** How often F8 acts (scenario `faultRates.F8`), with its defaults. */
export const RATES = {
  revocationsPerRound: counts(1, 3, 'Revocations per round, at seeded times in [1, T_heal - 202).'),
  regrantFraction: fraction(0.5, 'Chance that a revoked tool is granted back (only when that falls before T_heal).'),
  regrantDelayMs: msRange(500, 1500, 'How long after the revocation bound B the grant comes back, ms.'),
  pushLossFractions: fractions([0.3, 0.7, 1], 'The share of policy pushes lost before T_heal, one drawn per round.'),
  midCallRevocationFraction: fraction(
    0.25,
    'Chance that the first call executed before T_heal of a still-granted tool revokes that tool at once, while its lease is live.',
  ),
};

/**
 * A few revocations at planned times before T_heal, some granted back later. A re-grant comes
 * well after the revocation bound B, so a core that learns of revocations late (only on its next
 * catalog refresh) is seen admitting a revoked tool in between. Every draw is made before it is
 * known what it picks (the audiences holding grants come from the servers' histories, which other
 * faults shape), so the times never depend on another fault.
 */
function policyChanges(
  rng: Rng,
  grants: Readonly<Record<string, readonly string[]>>,
  scenario: Scenario,
  rates: RatesOf<typeof RATES>,
): PolicyChange[] {
  const { tHealMs, revocationBoundMs } = scenario;
  const audiences = Object.keys(grants)
    .sort()
    .filter((audience) => (grants[audience] ?? []).length > 0);
  const changes: PolicyChange[] = [];
  for (const atMs of distinctTimes(rng, drawIn(rng, rates.revocationsPerRound), Math.max(2, tHealMs - 200))) {
    const [audienceAt, nameAt] = [rng.next(), rng.next()];
    const regrantAtMs = atMs + revocationBoundMs + drawIn(rng, rates.regrantDelayMs);
    const regrant = rng.chance(rates.regrantFraction);
    const audience = pickAt(audienceAt, audiences);
    if (audience === undefined) continue;
    const name = pickAt(nameAt, grants[audience] ?? []) as string;
    changes.push({ atMs, audience, revoke: [name], grant: [] });
    if (regrant && regrantAtMs < tHealMs) changes.push({ atMs: regrantAtMs, audience, revoke: [], grant: [name] });
  }
  return changes.sort((a, b) => a.atMs - b.atMs);
}

/**
 * A model is not told of revocations: for this long after one (ms), with this chance per planned
 * call, the planner keeps trying a revoked tool it was still shown (`RETRY_REVOKED`). Read at
 * call time, so not a scenario rate.
 */
const RETRY_REVOKED_WINDOW_MS = 2000;
/** See RETRY_REVOKED_WINDOW_MS. */
const RETRY_REVOKED_FRACTION = 0.5;

/**
 * The planners' rule (sim/planner-rules.ts): now and then, a shown tool revoked for the session's
 * audience a moment ago. It draws only when there is one.
 */
const RETRY_REVOKED: ToolChoiceRule = {
  order: CHOICE_ORDER.retry,
  choose({ rng, shown, revokedWithin }) {
    const revoked = new Set(revokedWithin(RETRY_REVOKED_WINDOW_MS));
    const candidates = shown.filter((tool) => revoked.has(tool.name));
    if (candidates.length === 0 || !rng.chance(RETRY_REVOKED_FRACTION)) return undefined;
    return { tool: rng.pick(candidates), guessed: false };
  },
};

/**
 * The policy service's rules (sim/policy/policy-rules.ts) from the round's policy plan: the
 * planned changes at their times; until T_heal, each push lost with the planned fraction (one draw
 * per push before T_heal, also when it is 0); and the first `midCallRevocations` calls executed
 * before T_heal, of a tool the caller's audience still holds, revoke that tool at once.
 */
function policyRules(policy: PolicyPlan, env: PolicyEnv): PolicyRule[] {
  let midCallLeft = policy.midCallRevocations ?? 0;
  return [
    { schedule: policy.changes },
    { losesPush: () => env.now() < env.tHealMs && env.rng.chance(policy.pushLossFraction) },
    {
      onCallExecuted(audience, tool) {
        if (midCallLeft <= 0 || env.now() >= env.tHealMs || !env.holds(audience, tool)) return [];
        midCallLeft -= 1;
        return [tool];
      },
    },
  ];
}

/** Each policy change dropped alone, then every push delivered, then no mid-call revocation. */
function reductions(plan: RoundPlan): Reduction[] {
  const policy = plan.policy;
  const out = policy.changes.map((change, i) => ({
    name: `drop policy change at ${change.atMs} ms`,
    plan: { ...plan, policy: { ...policy, changes: policy.changes.filter((_, j) => j !== i) } },
  }));
  if (policy.pushLossFraction > 0)
    out.push({ name: 'deliver every policy push', plan: { ...plan, policy: { ...policy, pushLossFraction: 0 } } });
  if ((policy.midCallRevocations ?? 0) > 0) {
    const { midCallRevocations: _dropped, ...calm } = policy;
    out.push({ name: 'no mid-call revocation', plan: { ...plan, policy: calm } });
  }
  return out;
}

/** F8: revocations with lost or late pushes. */
export const F8: FaultDefinition<'F8', typeof RATES> = {
  id: 'F8',
  rates: RATES,
  plan: {
    policy: {
      changes: {
        schema: arrayOf(object({ atMs: ms, audience, revoke: strings, grant: strings }), 'an array of policy changes'),
        healthy: [],
      },
      pushLossFraction: { schema: fractionSchema, healthy: 0 },
      midCallRevocations: { schema: ms },
    },
  },
  title: 'policy revocation and grant changes, with lost or late pushes (polls are never lost)',
  lifetime: 'episode',
  probes: ['revoked-refused', 'revocation-while-lease-live', 'revocation-while-call-in-flight'],
  presentIn: (plan: RoundPlan) =>
    plan.policy.changes.length > 0 || plan.policy.pushLossFraction > 0 || (plan.policy.midCallRevocations ?? 0) > 0,
  generateRound({ plan, scenario }, rng, rates) {
    plan.policy.pushLossFraction = rng.pick(rates.pushLossFractions);
    plan.policy.changes = policyChanges(rng, plan.policy.grants, scenario, rates);
    // Drawn last, so the draws above are those of the rounds before mid-call revocations existed.
    if (rng.chance(rates.midCallRevocationFraction)) plan.policy.midCallRevocations = 1;
  },
  fragment: (plan) => ({
    pushLossFraction: plan.policy.pushLossFraction,
    changes: plan.policy.changes.map((change) => [change.atMs, change.revoke.length > 0 ? 'revoke' : 'grant']),
    midCallRevocations: plan.policy.midCallRevocations ?? 0,
  }),
  plannerRules: [RETRY_REVOKED],
  policyRules,
  size: (plan) => plan.policy.changes.length,
  reductions,
};
