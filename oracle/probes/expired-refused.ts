/** Coverage probe `expired-refused`: a disclosure or call refused because the generation expired. */
import type { Probe } from './probe.ts';

/** A disclosure or a call refused CATALOG_EXPIRED. */
export const expiredRefused: Probe = {
  name: 'expired-refused',
  basis: 'reference',
  description: 'a disclosure or call refused because the generation expired',
  hit: (events) =>
    events.some(
      (e) =>
        (e.type === 'disclosure_refused' && e.code === 'CATALOG_EXPIRED') ||
        (e.type === 'gate_decision' && e.decision === 'CATALOG_EXPIRED'),
    ),
};
