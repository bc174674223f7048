/** Coverage probe `identity-rotated-mid-walk`: an identity rotation ended a scan INCOMPLETE. */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** An identity rotation ended a scan INCOMPLETE. */
export const identityRotatedMidWalk: Probe = {
  name: 'identity-rotated-mid-walk',
  basis: 'reference',
  description: 'an identity rotation ended a scan INCOMPLETE',
  hit: scanEndedWith('IDENTITY_CHANGED'),
};
