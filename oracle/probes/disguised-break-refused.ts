/**
 * Coverage probe `disguised-break-refused` (F36): after a server changed a tool's contract in a
 * breaking way under a compatible-looking version claim, the core refused a call whose run had
 * pinned the old contract as drift (`STALE_CATALOG`, or the registry's `VERSION_INCOMPATIBLE`)
 * instead of running it against the new one (I39). It reads the core's gate decisions, so only
 * the reference core is held to it.
 */
import { planRef } from '../internal/plan-ref.ts';
import type { Probe } from './probe.ts';

const DRIFT_REFUSALS: ReadonlySet<string> = new Set(['STALE_CATALOG', 'VERSION_INCOMPATIBLE']);

/** A drift refusal of a plan pinned to the `from` of a breaking `contract_changed` before it. */
export const disguisedBreakRefused: Probe = {
  name: 'disguised-break-refused',
  basis: 'reference',
  description:
    'a call whose run pinned the contract before a disguised breaking change was refused as drift, not run (F36)',
  hit: (events) => {
    const pins = new Map<string, string>();
    const broken = new Set<string>();
    for (const event of events) {
      if (event.type === 'plan_made') pins.set(planRef(event.session, event.planId), event.descriptorDigest);
      else if (event.type === 'contract_changed' && event.change === 'breaking') broken.add(event.from);
      else if (event.type === 'gate_decision' && DRIFT_REFUSALS.has(event.decision)) {
        const pinned = pins.get(planRef(event.session, event.planId));
        if (pinned !== undefined && broken.has(pinned)) return true;
      }
    }
    return false;
  },
};
