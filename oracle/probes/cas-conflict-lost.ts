/** Coverage probe `cas-conflict-lost`: a racing refresher lost the compare-and-swap. */
import type { Probe } from './probe.ts';

/** A racing refresher lost the compare-and-swap. */
export const casConflictLost: Probe = {
  name: 'cas-conflict-lost',
  basis: 'reference',
  description: 'a racing refresher lost the compare-and-swap',
  hit: (events) => events.some((e) => e.type === 'cas_conflict'),
};
