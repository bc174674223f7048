import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, DEV_SESSION, OPS, admissionWorld, devWalk, finish, opsWalk } from '../testing/scenarios.ts';
import { TraceBuilder } from '../testing/trace-builder.ts';

const ROUND = 17;
/** B of the default bounds. */
const BOUND_MS = 1_500;

/**
 * `admissionWorld`, both audiences published, the planner shown generation 1 (seq 25, t=250),
 * then `policy` (starting at seq 26, t=260), a plan for `tool`, and at `admitAtMs` the gate ADMITs
 * it at policy epoch 1 (a core that has not caught up); the round then settles.
 */
function revocationRound(
  policy: (b: TraceBuilder) => void,
  admitAtMs: number,
  tool = 'c',
  options: { withoutRevocationBound?: boolean } = {},
): { builder: TraceBuilder; admit: number } {
  const b = new TraceBuilder(options);
  admissionWorld(b);
  const devPublish = devWalk(b).publishSeq ?? -1;
  opsWalk(b);
  expect(b.disclosure(devPublish, { session: DEV_SESSION })).toBe(25);
  policy(b);
  b.planMade({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool });
  b.at(admitAtMs);
  const admit = b.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool });
  finish(b);
  return { builder: b, admit };
}

/** acme.dev epoch 2 revokes c at seq 26, t=260. */
const revokeC = (b: TraceBuilder): void => {
  expect([b.policyChanged(DEV, 2, ['a', 'b'], { revoked: ['c'] }), b.now() - 10]).toEqual([26, 260]);
};

describe('I7: no admission of a revoked tool later than B after the revocation', () => {
  it('REVOKED_TOOL_ADMITTED: an ADMIT 1 ms past B', () => {
    const { builder, admit } = revocationRound(revokeC, 260 + BOUND_MS + 1);
    expect(admit).toBe(28);
    const verdict = checkTrace(builder.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I7',
        round: ROUND,
        seq: 28,
        code: 'REVOKED_TOOL_ADMITTED',
        evidence: `gate decision seq 28 (session "${DEV_SESSION}", plan "p0") admits "c" for ${DEV} at t=1761, 1501 ms after policy_changed seq 26 (epoch 2) revoked it at t=260: 1 ms past the bound of 1500 ms (the gate used policy epoch 1)`,
      },
    ]);
    // 1 ADMIT and the round's 2 policy_seen (epoch 1 of acme.dev and of acme.ops, by poll).
    expect(verdict.checked.I7).toBe(3);
    // The core never saw epoch 2: the delay is censored at the round end (t=1781).
    expect(verdict.metrics).toMatchObject({ revocationDelaysMs: [1_521], revocationsCensored: 1 });
  });

  it('accepts an ADMIT exactly at B', () => {
    const { builder } = revocationRound(revokeC, 260 + BOUND_MS);
    expect(checkTrace(builder.build())).toMatchObject({ violations: [], checked: { I7: 3 } });
  });

  it('accepts an ADMIT after a later change granted the tool again', () => {
    const regrant = (b: TraceBuilder): void => {
      revokeC(b);
      b.policyChanged(DEV, 3, ['a', 'b', 'c'], { granted: ['c'] });
    };
    const { builder } = revocationRound(regrant, 260 + BOUND_MS + 100);
    expect(checkTrace(builder.build()).violations).toEqual([]);
  });

  it('REVOKED_TOOL_ADMITTED: a re-grant after the admission does not help', () => {
    const { builder } = revocationRound(revokeC, 260 + BOUND_MS + 100);
    builder.policyChanged(DEV, 3, ['a', 'b', 'c'], { granted: ['c'] });
    expect(checkTrace(builder.build()).violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I7', 'REVOKED_TOOL_ADMITTED', 28],
    ]);
  });

  it('measures from the latest revocation after a re-grant', () => {
    const twice = (b: TraceBuilder): void => {
      revokeC(b);
      b.policyChanged(DEV, 3, ['a', 'b', 'c'], { granted: ['c'] });
      b.at(1_000);
      b.policyChanged(DEV, 4, ['a', 'b'], { revoked: ['c'] });
    };
    expect(checkTrace(revocationRound(twice, 1_000 + BOUND_MS).builder.build()).violations).toEqual([]);
    expect(
      checkTrace(revocationRound(twice, 1_000 + BOUND_MS + 1).builder.build()).violations.map((v) => v.code),
    ).toEqual(['REVOKED_TOOL_ADMITTED']);
  });

  it('ignores a revocation for another audience, or of another tool', () => {
    const revokeOthers = (b: TraceBuilder): void => {
      b.policyChanged(OPS, 2, [], { revoked: ['a'] });
      b.policyChanged(DEV, 2, ['a', 'c'], { revoked: ['b'] });
    };
    const { builder } = revocationRound(revokeOthers, 5_000, 'a');
    expect(checkTrace(builder.build())).toMatchObject({ violations: [], checked: { I7: 3 } });
  });

  it('is not judged when the header has no revocation bound (its 2 policy_seen still are), and the delay is still measured', () => {
    const { builder } = revocationRound(revokeC, 260 + BOUND_MS + 1, 'c', { withoutRevocationBound: true });
    expect('revocationBoundMs' in builder.header.bounds).toBe(false);
    const verdict = checkTrace(builder.build());
    expect(verdict).toMatchObject({
      violations: [],
      checked: { I7: 2 },
      metrics: { revocationDelaysMs: [1_521], revocationsCensored: 1 },
    });
  });
});

