/** Coverage probe `undisclosed-refused`: a guessed tool name (F17) refused UNDISCLOSED_TOOL. */
import { decidedWith } from './internal/decided.ts';
import type { Probe } from './probe.ts';

/** A guessed tool name (F17) refused UNDISCLOSED_TOOL. */
export const undisclosedRefused: Probe = {
  name: 'undisclosed-refused',
  basis: 'reference',
  description: 'a guessed tool name (F17) refused UNDISCLOSED_TOOL',
  hit: decidedWith('UNDISCLOSED_TOOL', 'guessed'),
};
