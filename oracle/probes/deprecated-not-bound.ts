/**
 * Coverage probe `deprecated-not-bound` (F31): a call was refused `TOOL_NOT_PINNED` after an
 * operator's delivered deprecation, so a bundle built afterwards left a deprecated version out and
 * a call through it was refused (I34's defence ran). It reads the core's `gate_decision`, so only
 * the reference core is held to it.
 */
import type { Probe } from './probe.ts';

/** A `TOOL_NOT_PINNED` decision after a delivered `deprecation_ordered` of the same tool. */
export const deprecatedNotBound: Probe = {
  name: 'deprecated-not-bound',
  basis: 'reference',
  description: 'a call through a bundle built after a deprecation was refused TOOL_NOT_PINNED (F31)',
  hit: (events) => {
    const deprecated = new Set<string>();
    for (const event of events) {
      if (event.type === 'deprecation_ordered' && event.delivery === 'delivered') deprecated.add(event.tool);
      if (event.type === 'gate_decision' && event.decision === 'TOOL_NOT_PINNED' && deprecated.has(event.tool))
        return true;
    }
    return false;
  },
};
