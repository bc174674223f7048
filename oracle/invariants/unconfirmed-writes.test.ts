import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, DEV_SESSION, admissionWorld, devWalk, finish, opsWalk } from '../testing/scenarios.ts';
import { ID0, TraceBuilder } from '../testing/trace-builder.ts';
import type { Violation } from '../violation.ts';

const ROUND = 17;

/**
 * `admissionWorld` with s0 unversioned (seq 0-8), both audiences scanned and published as
 * unversioned observations, acme.dev's planner shown generation 1 (seq 25); then `calls`, then
 * the round settles.
 */
function unversionedRound(calls: (b: TraceBuilder) => void, versioned = false): TraceBuilder {
  const b = new TraceBuilder();
  admissionWorld(b, versioned);
  const reported = versioned ? undefined : null;
  const devPublish = devWalk(b, { reported }).publishSeq ?? -1;
  opsWalk(b, { reported });
  expect(b.disclosure(devPublish, { session: DEV_SESSION })).toBe(25);
  calls(b);
  finish(b);
  return b;
}

const i3 = (seq: number, evidence: string): Violation => ({
  invariant: 'I3',
  round: ROUND,
  seq,
  code: 'UNCONFIRMED_WRITE_EXECUTED',
  evidence,
});

describe('I3: no unconfirmed write executed on an unversioned source', () => {
  it('UNCONFIRMED_WRITE_EXECUTED: a WRITE tool admitted and executed without a confirmation', () => {
    let executed = -1;
    const b = unversionedRound((builder) => {
      executed = builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' }).executed ?? -1;
    });
    // seq 26 plan_made, 27 gate_decision, 28 receipt, 29 call_executed.
    expect(executed).toBe(29);
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      i3(
        29,
        `call seq 29 (s0 ${DEV} executed "b", lease "lease-p0") on s0, unversioned since server_up seq 3, with trusted class WRITE, but plan "p0" of session "${DEV_SESSION}" (gate decision seq 27) has no confirmation`,
      ),
    ]);
    expect(verdict.checked.I3).toBe(1);
  });

  it('accepts the same write with a confirmation before it', () => {
    const b = unversionedRound((builder) => {
      builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b', confirm: true });
    });
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I3: 1 } });
  });

  it('needs no confirmation for a READ tool, but still counts the call', () => {
    const b = unversionedRound((builder) => {
      builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'a' });
    });
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I3: 1 } });
  });

  it('UNCONFIRMED_WRITE_EXECUTED: a tool the effect policy does not list is WRITE', () => {
    const b = unversionedRound((builder) => {
      builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'c' });
    });
    expect(checkTrace(b.build()).violations).toEqual([
      i3(
        29,
        `call seq 29 (s0 ${DEV} executed "c", lease "lease-p0") on s0, unversioned since server_up seq 3, with trusted class WRITE (not listed, so WRITE), but plan "p0" of session "${DEV_SESSION}" (gate decision seq 27) has no confirmation`,
      ),
    ]);
  });

  it('UNCONFIRMED_WRITE_EXECUTED: a confirmation logged after the execution does not count', () => {
    const b = unversionedRound((builder) => {
      builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
      builder.confirmation(DEV_SESSION, 'p0');
    });
    expect(checkTrace(b.build()).violations).toEqual([
      i3(
        29,
        `call seq 29 (s0 ${DEV} executed "b", lease "lease-p0") on s0, unversioned since server_up seq 3, with trusted class WRITE, but plan "p0" of session "${DEV_SESSION}" (gate decision seq 27) was confirmed only after it, at seq 31`,
      ),
    ]);
  });

  it('UNCONFIRMED_WRITE_EXECUTED: a confirmation of another plan does not count', () => {
    const b = unversionedRound((builder) => {
      builder.confirmation(DEV_SESSION, 'p9');
      builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
    });
    expect(checkTrace(b.build()).violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I3', 'UNCONFIRMED_WRITE_EXECUTED', 30],
    ]);
  });

  it('UNCONFIRMED_WRITE_EXECUTED (and I6): a write executed without any lease cannot be confirmed', () => {
    const b = unversionedRound((builder) => {
      builder.confirmation(DEV_SESSION, 'p0');
      builder.callExecuted({ audience: DEV, tool: 'b', leaseId: null });
    });
    // seq 26 confirmation, 27 call_executed.
    expect(checkTrace(b.build()).violations).toEqual([
      i3(
        27,
        `call seq 27 (s0 ${DEV} executed "b", no lease) on s0, unversioned since server_up seq 3, with trusted class WRITE, but it carried no lease, so no confirmation can be joined to it`,
      ),
      {
        invariant: 'I6',
        round: ROUND,
        seq: 27,
        code: 'CALL_WITHOUT_LEASE',
        evidence: `call seq 27 (s0 ${DEV} executed "b", no lease): the call carried no lease, so no receipt can be joined to it`,
      },
    ]);
  });

  it('UNCONFIRMED_WRITE_EXECUTED: a receipt whose callId no gate decision carries names no plan', () => {
    const b = unversionedRound((builder) => {
      builder.receipt({ callId: 'bypass#1', leaseId: 'lease-x', key: DEV_KEY, tool: 'b' });
      builder.callExecuted({ audience: DEV, tool: 'b', leaseId: 'lease-x' });
    });
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I6',
        round: ROUND,
        seq: 26,
        code: 'RECEIPT_WITHOUT_ADMISSION',
        evidence:
          'receipt seq 26 (callId "bypass#1", lease "lease-x", "b"): the call left the core, but no gate decision carries its callId',
      },
      i3(
        27,
        `call seq 27 (s0 ${DEV} executed "b", lease "lease-x") on s0, unversioned since server_up seq 3, with trusted class WRITE, but no gate decision carries callId "bypass#1" of receipt seq 26, so no confirmation can be joined to it`,
      ),
    ]);
  });

  it('does not judge calls a versioned server executed', () => {
    const b = unversionedRound((builder) => {
      builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
    }, true);
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I3: 0 } });
  });

  it('judges a call by the boot before it: a server restarted unversioned is judged from then on', () => {
    const b = unversionedRound((builder) => {
      builder.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
      builder.serverUp('s0', ID0, { boot: 1, versioned: false });
      builder.call({ session: DEV_SESSION, planId: 'p1', key: DEV_KEY, tool: 'b' });
    }, true);
    const verdict = checkTrace(b.build());
    expect(verdict.violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I3', 'UNCONFIRMED_WRITE_EXECUTED', 35],
    ]);
    expect(verdict.checked.I3).toBe(1);
  });
});
