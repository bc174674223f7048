/**
 * Coverage probe `revocation-while-call-in-flight` (world): the policy service revoked a tool for
 * an audience while a `tools/call` of that tool for that audience had left the core (`call_sent`)
 * and no server had yet executed or refused it. Read from the world's events alone;
 * `revocation-while-lease-live` is the same race measured against the leases a core reports.
 */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** Calls in flight by audience and tool: sent, not yet executed or refused by a server. */
function revocationWhileCallInFlight(events: readonly KnownEvent[]): boolean {
  const inFlight = new Map<string, number>();
  const bump = (key: string, by: number): void => {
    inFlight.set(key, Math.max(0, (inFlight.get(key) ?? 0) + by));
  };
  for (const e of events) {
    if (e.type === 'call_sent') bump(`${e.audience}|${e.tool}`, 1);
    if (e.type === 'call_executed' || e.type === 'call_refused_by_server') bump(`${e.audience}|${e.tool}`, -1);
    if (e.type === 'policy_changed' && e.revoked.some((tool) => (inFlight.get(`${e.audience}|${tool}`) ?? 0) > 0)) return true;
  }
  return false;
}

/** A revocation while a call of the revoked tool was on its way to a server. */
export const revocationWhileCallInFlightProbe: Probe = {
  name: 'revocation-while-call-in-flight',
  basis: 'world',
  description: 'a revocation while a call of that tool for that audience was on its way to a server',
  hit: revocationWhileCallInFlight,
};
