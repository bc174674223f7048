/**
 * F10: a stale planner: a plan bound to one snapshot is sent late on purpose, after the catalog
 * may have moved on. The gate must re-check the plan's descriptor against the active generation at
 * the call (STALE_CATALOG; I8).
 *
 * Models the catalog-admission report ("stale plans still call tools with original parameters
 * after their descriptions are updated"; "let a stale planner issue late calls").
 *
 * How often: in a round that enables F10, 3 in 10 of the planners' calls (those not guessing a
 * name, F17) wait 300 to 2,500 ms before they are sent.
 */
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import type { LatenessRule } from '../planner-rules.ts';
import { fraction, msRange } from './rates.ts';
import { fractionSchema, ms, pair } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface CallsPlan {
    /** F10: fraction of plans called late on purpose, after a delay in `staleDelayMs` (ms). */
    staleFraction: number;
    staleDelayMs: [number, number];
  }
}

/** How often F10 acts (scenario `faultRates.F10`), with its defaults. */
export const RATES = {
  staleFraction: fraction(0.3, 'Share of the planned calls (those not guessing a name) sent late on purpose.'),
  staleDelayMs: msRange(300, 2500, 'How late a stale call is sent, ms.'),
};

/** The planners' rule (sim/planner-rules.ts): with the plan's `staleFraction`, a call sent `staleDelayMs` late. */
const STALE: LatenessRule = {
  late({ rng, calls }) {
    if (!rng.chance(calls.staleFraction)) return undefined;
    return () => rng.int(calls.staleDelayMs[0], calls.staleDelayMs[1]);
  },
};

/** F10: stale planners. */
export const F10: FaultDefinition<'F10', typeof RATES> = {
  id: 'F10',
  rates: RATES,
  plan: {
    calls: {
      staleFraction: { schema: fractionSchema, healthy: 0 },
      staleDelayMs: { schema: pair(ms, 'a pair [min, max] of non-negative integers'), healthy: [0, 0] },
    },
  },
  title: 'a stale planner calling late with an old snapshot',
  lifetime: 'episode',
  probes: ['stale-plan-refused'],
  presentIn: (plan: RoundPlan) => plan.calls.staleFraction > 0,
  generateRound({ plan }, _rng, rates) {
    plan.calls.staleFraction = rates.staleFraction;
    plan.calls.staleDelayMs = [rates.staleDelayMs.min, rates.staleDelayMs.max];
  },
  plannerRules: [STALE],
  fragment: (plan) => [plan.calls.staleFraction, plan.calls.staleDelayMs],
  reductions: (plan) =>
    plan.calls.staleFraction > 0
      ? [{ name: 'no stale planners', plan: { ...plan, calls: { ...plan.calls, staleFraction: 0 } } }]
      : [],
};
