/**
 * F13 (trait): planted defective descriptors: an unknown `$schema` dialect, an unresolved or
 * remote `$ref`, an oversized descriptor, a non-object input schema root, or a bad tool name. Each
 * is labelled (`defect_planted`) so the oracle can tell whether the core admitted it (I5).
 *
 * Models seed 001's gate ("acceptance of unknown schema dialects is zero") and SPEC section 5's
 * content checks.
 *
 * How often: on 3 servers in 4 of a round that enables F13, 1 or 2 defects, each drawn uniformly
 * from the six kinds, in one audience's first view.
 */
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { fraction, counts } from './rates.ts';

/** How often F13 acts (scenario `faultRates.F13`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F13 that get planted defects.'),
  defectsPerServer: counts(1, 2, 'Planted defects per such server.'),
};

/** F13: planted content defects. */
export const F13: FaultDefinition<'F13', typeof RATES> = {
  id: 'F13',
  rates: RATES,
  title: 'unknown `$schema` dialect, unresolved or remote `$ref`, oversized descriptor, non-object root',
  lifetime: 'trait',
  probes: ['defect-quarantined', 'quarantined-tool-refused'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.planted.some((p) => p.defect !== 'DUPLICATE_NAME')),
  traits: (server) => (server.planted.some((p) => p.defect !== 'DUPLICATE_NAME') ? ['PLANTED:F13'] : []),
};
