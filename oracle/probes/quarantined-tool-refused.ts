/** Coverage probe `quarantined-tool-refused`: a call to a quarantined tool refused. */
import { decidedWith } from './internal/decided.ts';
import type { Probe } from './probe.ts';

/** A call to a quarantined tool refused. */
export const quarantinedToolRefused: Probe = {
  name: 'quarantined-tool-refused',
  basis: 'reference',
  description: 'a call to a quarantined tool refused',
  hit: decidedWith('TOOL_QUARANTINED'),
};
