/**
 * Coverage probe `deprecation-ordered` (F31): an operator deprecated the listed versions of a tool
 * while the host was up. It reads only the world's `deprecation_ordered` (delivered, or
 * `unsupported` for a core without `deprecate`, naming at least one version), so any core's
 * campaign reaches it as often as the reference's.
 */
import type { Probe } from './probe.ts';

/** A `deprecation_ordered` naming a version, ordered while the host was up (not `host_down`). */
export const deprecationOrdered: Probe = {
  name: 'deprecation-ordered',
  basis: 'world',
  description: 'an operator deprecated the listed versions of a tool while the host was up (F31)',
  hit: (events) =>
    events.some(
      (event) =>
        event.type === 'deprecation_ordered' && event.delivery !== 'host_down' && event.descriptorDigests.length > 0,
    ),
};