describe('revocation propagation delays (metrics)', () => {
  it('times each revoking change to the first policy_seen of its audience at or past its epoch', () => {
    const b = new TraceBuilder();
    admissionWorld(b); // policy_seen of epoch 1 at t=70 and t=80 come before any revocation.
    b.at(1_000);
    b.policyChanged(DEV, 2, ['a', 'b'], { revoked: ['c'] });
    b.policyChanged(OPS, 2, [], { revoked: ['a'] });
    b.policyChanged(DEV, 3, ['a', 'b', 'c'], { granted: ['c'] }); // grants only: not a revocation
    b.at(1_100);
    b.policySeen(OPS, 1); // an older epoch does not carry the revocation
    b.at(1_300);
    b.policySeen(DEV, 3); // carries epoch 2 as well
    b.at(2_000);
    b.policySeen(OPS, 2);
    finish(b, 'undecided');
    expect(checkTrace(b.build()).metrics).toMatchObject({ revocationDelaysMs: [300, 990], revocationsCensored: 0 });
  });

  it('censors an unseen revocation at the last event of a trace without round_end', () => {
    const b = new TraceBuilder();
    admissionWorld(b);
    b.at(1_000);
    b.policyChanged(DEV, 2, ['a', 'b'], { revoked: ['c'] });
    b.at(4_000);
    b.policySeen(OPS, 5);
    expect(checkTrace(b.build()).metrics).toMatchObject({ revocationDelaysMs: [3_000], revocationsCensored: 1 });
  });

  it('EPOCH_NOT_SET and PUSH_NOT_DELIVERED: the core can only see epochs the policy service set, and by push only if one arrived', () => {
    const b = new TraceBuilder();
    admissionWorld(b); // epoch 1 of both audiences set, and seen by poll at seq 7-8
    const early = b.policySeen(DEV, 2);
    b.policyChanged(DEV, 2, ['a', 'b'], { revoked: ['c'] });
    b.policyPush(DEV, 2, false);
    const lostPush = b.policySeen(DEV, 2, 'push');
    const polled = b.policySeen(DEV, 2, 'poll');
    b.policyChanged(OPS, 2, ['a', 'b'], { granted: ['b'] });
    b.policyPush(OPS, 2);
    const pushed = b.policySeen(OPS, 2, 'push');
    const never = b.policySeen(OPS, 7);
    finish(b);
    expect([early, lostPush, polled, pushed, never]).toEqual([9, 12, 13, 16, 17]);
    const verdict = checkTrace(b.build());
    expect(verdict.violations.filter((v) => v.invariant === 'I7')).toEqual([
      {
        invariant: 'I7',
        round: ROUND,
        seq: 9,
        code: 'EPOCH_NOT_SET',
        evidence: `policy_seen seq 9 (${DEV} epoch 2 by poll): the policy service had not set that epoch for ${DEV} before it`,
      },
      {
        invariant: 'I7',
        round: ROUND,
        seq: 12,
        code: 'PUSH_NOT_DELIVERED',
        evidence: `policy_seen seq 12 (${DEV} epoch 2 by push): no push of that epoch was delivered before it`,
      },
      {
        invariant: 'I7',
        round: ROUND,
        seq: 17,
        code: 'EPOCH_NOT_SET',
        evidence: `policy_seen seq 17 (${OPS} epoch 7 by poll): the policy service had not set that epoch for ${OPS} before it`,
      },
    ]);
    // The 2 policy_seen of admissionWorld and the 5 above; no ADMIT.
    expect(verdict.checked.I7).toBe(7);
  });
});
