/**
 * Where an executed call came from, joined the way SPEC section 11 prescribes: the server's
 * `call_executed` names a leaseId, the core's `receipt` with that leaseId names a callId, and the
 * `gate_decision` with that callId names the session and the plan. Used by I3 (whose confirmation
 * is it?) and I9 (which session was it disclosed to?). The join never reads a callId's format.
 */
import type { Observations } from '../observations.ts';
import type { GateDecisionEvent, ReceiptEvent } from '../trace.ts';

/** The links found for one executed call; the chain stops at the first missing link. */
export interface CallOrigin {
  /** The first receipt carrying the call's leaseId, or null. */
  readonly receipt: ReceiptEvent | null;
  /** The first gate decision carrying that receipt's callId, or null. */
  readonly decision: GateDecisionEvent | null;
  /** Why the chain stops short, as evidence words (`it carried no lease`, ...), or null when whole. */
  readonly gap: string | null;
}

/**
 * Joins a call the server saw (a `call_executed` or a `call_refused_by_server`: only its leaseId
 * is read) to its receipt and gate decision (two map lookups).
 */
export function callOrigin(observed: Observations, call: { readonly leaseId: string | null }): CallOrigin {
  if (call.leaseId === null) return { receipt: null, decision: null, gap: 'it carried no lease' };
  const receipt = observed.receiptsByLeaseId.get(call.leaseId)?.[0] ?? null;
  if (receipt === null)
    return { receipt, decision: null, gap: `no receipt carries lease ${JSON.stringify(call.leaseId)}` };
  const decision = observed.decisionByCallId.get(receipt.callId) ?? null;
  if (decision === null) {
    return {
      receipt,
      decision,
      gap: `no gate decision carries callId ${JSON.stringify(receipt.callId)} of receipt seq ${receipt.seq}`,
    };
  }
  return { receipt, decision, gap: null };
}
