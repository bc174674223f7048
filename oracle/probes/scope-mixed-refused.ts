/** Coverage probe `scope-mixed-refused`: a walk whose pages disagreed on `cacheScope` ended INCOMPLETE CACHE_SCOPE_MIXED. */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** A walk whose pages disagreed on `cacheScope` ended INCOMPLETE CACHE_SCOPE_MIXED (F24). */
export const scopeMixedRefused: Probe = {
  name: 'scope-mixed-refused',
  basis: 'reference',
  description: 'a walk whose pages disagreed on cacheScope ended INCOMPLETE CACHE_SCOPE_MIXED',
  hit: scanEndedWith('CACHE_SCOPE_MIXED'),
};
