/** Coverage probe `stale-plan-refused`: a stale planner (F10) refused STALE_CATALOG. */
import { decidedWith } from './internal/decided.ts';
import type { Probe } from './probe.ts';

/** A stale planner (F10) refused STALE_CATALOG. */
export const stalePlanRefused: Probe = {
  name: 'stale-plan-refused',
  basis: 'reference',
  description: 'a stale planner (F10) refused STALE_CATALOG',
  hit: decidedWith('STALE_CATALOG', 'stale'),
};
