/** Coverage probe `revoked-refused`: a call refused POLICY_REVOKED. */
import { decidedWith } from './internal/decided.ts';
import type { Probe } from './probe.ts';

/** A call refused POLICY_REVOKED. */
export const revokedRefused: Probe = {
  name: 'revoked-refused',
  basis: 'reference',
  description: 'a call refused POLICY_REVOKED',
  hit: decidedWith('POLICY_REVOKED'),
};
