import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, VIEWS_R3, devWalk, finish, opsWalk, standardWorld } from '../testing/scenarios.ts';
import { ID0, TraceBuilder } from '../testing/trace-builder.ts';

const ROUND = 17;
const K = `${ID0.slice(0, 12)}|${DEV}`;
const ROLLBACK_IDS = new Set(['I21', 'I28', 'I29']);

/**
 * acme.dev published at revision 3 (generation 1, scan sc-dev) and at revision 4 (generation 2,
 * scan sc-dev-4); `between` runs after generation 1's scan, before generation 2's.
 */
function twoGenerations(options: { ttlMs?: number; between?: (b: TraceBuilder) => void } = {}): TraceBuilder {
  const b = new TraceBuilder(options.ttlMs === undefined ? {} : { bounds: { generationTtlMs: options.ttlMs } });
  standardWorld(b);
  devWalk(b);
  opsWalk(b);
  options.between?.(b);
  b.revision('s0', 4, VIEWS_R3);
  devWalk(b, { scanId: 'sc-dev-4', revision: 4 });
  return b;
}

function trigger(b: TraceBuilder, kind = 'missing_tool_rate', delivery = 'delivered', key = DEV_KEY): number {
  return b.emit('world', 'rollback_triggered', { server: 's0', audience: DEV, key, kind, delivery });
}

function rollbackViolations(b: TraceBuilder) {
  const verdict = checkTrace(b.build());
  return {
    violations: verdict.violations.filter((violation) => ROLLBACK_IDS.has(violation.invariant)),
    checked: [verdict.checked.I21, verdict.checked.I28, verdict.checked.I29],
  };
}

describe('I21: a rollback goes only to an earlier generation, unexpired and authorized at the trigger', () => {
  it('a rollback to generation 1, discovered under the policy still holding, is right; the whole round is clean', () => {
    const b = twoGenerations();
    trigger(b);
    b.rollback(DEV_KEY, 1);
    finish(b, 'undecided');
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([]);
    expect([verdict.checked.I21, verdict.checked.I28, verdict.checked.I29]).toEqual([1, 1, 1]);
  });

  it("ROLLBACK_TO_UNAUTHORIZED when the audience's policy moved after generation 1's scan started; a DISABLE instead is right", () => {
    const build = (answer: (b: TraceBuilder) => void) => {
      const b = twoGenerations({ between: (x) => x.policyChanged(DEV, 2, ['a'], { revoked: ['b'] }) });
      const triggerSeq = trigger(b, 'privilege_escalation');
      answer(b);
      finish(b, 'undecided');
      return { b, triggerSeq };
    };
    const wrong = build((b) => b.rollback(DEV_KEY, 1));
    const rollbackSeq = wrong.triggerSeq + 1;
    // sc-dev's first page was served at seq 5 (seq 4 is its scan_started); the policy change is the first event after both walks.
    const changeSeq = wrong.b.build().events.find((event) => event.type === 'policy_changed')?.seq;
    expect(changeSeq).toBe(20);
    expect(rollbackViolations(wrong.b)).toEqual({
      violations: [
        {
          invariant: 'I21',
          round: ROUND,
          seq: rollbackSeq,
          code: 'ROLLBACK_TO_UNAUTHORIZED',
          evidence: `publish seq ${rollbackSeq} of key ${K} answers the privilege_escalation trigger at seq ${wrong.triggerSeq} by rolling back to generation 1, discovered by scan sc-dev (from seq 5) before the policy of acme.dev moved to epoch 2 at seq ${changeSeq}: it cannot prove the authorization holding at the trigger`,
        },
      ],
      checked: [1, 1, 1],
    });
    expect(rollbackViolations(build((b) => b.serverDisabled(DEV_KEY, 'privilege_escalation')).b)).toEqual({
      violations: [],
      checked: [0, 0, 1],
    });
  });

  it("ROLLBACK_TO_EXPIRED 1 ms after generation 1's expiresAt (I11 reports the same rollback as EXPIRED_ROLLBACK_SOURCE)", () => {
    // Generations live 1 s: generation 1 was published at t=120 (seq 12) and expires at t=1120; the
    // trigger comes at t=1121 and the rollback one builder step (10 ms) later, at t=1131.
    const b = twoGenerations({ ttlMs: 1_000 });
    b.at(1_121);
    const triggerSeq = trigger(b);
    const rollbackSeq = b.rollback(DEV_KEY, 1);
    finish(b, 'undecided');
    expect(rollbackViolations(b)).toEqual({
      violations: [
        {
          invariant: 'I21',
          round: ROUND,
          seq: rollbackSeq,
          code: 'ROLLBACK_TO_EXPIRED',
          evidence: `publish seq ${rollbackSeq} of key ${K} answers the missing_tool_rate trigger at seq ${triggerSeq} by rolling back to generation 1 at t=1131, past its expiresAt 1120 (publish seq 12)`,
        },
      ],
      checked: [1, 1, 1],
    });
    expect(checkTrace(b.build()).violations.map((violation) => violation.code)).toContain('EXPIRED_ROLLBACK_SOURCE');
  });

  it('ROLLBACK_NOT_EARLIER for a "rollback" to the generation active at the trigger', () => {
    const b = twoGenerations();
    const triggerSeq = trigger(b);
    const rollbackSeq = b.rollback(DEV_KEY, 2);
    finish(b, 'undecided');
    expect(rollbackViolations(b).violations).toEqual([
      {
        invariant: 'I21',
        round: ROUND,
        seq: rollbackSeq,
        code: 'ROLLBACK_NOT_EARLIER',
        evidence: `publish seq ${rollbackSeq} of key ${K} answers the missing_tool_rate trigger at seq ${triggerSeq} by rolling back to generation 2, not earlier than generation 2 active at the trigger`,
      },
    ]);
  });
});

