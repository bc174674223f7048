/**
 * F4: the revision moves between pages while the content a client sees does not: the change is in
 * the view of an audience no simulated client holds (`internal.ops`). A core must still end the
 * scan INCOMPLETE (the revision is the only proof it has), and a core that binds only the last
 * page's revision is caught (I2).
 *
 * Models the catalog-admission report's "cross-page source-revision changes".
 *
 * How often: on every server of a round that enables F4 (serverFraction 1), 2 to 6 such changes at
 * seeded times in [1, T_heal).
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { stepTimes } from './internal/fragments.ts';
import { counts, fraction } from './rates.ts';

/** How often F4 acts (scenario `faultRates.F4`), with its defaults. */
export const RATES = {
  serverFraction: fraction(1, 'Share of the servers of a round that enables F4 whose internal audience changes.'),
  changesPerServer: counts(2, 6, 'Changes of the internal audience per server, at seeded times in [1, T_heal).'),
};

/** F4: the revision moves alone. */
export const F4: FaultDefinition<'F4', typeof RATES> = {
  id: 'F4',
  rates: RATES,
  title: 'revision moves between pages (cross-page change)',
  lifetime: 'episode',
  probes: ['revision-moved-mid-walk'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.history.some((step) => step.cause === 'F4')),
  generate: {
    episodes(draft, rng, rates) {
      for (const atMs of distinctTimes(rng, drawIn(rng, rates.changesPerServer), draft.scenario.tHealMs))
        draft.changes.push({ atMs, cause: 'F4', kind: 'internal', rng });
    },
  },
  fragment: (plan) => stepTimes(plan, 'F4'),
};
