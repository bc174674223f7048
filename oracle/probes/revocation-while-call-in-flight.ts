/**
 * Coverage probe `revocation-while-call-in-flight` (world): the policy service revoked a tool for
 * an audience while a `tools/call` of that tool for that audience had left the core (`call_sent`)
 * and was not yet answered: no server had executed or refused it, or one did so at that very
 * instant (virtual ms), so the revocation met the call while it ran and its answer was still
 * on its way back. Read from the world's events alone; `revocation-while-lease-live` is the same
 * race measured against the leases a core reports.
 *
 * The instant of the answer counts because F8's mid-call revocation (sim/faults/f08-revocation.ts,
 * "an admin revoking a tool while it runs") is written right after the `call_executed` it
 * follows, at the same t: a window that closed at the `call_executed` event never saw it, and the
 * probe was then reached only by a planned revocation that fell inside a link latency (1 round in
 * about 600 of seed 1).
 */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** Calls in flight by audience and tool: sent, not yet answered by a server before the current instant. */
function revocationWhileCallInFlight(events: readonly KnownEvent[]): boolean {
  const inFlight = new Map<string, number>();
  /** Calls answered at instant `answeredAt`: they leave the count once a later instant is read. */
  let answered: string[] = [];
  let answeredAt = -1;
  const bump = (key: string, by: number): void => {
    inFlight.set(key, Math.max(0, (inFlight.get(key) ?? 0) + by));
  };
  for (const e of events) {
    if (e.t > answeredAt) {
      for (const key of answered) bump(key, -1);
      answered = [];
    }
    if (e.type === 'call_sent') bump(`${e.audience}|${e.tool}`, 1);
    if (e.type === 'call_executed' || e.type === 'call_refused_by_server') {
      answered.push(`${e.audience}|${e.tool}`);
      answeredAt = e.t;
    }
    if (e.type === 'policy_changed' && e.revoked.some((tool) => (inFlight.get(`${e.audience}|${tool}`) ?? 0) > 0))
      return true;
  }
  return false;
}

/** A revocation while a call of the revoked tool was on its way to a server or running there. */
export const revocationWhileCallInFlightProbe: Probe = {
  name: 'revocation-while-call-in-flight',
  basis: 'world',
  description:
    'a revocation while a call of that tool for that audience was on its way to a server or running there (the instant the server answered it included)',
  hit: revocationWhileCallInFlight,
};
