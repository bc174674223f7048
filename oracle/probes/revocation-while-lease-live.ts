/** Coverage probe `revocation-while-lease-live`: a revocation while a lease for that tool was live. */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** A policy change revoked a tool while a receipt for that tool was still waiting for its outcome. */
function revocationWhileLeaseLive(events: readonly KnownEvent[]): boolean {
  const live = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'receipt') live.set(e.leaseId, e.tool);
    if (e.type === 'receipt_outcome') live.delete(e.leaseId);
    if (e.type === 'policy_changed' && e.revoked.some((name) => [...live.values()].includes(name))) return true;
  }
  return false;
}

/** A revocation while a lease was live. */
export const revocationWhileLeaseLiveProbe: Probe = {
  name: 'revocation-while-lease-live',
  basis: 'reference',
  description: 'a revocation while a lease for that tool was live',
  hit: revocationWhileLeaseLive,
};
