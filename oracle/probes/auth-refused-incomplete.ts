/** Coverage probe `auth-refused-incomplete`: a listing refused for authorization ended its scan INCOMPLETE AUTH_REQUIRED. */
import { scanEndedWith } from './internal/scan-ended.ts';
import type { Probe } from './probe.ts';

/** A scan refused for authorization ended INCOMPLETE AUTH_REQUIRED (F21). */
export const authRefusedIncomplete: Probe = {
  name: 'auth-refused-incomplete',
  basis: 'reference',
  description: 'a listing refused for authorization ended its scan INCOMPLETE AUTH_REQUIRED',
  hit: scanEndedWith('AUTH_REQUIRED'),
};
