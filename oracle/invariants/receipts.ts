/**
 * Receipts, I6 (SPEC sections 7 and 11): every call the server executed has exactly one receipt,
 * joined on leaseId, binding a generation, a descriptor digest and a policy epoch.
 *
 * - Each `call_executed` must carry a lease (a null leaseId cannot be joined to anything), and
 *   exactly one `receipt` anywhere in the trace must carry that leaseId. Order is not demanded:
 *   the receipt is written when the call leaves the core, which a trace may log either side of the
 *   server's execution.
 * - That receipt binds: `generation` a non-negative integer, `descriptorDigest` 64 lowercase hex,
 *   `policyEpoch` an integer of at least 1 (epochs start at 1). The trace format leaves these three
 *   fields to this rule, so a receipt that fails to bind is a violation, not a malformed trace.
 * - No two receipts carry the same leaseId (a lease is single-use), executed or not.
 * - Every receipt follows the gate's ADMIT of its call (the `gate_decision` with the receipt's
 *   callId): a call leaves the core only through the gate, and the gate's decision record is what
 *   I7, I8 and I11 judge admissions on, so a call sent without one would escape all three. A core
 *   that does not write its decisions fails here rather than passing unjudged.
 * - A receipt's outcome (`receipt_outcome`, SPEC section 1: "appended later") follows its receipt
 *   (the first with its leaseId, earlier in the trace), at most once per lease, and does not
 *   contradict the server's own record: `ok` needs a `call_executed` with that lease before it,
 *   `refused` a `call_refused_by_server` with that lease before it. `error` (an error result or
 *   another JSON-RPC error) and `unknown` (no answer in time: it may have run) claim nothing the
 *   world's record could refute.
 *
 * Codes: `CALL_WITHOUT_LEASE`, `CALL_WITHOUT_RECEIPT`, `RECEIPT_UNBOUND` (anchored at the executed
 * call), `DUPLICATE_RECEIPT` (anchored at each later receipt of a leaseId, naming the first),
 * `RECEIPT_WITHOUT_ADMISSION` (anchored at the receipt: no ADMIT of its callId before it). A
 * call whose leaseId has several receipts is reported by `DUPLICATE_RECEIPT` alone.
 * `OUTCOME_WITHOUT_RECEIPT`, `OUTCOME_REPEATED`, `OUTCOME_CONTRADICTS_SERVER` (anchored at the
 * `receipt_outcome`).
 * Work count: executed calls plus receipts plus outcomes.
 */
import type { Observations } from '../observations.ts';
import type { CallExecutedEvent, ReceiptEvent, ReceiptOutcomeEvent } from '../trace.ts';
import { callLabel } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** What is wrong with an executed call's receipt: a violation code and its evidence words. */
export interface ReceiptProblem {
  readonly code: 'CALL_WITHOUT_LEASE' | 'CALL_WITHOUT_RECEIPT' | 'RECEIPT_UNBOUND' | 'DUPLICATE_RECEIPT';
  readonly why: string;
}

const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** Checks I6 over every executed call and every receipt. */
export function checkReceipts(context: CheckContext, findings: Findings): void {
  for (const call of context.truth.callsExecuted) {
    findings.count('I6');
    const problem = receiptProblem(context.observed, call);
    if (problem === null || problem.code === 'DUPLICATE_RECEIPT') continue;
    findings.add('I6', call.seq, problem.code, `${callLabel(call)}: ${problem.why}`);
  }
  findings.count('I6', context.observed.receipts.length);
  for (const receipt of context.observed.receipts) checkAdmitted(context, receipt, findings);
  for (const [leaseId, receipts] of context.observed.receiptsByLeaseId) {
    const first = receipts[0];
    if (first === undefined) continue;
    for (const later of receipts.slice(1)) {
      findings.add(
        'I6',
        later.seq,
        'DUPLICATE_RECEIPT',
        `receipt seq ${later.seq} (callId ${JSON.stringify(later.callId)}) carries lease ${JSON.stringify(leaseId)}, which receipt seq ${first.seq} (callId ${JSON.stringify(first.callId)}) already carries`,
      );
    }
  }
  checkOutcomes(context, findings);
}

