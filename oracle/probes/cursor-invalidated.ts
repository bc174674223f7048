/** Coverage probe `cursor-invalidated`: a restart invalidated a cursor mid-walk (-32602). */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** A restart invalidated a cursor mid-walk (-32602). */
export const cursorInvalidated: Probe = {
  name: 'cursor-invalidated',
  basis: 'reference',
  description: 'a restart invalidated a cursor mid-walk (-32602)',
  hit: scanEndedWith('CURSOR_INVALID'),
};
