/** Coverage probe `revision-moved-mid-walk`: a scan ended INCOMPLETE because the revision moved between pages. */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** A scan ended INCOMPLETE because the revision moved between pages. */
export const revisionMovedMidWalk: Probe = {
  name: 'revision-moved-mid-walk',
  basis: 'reference',
  description: 'a scan ended INCOMPLETE because the revision moved between pages',
  hit: scanEndedWith('REVISION_MOVED'),
};
