import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, DEV_SESSION, admissionWorld, devWalk, finish, opsWalk } from '../testing/scenarios.ts';
import { TraceBuilder } from '../testing/trace-builder.ts';
import type { Violation } from '../violation.ts';

const ROUND = 17;

/** `admissionWorld` (versioned s0), both audiences published, the planner shown generation 1 (seq 25), then `calls`. */
function receiptRound(calls: (b: TraceBuilder) => void): TraceBuilder {
  const b = new TraceBuilder();
  admissionWorld(b);
  const devPublish = devWalk(b).publishSeq ?? -1;
  opsWalk(b);
  expect(b.disclosure(devPublish, { session: DEV_SESSION })).toBe(25);
  calls(b);
  finish(b);
  return b;
}

const i6 = (seq: number, code: string, evidence: string): Violation => ({
  invariant: 'I6',
  round: ROUND,
  seq,
  code,
  evidence,
});

describe('I6: exactly one binding receipt per executed call', () => {
  it('CALL_WITHOUT_RECEIPT: a call the server executed that left no receipt', () => {
    const b = receiptRound((builder) => {
      builder.planMade({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
      builder.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
      builder.callExecuted({ audience: DEV, tool: 'b', leaseId: 'lease-p0', pin: 3 });
    });
    // seq 26 plan_made, 27 gate_decision, 28 call_executed.
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      i6(
        28,
        'CALL_WITHOUT_RECEIPT',
        `call seq 28 (s0 ${DEV} executed "b", lease "lease-p0"): no receipt carries its lease`,
      ),
    ]);
    expect(verdict.checked.I6).toBe(1);
    expect(verdict.metrics.receipts).toEqual({ executed: 1, covered: 0 });
  });

  it('DUPLICATE_RECEIPT: a second receipt for the same lease, reported once at the later receipt', () => {
    const b = receiptRound((builder) => {
      const { leaseId } = builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
      builder.receipt({ callId: `${DEV_SESSION}#p0`, leaseId: leaseId ?? '', key: DEV_KEY, tool: 'b' });
    });
    // seq 26-30 the call (receipt 28), 31 the second receipt.
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      i6(
        31,
        'DUPLICATE_RECEIPT',
        `receipt seq 31 (callId "${DEV_SESSION}#p0") carries lease "lease-p0", which receipt seq 28 (callId "${DEV_SESSION}#p0") already carries`,
      ),
    ]);
    // 1 executed call, 2 receipts, 1 outcome.
    expect(verdict.checked.I6).toBe(4);
    expect(verdict.metrics.receipts).toEqual({ executed: 1, covered: 0 });
  });

  it('DUPLICATE_RECEIPT: two receipts share a lease even when no call was executed', () => {
    const b = receiptRound((builder) => {
      builder.gateDecision({ session: DEV_SESSION, planId: 'q1', key: DEV_KEY, tool: 'a', callId: 'c1' });
      builder.receipt({ callId: 'c1', leaseId: 'lease-x', key: DEV_KEY, tool: 'a' });
      builder.gateDecision({ session: DEV_SESSION, planId: 'q2', key: DEV_KEY, tool: 'b', callId: 'c2' });
      builder.receipt({ callId: 'c2', leaseId: 'lease-x', key: DEV_KEY, tool: 'b' });
    });
    // seq 26 decision, 27 receipt, 28 decision, 29 receipt.
    expect(checkTrace(b.build()).violations).toEqual([
      i6(
        29,
        'DUPLICATE_RECEIPT',
        'receipt seq 29 (callId "c2") carries lease "lease-x", which receipt seq 27 (callId "c1") already carries',
      ),
    ]);
  });

  it('CALL_WITHOUT_LEASE: a call executed with a null leaseId', () => {
    const b = receiptRound((builder) => {
      builder.callExecuted({ audience: DEV, tool: 'a', leaseId: null });
    });
    expect(checkTrace(b.build()).violations).toEqual([
      i6(
        26,
        'CALL_WITHOUT_LEASE',
        `call seq 26 (s0 ${DEV} executed "a", no lease): the call carried no lease, so no receipt can be joined to it`,
      ),
    ]);
  });

  it('RECEIPT_UNBOUND: a receipt without a policy epoch (as a core that forgets the epoch writes it)', () => {
    const b = receiptRound((builder) => {
      builder.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
      builder.receipt({
        callId: `${DEV_SESSION}#p0`,
        leaseId: 'lease-p0',
        key: DEV_KEY,
        tool: 'b',
        binding: { policyEpoch: undefined },
      });
      builder.callExecuted({ audience: DEV, tool: 'b', leaseId: 'lease-p0' });
    });
    const text = b.jsonl();
    expect(text).not.toContain('"policyEpoch":null');
    // seq 26 gate decision, 27 receipt, 28 call_executed.
    expect(checkTrace(b.build()).violations).toEqual([
      i6(
        28,
        'RECEIPT_UNBOUND',
        `call seq 28 (s0 ${DEV} executed "b", lease "lease-p0"): its receipt seq 27 does not bind a policy epoch (missing)`,
      ),
    ]);
  });

  it('RECEIPT_UNBOUND: names every field that fails to bind, with the value carried', () => {
    const b = receiptRound((builder) => {
      builder.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b', callId: 'x' });
      builder.receipt({
        callId: 'x',
        leaseId: 'lease-p0',
        key: DEV_KEY,
        tool: 'b',
        binding: { generation: '1', descriptorDigest: 'abc', policyEpoch: 0 },
      });
      builder.callExecuted({ audience: DEV, tool: 'b', leaseId: 'lease-p0' });
    });
    expect(checkTrace(b.build()).violations).toEqual([
      i6(
        28,
        'RECEIPT_UNBOUND',
        `call seq 28 (s0 ${DEV} executed "b", lease "lease-p0"): its receipt seq 27 does not bind a generation ("1"), a descriptor digest ("abc"), a policy epoch (0)`,
      ),
      // Joined to its session through the gate decision, the call's bound digest "abc" was never shown.
      {
        invariant: 'I9',
        round: ROUND,
        seq: 28,
        code: 'UNDISCLOSED_TOOL_EXECUTED',
        evidence: `call seq 28 (s0 ${DEV} executed "b", lease "lease-p0") for session "${DEV_SESSION}" (receipt seq 27, gate decision seq 26) binds descriptor abc, which no disclosure before it showed the session`,
      },
    ]);
  });

  it("RECEIPT_WITHOUT_ADMISSION: a call that left the core without the gate's ADMIT before it (none, a refusal, or one written after)", () => {
    const b = receiptRound((builder) => {
      // A call sent with no decision record at all: I7, I8 and I11 would never see it.
      builder.receipt({ callId: 'ungated', leaseId: 'lease-u', key: DEV_KEY, tool: 'b' });
      builder.callExecuted({ audience: DEV, tool: 'b', leaseId: 'lease-u', pin: 3 });
      // A call the gate refused, sent anyway.
      builder.gateDecision({ session: DEV_SESSION, planId: 'p1', key: DEV_KEY, tool: 'a', decision: 'POLICY_REVOKED' });
      builder.receipt({ callId: `${DEV_SESSION}#p1`, leaseId: 'lease-p1', key: DEV_KEY, tool: 'a' });
      // A decision written only after the call left.
      builder.receipt({ callId: `${DEV_SESSION}#p2`, leaseId: 'lease-p2', key: DEV_KEY, tool: 'a' });
      builder.gateDecision({ session: DEV_SESSION, planId: 'p2', key: DEV_KEY, tool: 'a' });
    });
    // seq 26 receipt, 27 call_executed, 28 refusal, 29 receipt, 30 receipt, 31 ADMIT.
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      i6(
        26,
        'RECEIPT_WITHOUT_ADMISSION',
        'receipt seq 26 (callId "ungated", lease "lease-u", "b"): the call left the core, but no gate decision carries its callId',
      ),
      i6(
        29,
        'RECEIPT_WITHOUT_ADMISSION',
        `receipt seq 29 (callId "${DEV_SESSION}#p1", lease "lease-p1", "a"): the call left the core, but its gate decision seq 28 is POLICY_REVOKED, not ADMIT`,
      ),
      i6(
        30,
        'RECEIPT_WITHOUT_ADMISSION',
        `receipt seq 30 (callId "${DEV_SESSION}#p2", lease "lease-p2", "a"): the call left the core, but its gate decision seq 31 comes after it`,
      ),
    ]);
    expect(verdict.metrics.receipts).toEqual({ executed: 1, covered: 1 });
  });

  it('accepts one binding receipt per executed call, whichever side of the execution it is logged', () => {
    const b = receiptRound((builder) => {
      builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
      builder.planMade({ session: DEV_SESSION, planId: 'p1', key: DEV_KEY, tool: 'a' });
      builder.gateDecision({ session: DEV_SESSION, planId: 'p1', key: DEV_KEY, tool: 'a' });
      builder.callExecuted({ audience: DEV, tool: 'a', leaseId: 'lease-p1', pin: 3 });
      builder.receipt({ callId: `${DEV_SESSION}#p1`, leaseId: 'lease-p1', key: DEV_KEY, tool: 'a' });
    });
    const verdict = checkTrace(b.build());
    expect(verdict).toMatchObject({ violations: [], checked: { I6: 5 } });
    expect(verdict.metrics.receipts).toEqual({ executed: 2, covered: 2 });
  });

  it('judges receipt outcomes against the receipts and the server: OUTCOME_WITHOUT_RECEIPT, OUTCOME_REPEATED, OUTCOME_CONTRADICTS_SERVER', () => {
    const b = receiptRound((builder) => {
      /** The gate's ADMIT of plan `planId`, then its receipt with lease `lease-<planId>`. */
      const admitted = (planId: string): void => {
        builder.gateDecision({ session: DEV_SESSION, planId, key: DEV_KEY, tool: 'b' });
        builder.receipt({ callId: `${DEV_SESSION}#${planId}`, leaseId: `lease-${planId}`, key: DEV_KEY, tool: 'b' });
      };
      builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
      builder.receiptOutcome('lease-p0', 'ok');
      builder.receiptOutcome('lease-nobody', 'unknown');
      admitted('p1');
      builder.receiptOutcome('lease-p1', 'ok');
      admitted('p2');
      builder.receiptOutcome('lease-p2', 'refused');
      admitted('p3');
      builder.callRefusedByServer({ audience: DEV, tool: 'b', leaseId: 'lease-p3', code: 'STALE_PIN' });
      builder.receiptOutcome('lease-p3', 'refused');
      admitted('p4');
      builder.receiptOutcome('lease-p4', 'unknown');
      builder.receiptOutcome('lease-p4', 'error');
    });
    // seq 26-30 a whole call (outcome ok at 30), 31 its second outcome, 32 an outcome of no receipt,
    // 33-35 an ok never executed, 36-38 a refusal the server never made, 39-42 a real refusal,
    // 43-45 an unknown outcome (claims nothing), 46 an error for the same lease.
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      i6(
        31,
        'OUTCOME_REPEATED',
        'receipt_outcome seq 31 (ok, lease "lease-p0") repeats the outcome of that lease (seq 30, ok)',
      ),
      i6(
        32,
        'OUTCOME_WITHOUT_RECEIPT',
        'receipt_outcome seq 32 (unknown, lease "lease-nobody") follows no receipt of that lease',
      ),
      i6(
        35,
        'OUTCOME_CONTRADICTS_SERVER',
        'receipt_outcome seq 35 (ok, lease "lease-p1"), but no server executed a call with that lease before it',
      ),
      i6(
        38,
        'OUTCOME_CONTRADICTS_SERVER',
        'receipt_outcome seq 38 (refused, lease "lease-p2"), but no server refused a call with that lease before it',
      ),
      i6(
        46,
        'OUTCOME_REPEATED',
        'receipt_outcome seq 46 (error, lease "lease-p4") repeats the outcome of that lease (seq 45, unknown)',
      ),
    ]);
    // 1 executed call, 5 receipts, 8 outcomes.
    expect(verdict.checked.I6).toBe(14);
  });

  it('OUTCOME_WITHOUT_RECEIPT: an outcome written before its receipt', () => {
    const b = receiptRound((builder) => {
      builder.receiptOutcome('lease-p0', 'unknown');
      builder.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
      builder.receipt({ callId: `${DEV_SESSION}#p0`, leaseId: 'lease-p0', key: DEV_KEY, tool: 'b' });
    });
    expect(checkTrace(b.build()).violations).toEqual([
      i6(
        26,
        'OUTCOME_WITHOUT_RECEIPT',
        'receipt_outcome seq 26 (unknown, lease "lease-p0") follows no receipt of that lease',
      ),
    ]);
  });
});
