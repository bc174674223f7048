/** Coverage probe `list-changed-mid-walk`: a notification during a scan ended it INCOMPLETE. */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** A notification during a scan ended it INCOMPLETE. */
export const listChangedMidWalk: Probe = {
  name: 'list-changed-mid-walk',
  basis: 'reference',
  description: 'a notification during a scan ended it INCOMPLETE',
  hit: scanEndedWith('LIST_CHANGED'),
};
