/**
 * Unconfirmed writes, I3 (SPEC sections 7 and 11): no non-READ tool from an unversioned source is
 * executed without a human confirmation.
 *
 * Judged on every `call_executed` whose server's latest `server_up` before the call says
 * `versioned: false` (a server that never came up is not judged: nothing says how it served). The
 * tool's trusted effect class comes from the world's `effect_policy` (never from annotations); a
 * tool it does not list is WRITE. A READ tool needs nothing. Any other needs a `confirmation`
 * earlier in the trace for the plan that led to the call, found by joining the call's leaseId to
 * its receipt, the receipt's callId to its gate decision, and that decision's (session, planId)
 * to the confirmation (see call-origin.ts). A call executed without a lease, receipt or gate
 * decision cannot be joined to any confirmation, so a non-READ one is a violation too.
 *
 * Code: `UNCONFIRMED_WRITE_EXECUTED`, anchored at the executed call, saying which link is missing.
 * Work count: calls executed by unversioned servers.
 */
import { planRef } from '../internal/plan-ref.ts';
import type { CallExecutedEvent } from '../trace.ts';
import { callLabel } from '../violation.ts';
import { callOrigin } from './call-origin.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** Checks I3 over every call an unversioned server executed. */
export function checkUnconfirmedWrites(context: CheckContext, findings: Findings): void {
  for (const call of context.truth.callsExecuted) {
    const boot = context.truth.servers.get(call.server)?.bootBefore(call.seq) ?? null;
    if (boot === null || boot.versioned) continue;
    findings.count('I3');
    const effectClass = context.truth.effectClassOf(call.tool);
    if (effectClass === 'READ') continue;
    const problem = confirmationProblem(context, call);
    if (problem === null) continue;
    const listed = context.truth.effectClasses.has(call.tool) ? '' : ' (not listed, so WRITE)';
    findings.add(
      'I3',
      call.seq,
      'UNCONFIRMED_WRITE_EXECUTED',
      `${callLabel(call)} on ${call.server}, unversioned since server_up seq ${boot.seq}, with trusted class ${effectClass}${listed}, but ${problem}`,
    );
  }
}

/** Why no confirmation precedes the call, or null when one does. */
function confirmationProblem(context: CheckContext, call: CallExecutedEvent): string | null {
  const origin = callOrigin(context.observed, call);
  if (origin.decision === null)
    return `${origin.gap ?? 'it has no gate decision'}, so no confirmation can be joined to it`;
  const { session, planId } = origin.decision;
  const plan = `plan ${JSON.stringify(planId)} of session ${JSON.stringify(session)} (gate decision seq ${origin.decision.seq})`;
  const confirmation = context.truth.confirmations.get(planRef(session, planId));
  if (confirmation === undefined) return `${plan} has no confirmation`;
  if (confirmation.seq > call.seq) return `${plan} was confirmed only after it, at seq ${confirmation.seq}`;
  return null;
}
