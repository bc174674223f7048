/** Coverage probe `disconnected-mid-walk`: a cut connection ended a scan INCOMPLETE. */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** A cut connection ended a scan INCOMPLETE. */
export const disconnectedMidWalk: Probe = {
  name: 'disconnected-mid-walk',
  basis: 'reference',
  description: 'a cut connection ended a scan INCOMPLETE',
  hit: scanEndedWith('DISCONNECTED'),
};