describe('I28: nothing is leased for the rolled-away generation', () => {
  it('LEASE_FOR_ROLLED_AWAY for a receipt binding generation 2 after the rollback to 1 (generation 3); one binding 3 is fine', () => {
    const b = twoGenerations();
    trigger(b);
    const rollbackSeq = b.rollback(DEV_KEY, 1);
    b.receipt({ callId: 'c-ok', leaseId: 'lease-ok', key: DEV_KEY, tool: 'a' });
    const bad = b.receipt({
      callId: 'c-bad',
      leaseId: 'lease-bad',
      key: DEV_KEY,
      tool: 'a',
      binding: { generation: 2 },
    });
    finish(b, 'undecided');
    expect(rollbackViolations(b).violations).toEqual([
      {
        invariant: 'I28',
        round: ROUND,
        seq: bad,
        code: 'LEASE_FOR_ROLLED_AWAY',
        evidence: `receipt of lease lease-bad binds generation 2 of key ${K}, which the rollback at seq ${rollbackSeq} rolled away`,
      },
    ]);
  });
});

describe('I29: a delivered trigger is answered; a DISABLED key sends nothing', () => {
  it('TRIGGER_IGNORED when a delivered trigger gets neither a rollback nor a DISABLE', () => {
    const b = twoGenerations();
    const triggerSeq = trigger(b, 'privilege_escalation');
    finish(b, 'undecided');
    expect(rollbackViolations(b)).toEqual({
      violations: [
        {
          invariant: 'I29',
          round: ROUND,
          seq: triggerSeq,
          code: 'TRIGGER_IGNORED',
          evidence: `the privilege_escalation trigger for key ${K} (generation 2 active) was delivered, and the core neither rolled back nor DISABLED the key`,
        },
      ],
      checked: [0, 0, 1],
    });
  });

  it('two triggers before either answer: the two rollbacks answer them in order (seed 1 round 1201); one rollback leaves the second ignored', () => {
    const answered = twoGenerations();
    trigger(answered, 'privilege_escalation');
    trigger(answered, 'privilege_escalation');
    answered.rollback(DEV_KEY, 1);
    answered.rollback(DEV_KEY, 1);
    finish(answered, 'undecided');
    expect(rollbackViolations(answered)).toEqual({ violations: [], checked: [2, 2, 2] });

    const once = twoGenerations();
    trigger(once, 'privilege_escalation');
    const second = trigger(once, 'privilege_escalation');
    once.rollback(DEV_KEY, 1);
    finish(once, 'undecided');
    expect(rollbackViolations(once).violations).toEqual([
      {
        invariant: 'I29',
        round: ROUND,
        seq: second,
        code: 'TRIGGER_IGNORED',
        evidence: `the privilege_escalation trigger for key ${K} (generation 2 active) was delivered, and the core neither rolled back nor DISABLED the key`,
      },
    ]);
  });

  it.each([['unsupported'], ['host_down']])('a trigger the core could not hear (%s) asks nothing', (delivery) => {
    const b = twoGenerations();
    trigger(b, 'missing_tool_rate', delivery);
    finish(b, 'undecided');
    expect(rollbackViolations(b)).toEqual({ violations: [], checked: [0, 0, 0] });
  });

  it("a trigger before the key's first publish, or for a key already DISABLED, asks nothing", () => {
    const b = new TraceBuilder();
    standardWorld(b);
    trigger(b);
    devWalk(b);
    b.serverDisabled(DEV_KEY, 'operator');
    trigger(b);
    finish(b, 'undecided');
    expect(rollbackViolations(b)).toEqual({ violations: [], checked: [0, 0, 0] });
  });

  it("CALL_WHILE_DISABLED from the world's side: a call the link saw leave for the key after its DISABLE, with no receipt; one after the next publish is fine", () => {
    const b = twoGenerations();
    const triggerSeq = trigger(b);
    const disabledSeq = b.serverDisabled(DEV_KEY, 'missing_tool_rate');
    const sent = b.callSent({ audience: DEV, tool: 'a' });
    finish(b, 'undecided');
    expect(rollbackViolations(b).violations).toEqual([
      {
        invariant: 'I29',
        round: ROUND,
        seq: sent,
        code: 'CALL_WHILE_DISABLED',
        evidence: `a tools/call of "a" left for s0/${DEV} (key ${K}) at seq ${sent}, after the key was DISABLED at seq ${disabledSeq} (trigger seq ${triggerSeq}) and before any new publish`,
      },
    ]);

    const after = twoGenerations();
    trigger(after);
    after.serverDisabled(DEV_KEY, 'missing_tool_rate');
    devWalk(after, { scanId: 'sc-dev-5', revision: 4 });
    after.callSent({ audience: DEV, tool: 'a' });
    finish(after, 'undecided');
    expect(
      rollbackViolations(after).violations.filter((violation) => violation.code === 'CALL_WHILE_DISABLED'),
    ).toEqual([]);
  });

  it("CALL_WHILE_DISABLED for a receipt of the key after its trigger's DISABLE and before a new publish", () => {
    const b = twoGenerations();
    const triggerSeq = trigger(b);
    const disabledSeq = b.serverDisabled(DEV_KEY, 'missing_tool_rate');
    const leaked = b.receipt({ callId: 'c-1', leaseId: 'lease-1', key: DEV_KEY, tool: 'a' });
    finish(b, 'undecided');
    expect(rollbackViolations(b).violations).toEqual([
      {
        invariant: 'I29',
        round: ROUND,
        seq: leaked,
        code: 'CALL_WHILE_DISABLED',
        evidence: `receipt of lease lease-1 for key ${K} after the key was DISABLED at seq ${disabledSeq} (trigger seq ${triggerSeq}) and before any new publish`,
      },
    ]);
  });
});
