/**
 * Coverage probe `emergency-disable-ordered` (F26): an operator emergency-disabled a tool while the
 * host was up. It reads only the world's `emergency_disabled` (delivered, or `unsupported` for a
 * core without `emergencyDisable`), so any core's campaign reaches it as often as the reference's.
 */
import type { Probe } from './probe.ts';

/** An `emergency_disabled` the world ordered while the host was up (not `host_down`). */
export const emergencyDisableOrdered: Probe = {
  name: 'emergency-disable-ordered',
  basis: 'world',
  description: 'an operator emergency-disabled a tool while the host was up (F26)',
  hit: (events) => events.some((event) => event.type === 'emergency_disabled' && event.delivery !== 'host_down'),
};
