/** Coverage probe `equivocation-detected`: the same revision proved with two contents was quarantined. */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** The same revision proved with two contents was quarantined. */
export const equivocationDetected: Probe = {
  name: 'equivocation-detected',
  basis: 'reference',
  description: 'the same revision proved with two contents was quarantined',
  hit: scanEndedWith('EQUIVOCATION'),
};
