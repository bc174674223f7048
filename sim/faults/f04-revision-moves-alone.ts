/**
 * F4: the revision moves between pages while the content a client sees does not: the change is in
 * the view of an audience no simulated client holds (`internal.ops`). A core must still end the
 * scan INCOMPLETE (the revision is the only proof it has), and a core that binds only the last
 * page's revision is caught (I2).
 *
 * Models seed 001's "cross-page source-revision changes".
 *
 * How often: on every server of a round that enables F4, 2 to 6 such changes at seeded times in
 * [1, T_heal).
 */
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { counts } from './rates.ts';

/** How often F4 acts (scenario `faultRates.F4`), with its defaults. */
export const RATES = {
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
};
