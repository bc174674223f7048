/** Coverage probe `args-refused`: a call with invalid arguments refused. */
import { decidedWith } from './internal/decided.ts';
import type { Probe } from './probe.ts';

/** A call with invalid arguments refused. */
export const argsRefused: Probe = {
  name: 'args-refused',
  basis: 'reference',
  description: 'a call with invalid arguments refused',
  hit: decidedWith('ARGS_INVALID'),
};
