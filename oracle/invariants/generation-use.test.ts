import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import {
  DEV,
  DEV_KEY,
  DEV_SESSION,
  VIEWS_R3,
  admissionWorld,
  devWalk,
  finish,
  opsWalk,
  standardWorld,
} from '../testing/scenarios.ts';
import { ID0, TraceBuilder } from '../testing/trace-builder.ts';
import { NO_CALL_METRICS, checkedCounts } from '../testing/verdicts.ts';

const ROUND = 17;
const K = `${ID0.slice(0, 12)}|${DEV}`;
/** Generations live 1 s, so the acme.dev publish at t=120 (seq 12) expires at t=1120. */
const SHORT_TTL = { bounds: { generationTtlMs: 1_000 } };
const DEV_EXPIRES_AT = 1_120;

describe('I11: no use of an expired generation', () => {
  it.each([
    ['exactly at expiresAt is still in time', 0, false],
    ['1 ms after expiresAt is EXPIRED_GENERATION_SERVED', 1, true],
  ])('a disclosure %s', (_name, lateMs, violated) => {
    const b = new TraceBuilder(SHORT_TTL);
    standardWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    opsWalk(b);
    b.at(DEV_EXPIRES_AT + lateMs);
    const disclosure = b.disclosure(devPublish);
    finish(b);
    expect([devPublish, b.publishAt(devPublish).expiresAt, disclosure]).toEqual([12, DEV_EXPIRES_AT, 20]);
    const violations = violated
      ? [
          {
            invariant: 'I11',
            round: ROUND,
            seq: 20,
            code: 'EXPIRED_GENERATION_SERVED',
            evidence: `disclosure seq 20 (session "planner-acme.dev", s0 acme.dev) shows generation 1 of key ${K} (publish seq 12) at t=1121, past its expiresAt 1120`,
          },
        ]
      : [];
    expect(checkTrace(b.build())).toEqual({
      round: ROUND,
      violations,
      checked: checkedCounts({ I1: 2, I2: 2, I4: 1, I5: 0, I10: 2, I11: 1, I12: 2, I13: 9 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it.each([
    ["exactly at the source's expiresAt is in time", 0, false],
    ["1 ms after the source's expiresAt is EXPIRED_ROLLBACK_SOURCE", 1, true],
  ])('a rollback %s', (_name, lateMs, violated) => {
    const b = new TraceBuilder(SHORT_TTL);
    standardWorld(b);
    devWalk(b);
    opsWalk(b);
    b.revision('s0', 4, VIEWS_R3);
    devWalk(b, { scanId: 'sc-dev-4', revision: 4 });
    b.at(DEV_EXPIRES_AT + lateMs);
    const rollback = b.rollback(DEV_KEY, 1);
    finish(b, 'undecided');
    expect(rollback).toBe(30);
    const violations = violated
      ? [
          {
            invariant: 'I11',
            round: ROUND,
            seq: 30,
            code: 'EXPIRED_ROLLBACK_SOURCE',
            evidence: `publish seq 30 of key ${K} rolls back to generation 1 (publish seq 12) at t=1121, past its expiresAt 1120`,
          },
        ]
      : [];
    expect(checkTrace(b.build()).violations).toEqual(violations);
  });
});

describe('I11: nothing served while DISABLED', () => {
  it('SERVED_WHILE_DISABLED after server_disabled; the re-enabling publish and other keys are fine', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    const opsPublish = opsWalk(b).publishSeq ?? -1;
    const disabled = b.serverDisabled(DEV_KEY);
    const whileDisabled = b.disclosure(devPublish);
    const otherKey = b.disclosure(opsPublish);
    const reEnabled = devWalk(b, { scanId: 'sc-dev-2' }).publishSeq ?? -1;
    const afterPublish = b.disclosure(reEnabled);
    finish(b);
    // seq 20 server_disabled, 21-22 disclosures, 23-31 the re-enabling walk, 32 disclosure.
    expect([disabled, whileDisabled, otherKey, reEnabled, afterPublish]).toEqual([20, 21, 22, 31, 32]);
    expect(checkTrace(b.build())).toEqual({
      round: ROUND,
      violations: [
        {
          invariant: 'I11',
          round: ROUND,
          seq: 21,
          code: 'SERVED_WHILE_DISABLED',
          evidence: `disclosure seq 21 (session "planner-acme.dev", s0 acme.dev) shows generation 1 of key ${K} (publish seq 12) while the key was DISABLED since seq 20 (reason "NO_ROLLBACK_SOURCE") with no publish after it`,
        },
      ],
      checked: checkedCounts({ I1: 3, I2: 3, I4: 3, I5: 0, I10: 3, I11: 3, I12: 2, I13: 14 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('SERVED_WHILE_DISABLED: a new scan does not end DISABLED, only a publish does', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    opsWalk(b);
    b.serverDisabled(DEV_KEY);
    devWalk(b, { scanId: 'sc-dev-2', publish: false, end: { state: 'INCOMPLETE', reason: 'LIST_CHANGED' } });
    const disclosure = b.disclosure(devPublish);
    finish(b, 'undecided');
    expect(checkTrace(b.build()).violations.map((v) => [v.seq, v.invariant, v.code])).toEqual([
      [disclosure, 'I11', 'SERVED_WHILE_DISABLED'],
    ]);
  });

  it('reports both codes for a disclosure that is late and DISABLED', () => {
    const b = new TraceBuilder(SHORT_TTL);
    standardWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    opsWalk(b);
    b.at(DEV_EXPIRES_AT + 1);
    b.serverDisabled(DEV_KEY, 'CATALOG_EXPIRED');
    const disclosure = b.disclosure(devPublish);
    finish(b, 'undecided');
    expect(checkTrace(b.build()).violations.map((v) => [v.seq, v.invariant, v.code])).toEqual([
      [disclosure, 'I11', 'EXPIRED_GENERATION_SERVED'],
      [disclosure, 'I11', 'SERVED_WHILE_DISABLED'],
    ]);
  });
});

describe('I11: no admission against an expired or DISABLED generation', () => {
  /**
   * `admissionWorld` with generations living 1 s: acme.dev is published at t=170 (seq 17, expires
   * at t=1170) and shown to the planner (seq 25); `before` runs, a plan for a is made, and the gate
   * admits it at `admitAtMs`.
   */
  function admitRound(
    admitAtMs: number,
    before: (b: TraceBuilder) => void = () => undefined,
  ): { builder: TraceBuilder; admit: number } {
    const b = new TraceBuilder(SHORT_TTL);
    admissionWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    opsWalk(b);
    b.disclosure(devPublish, { session: DEV_SESSION });
    before(b);
    b.planMade({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'a' });
    b.at(Math.max(b.now(), admitAtMs));
    const admit = b.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'a' });
    return { builder: b, admit };
  }

  it("EXPIRED_GENERATION_SERVED: an ADMIT 1 ms after the active generation's expiresAt", () => {
    const { builder, admit } = admitRound(1_171);
    finish(builder);
    expect([builder.publishAt(17).expiresAt, admit]).toEqual([1_170, 27]);
    const verdict = checkTrace(builder.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I11',
        round: ROUND,
        seq: 27,
        code: 'EXPIRED_GENERATION_SERVED',
        evidence: `gate decision seq 27 (session "${DEV_SESSION}", plan "p0") admits "a" against generation 1 of key ${K} (publish seq 17) at t=1171, past its expiresAt 1170`,
      },
    ]);
    expect(verdict.checked.I11).toBe(2);
  });

  it('accepts an ADMIT exactly at expiresAt', () => {
    const { builder } = admitRound(1_170);
    finish(builder);
    expect(checkTrace(builder.build())).toMatchObject({ violations: [], checked: { I11: 2 } });
  });

  it('SERVED_WHILE_DISABLED: an ADMIT while the key is DISABLED', () => {
    const { builder, admit } = admitRound(0, (b) => b.serverDisabled(DEV_KEY));
    finish(builder, 'undecided');
    expect(admit).toBe(28);
    expect(checkTrace(builder.build()).violations).toEqual([
      {
        invariant: 'I11',
        round: ROUND,
        seq: 28,
        code: 'SERVED_WHILE_DISABLED',
        evidence: `gate decision seq 28 (session "${DEV_SESSION}", plan "p0") admits "a" against generation 1 of key ${K} (publish seq 17) while the key was DISABLED since seq 26 (reason "NO_ROLLBACK_SOURCE") with no publish after it`,
      },
    ]);
  });

  it('does not judge refusals, which are what a correct gate answers there', () => {
    const b = new TraceBuilder(SHORT_TTL);
    admissionWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    opsWalk(b);
    b.disclosure(devPublish, { session: DEV_SESSION });
    b.at(2_000);
    b.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'a', decision: 'CATALOG_EXPIRED' });
    finish(b);
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I11: 1 } });
  });
});
