/** Coverage probe `catalog-limit-quarantined`: a scan quarantined for a whole-catalog limit (F23). */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** A scan quarantined because its catalog held too many tools or too many descriptor bytes (SPEC section 5). */
export const catalogLimitQuarantined: Probe = {
  name: 'catalog-limit-quarantined',
  basis: 'reference',
  description: 'a scan quarantined for a whole-catalog limit (too many tools, or too many descriptor bytes)',
  hit: (events: readonly KnownEvent[]) =>
    events.some((e) => e.type === 'scan_ended' && (e.reason === 'TOO_MANY_TOOLS' || e.reason === 'CATALOG_TOO_LARGE')),
};
