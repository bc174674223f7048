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

/** F4: the revision moves alone. */
export const F4: FaultDefinition<'F4'> = {
  id: 'F4',
  title: 'revision moves between pages (cross-page change)',
  lifetime: 'episode',
  probes: ['revision-moved-mid-walk'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.history.some((step) => step.cause === 'F4')),
};
