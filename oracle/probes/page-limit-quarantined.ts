/** Coverage probe `page-limit-quarantined`: a scan quarantined at the page limit (never-ending pages). */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** A scan quarantined at the page limit (never-ending pages). */
export const pageLimitQuarantined: Probe = {
  name: 'page-limit-quarantined',
  basis: 'reference',
  description: 'a scan quarantined at the page limit (never-ending pages)',
  hit: scanEndedWith('PAGE_LIMIT'),
};
