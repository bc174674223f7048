/** Coverage probe `recheck-caught-change`: the final recheck caught a change after the last page. */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** The final recheck caught a change after the last page. */
export const recheckCaughtChange: Probe = {
  name: 'recheck-caught-change',
  basis: 'reference',
  description: 'the final recheck caught a change after the last page',
  hit: scanEndedWith('RECHECK_REVISION_MOVED'),
};
