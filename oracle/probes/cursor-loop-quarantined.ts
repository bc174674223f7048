/** Coverage probe `cursor-loop-quarantined`: a scan quarantined for a cursor requested twice. */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** A scan quarantined for a cursor requested twice. */
export const cursorLoopQuarantined: Probe = {
  name: 'cursor-loop-quarantined',
  basis: 'reference',
  description: 'a scan quarantined for a cursor requested twice',
  hit: scanEndedWith('CURSOR_REPEATED'),
};