/** Each outcome follows its receipt, once, and agrees with what the server logged. */
function checkOutcomes(context: CheckContext, findings: Findings): void {
  const firstOutcome = new Map<string, ReceiptOutcomeEvent>();
  for (const outcome of context.observed.receiptOutcomes) {
    findings.count('I6');
    const what = `receipt_outcome seq ${outcome.seq} (${outcome.outcome}, lease ${JSON.stringify(outcome.leaseId)})`;
    const receipt = context.observed.receiptsByLeaseId.get(outcome.leaseId)?.[0];
    const earlier = firstOutcome.get(outcome.leaseId);
    if (earlier === undefined) firstOutcome.set(outcome.leaseId, outcome);
    if (receipt === undefined || receipt.seq > outcome.seq) {
      findings.add('I6', outcome.seq, 'OUTCOME_WITHOUT_RECEIPT', `${what} follows no receipt of that lease`);
    } else if (earlier !== undefined) {
      findings.add(
        'I6',
        outcome.seq,
        'OUTCOME_REPEATED',
        `${what} repeats the outcome of that lease (seq ${earlier.seq}, ${earlier.outcome})`,
      );
    } else {
      const contradiction = serverContradiction(context, outcome);
      if (contradiction !== null)
        findings.add('I6', outcome.seq, 'OUTCOME_CONTRADICTS_SERVER', `${what}, but ${contradiction}`);
    }
  }
}

/** Why the server's record refutes an outcome, or null when it does not. */
function serverContradiction(context: CheckContext, outcome: ReceiptOutcomeEvent): string | null {
  if (outcome.outcome === 'ok') {
    const executed = context.truth.firstExecutionByLeaseId.get(outcome.leaseId);
    return executed !== undefined && executed.seq < outcome.seq
      ? null
      : 'no server executed a call with that lease before it';
  }
  if (outcome.outcome === 'refused') {
    const refused = context.truth.firstRefusalByLeaseId.get(outcome.leaseId);
    return refused !== undefined && refused.seq < outcome.seq
      ? null
      : 'no server refused a call with that lease before it';
  }
  return null;
}

/** The receipt's call was admitted by a gate decision written before the receipt. */
function checkAdmitted(context: CheckContext, receipt: ReceiptEvent, findings: Findings): void {
  const decision = context.observed.decisionByCallId.get(receipt.callId);
  if (decision !== undefined && decision.decision === 'ADMIT' && decision.seq < receipt.seq) return;
  const label = `receipt seq ${receipt.seq} (callId ${JSON.stringify(receipt.callId)}, lease ${JSON.stringify(receipt.leaseId)}, ${JSON.stringify(receipt.tool)})`;
  const why =
    decision === undefined
      ? 'no gate decision carries its callId'
      : decision.decision !== 'ADMIT'
        ? `its gate decision seq ${decision.seq} is ${decision.decision}, not ADMIT`
        : `its gate decision seq ${decision.seq} comes after it`;
  findings.add('I6', receipt.seq, 'RECEIPT_WITHOUT_ADMISSION', `${label}: the call left the core, but ${why}`);
}

/**
 * Why an executed call lacks exactly one binding receipt, or null when it has one (the metrics'
 * "covered"). Two map lookups and three field checks.
 */
export function receiptProblem(observed: Observations, call: CallExecutedEvent): ReceiptProblem | null {
  if (call.leaseId === null)
    return { code: 'CALL_WITHOUT_LEASE', why: 'the call carried no lease, so no receipt can be joined to it' };
  const receipts = observed.receiptsByLeaseId.get(call.leaseId) ?? [];
  const receipt = receipts[0];
  if (receipt === undefined) return { code: 'CALL_WITHOUT_RECEIPT', why: 'no receipt carries its lease' };
  if (receipts.length > 1) return { code: 'DUPLICATE_RECEIPT', why: `${receipts.length} receipts carry its lease` };
  const unbound = unboundFields(receipt);
  if (unbound.length === 0) return null;
  return { code: 'RECEIPT_UNBOUND', why: `its receipt seq ${receipt.seq} does not bind ${unbound.join(', ')}` };
}

/** The binding fields a receipt gets wrong, each with the value it carries. */
function unboundFields(receipt: ReceiptEvent): string[] {
  const wrong: string[] = [];
  const { generation, descriptorDigest, policyEpoch } = receipt;
  if (!(Number.isSafeInteger(generation) && (generation as number) >= 0))
    wrong.push(`a generation (${show(generation)})`);
  if (!(typeof descriptorDigest === 'string' && HEX_DIGEST.test(descriptorDigest)))
    wrong.push(`a descriptor digest (${show(descriptorDigest)})`);
  if (!(Number.isSafeInteger(policyEpoch) && (policyEpoch as number) >= 1))
    wrong.push(`a policy epoch (${show(policyEpoch)})`);
  return wrong;
}

/** A carried value for evidence: its JSON, or `missing` when the field is absent. */
function show(value: unknown): string {
  return value === undefined ? 'missing' : JSON.stringify(value);
}
