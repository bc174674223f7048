/**
 * Coverage probe `emergency-disable-call-refused` (F26): after a delivered emergency disable, the
 * core refused a call of that tool with `VERSION_EMERGENCY_DISABLED` (a planner did try it, and the
 * refusal said why, rather than the tool "disappearing").
 */
import type { Probe } from './probe.ts';

/** A `gate_decision` VERSION_EMERGENCY_DISABLED of the disabled tool after its delivered order. */
export const emergencyDisableCallRefused: Probe = {
  name: 'emergency-disable-call-refused',
  basis: 'reference',
  description:
    'after an emergency disable was delivered, the core refused a call of that tool VERSION_EMERGENCY_DISABLED (F26)',
  hit: (events) => {
    const disabled = new Set<string>();
    for (const event of events) {
      if (event.type === 'emergency_disabled' && event.delivery === 'delivered') disabled.add(event.tool);
      if (event.type === 'gate_decision' && event.decision === 'VERSION_EMERGENCY_DISABLED' && disabled.has(event.tool))
        return true;
    }
    return false;
  },
};
