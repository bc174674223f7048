/**
 * F9: two or three refresh loops race on each catalog key's active pointer, so publishes contend
 * on the compare-and-swap (SPEC section 6). A core that publishes without the CAS repeats or skips
 * a generation (I10).
 *
 * Models the catalog-admission report ("pointer CAS contention").
 *
 * How often: in a round that enables F9, every catalog key gets 2 or 3 refreshers (drawn once per
 * round); without F9 each key has one.
 */
import { drawIn } from '../plan/draws.ts';
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { counts } from './rates.ts';
import { positive } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface RoundPlan {
    /** F9: refresh loops racing on each catalog key's pointer (1 without F9). */
    refreshersPerKey: number;
  }
}

/** How often F9 acts (scenario `faultRates.F9`), with its defaults. */
export const RATES = {
  refreshersPerKey: counts(2, 3, 'Refresh loops racing on each catalog key, drawn once per round.', 1),
};

/** F9: racing refreshers. */
export const F9: FaultDefinition<'F9', typeof RATES> = {
  id: 'F9',
  rates: RATES,
  plan: { round: { refreshersPerKey: { schema: positive, healthy: 1 } } },
  title: 'two or more refreshers racing on the same pointer (CAS contention)',
  lifetime: 'episode',
  probes: ['cas-conflict-lost'],
  presentIn: (plan: RoundPlan) => plan.refreshersPerKey > 1,
  generateRound({ plan }, rng, rates) {
    plan.refreshersPerKey = drawIn(rng, rates.refreshersPerKey);
  },
  fragment: (plan) => plan.refreshersPerKey,
  size: (plan) => plan.refreshersPerKey,
  reductions: (plan) =>
    plan.refreshersPerKey > 1 ? [{ name: 'one refresher per key', plan: { ...plan, refreshersPerKey: 1 } }] : [],
};
