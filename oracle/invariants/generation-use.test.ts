import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, VIEWS_R3, devWalk, finish, opsWalk, standardWorld } from '../testing/scenarios.ts';
import { ID0, TraceBuilder } from '../testing/trace-builder.ts';

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
      ? [{ invariant: 'I11', round: ROUND, seq: 20, code: 'EXPIRED_GENERATION_SERVED',
          evidence: `disclosure seq 20 (session "planner-acme.dev", s0 acme.dev) shows generation 1 of key ${K} (publish seq 12) at t=1121, past its expiresAt 1120` }]
      : [];
    expect(checkTrace(b.build())).toEqual({
      round: ROUND, violations, checked: { I1: 2, I2: 2, I4: 1, I5: 0, I10: 2, I11: 1, I12: 2, I13: 4 },
    });
  });

  it.each([
    ['exactly at the source\'s expiresAt is in time', 0, false],
    ['1 ms after the source\'s expiresAt is EXPIRED_ROLLBACK_SOURCE', 1, true],
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
      ? [{ invariant: 'I11', round: ROUND, seq: 30, code: 'EXPIRED_ROLLBACK_SOURCE',
          evidence: `publish seq 30 of key ${K} rolls back to generation 1 (publish seq 12) at t=1121, past its expiresAt 1120` }]
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
        { invariant: 'I11', round: ROUND, seq: 21, code: 'SERVED_WHILE_DISABLED',
          evidence: `disclosure seq 21 (session "planner-acme.dev", s0 acme.dev) shows generation 1 of key ${K} (publish seq 12) while the key was DISABLED since seq 20 (reason "NO_ROLLBACK_SOURCE") with no publish after it` },
      ],
      checked: { I1: 3, I2: 3, I4: 3, I5: 0, I10: 3, I11: 3, I12: 2, I13: 6 },
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
      [disclosure, 'I11', 'EXPIRED_GENERATION_SERVED'], [disclosure, 'I11', 'SERVED_WHILE_DISABLED'],
    ]);
  });
});
