import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, DEV_SESSION, OPS, admissionWorld, devWalk, finish, opsWalk } from '../testing/scenarios.ts';
import { ID0, ID1, TraceBuilder, toolDigest } from '../testing/trace-builder.ts';

const ROUND = 17;
const K = `${ID0.slice(0, 12)}|${DEV}`;
const short = (label: string): string => toolDigest(label).slice(0, 12);

/**
 * acme.dev published at revision 3 (generation 1, seq 17) and shown to the planner (seq 25); then
 * revision 4 gives acme.dev `devR4` and it is published again (generation 2, seq 33).
 */
function changedRound(devR4: readonly string[]): TraceBuilder {
  const b = new TraceBuilder();
  admissionWorld(b);
  const devPublish = devWalk(b).publishSeq ?? -1;
  opsWalk(b);
  b.disclosure(devPublish, { session: DEV_SESSION });
  b.revision('s0', 4, { [DEV]: devR4, [OPS]: ['a'] });
  expect(devWalk(b, { scanId: 'sc-dev-4', revision: 4, pages: [devR4] }).publishSeq).toBe(33);
  return b;
}

/** A gate that trusts the plan's generation: it checks (and reports) generation 1, not the active one. */
function admitFromGeneration1(b: TraceBuilder, tool: string): number {
  b.planMade({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool, generation: 1, kind: 'stale' });
  return b.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool, generation: 1 });
}

describe("I8: the plan digest is the active generation's at each gate pass", () => {
  it("STALE_PLAN_ADMITTED: a gate that trusts the plan's generation admits a changed tool", () => {
    const b = changedRound(['a', 'b#2', 'c']);
    const admit = admitFromGeneration1(b, 'b');
    finish(b);
    expect(admit).toBe(35);
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I8',
        round: ROUND,
        seq: 35,
        code: 'STALE_PLAN_ADMITTED',
        evidence: `gate decision seq 35 (session "${DEV_SESSION}", plan "p0") admits "b" with plan digest ${short('b')}, but generation 2 (publish seq 33 of key ${K}), active at that moment, has ${short('b#2')} (the gate says it checked generation 1 with ${short('b')})`,
      },
    ]);
    expect(verdict.checked.I8).toBe(1);
  });

  it('accepts a plan made from an older generation when the active one has the same descriptor', () => {
    const b = changedRound(['a', 'b', 'c', 'd']);
    b.planMade({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b', generation: 1, kind: 'stale' });
    b.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b' });
    finish(b);
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I8: 1 } });
  });

  it('TOOL_NOT_IN_GENERATION: the tool is gone from the active generation', () => {
    const b = changedRound(['a', 'c']);
    const admit = admitFromGeneration1(b, 'b');
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I8',
        round: ROUND,
        seq: admit,
        code: 'TOOL_NOT_IN_GENERATION',
        evidence: `gate decision seq ${admit} (session "${DEV_SESSION}", plan "p0") admits "b" with plan digest ${short('b')}, but generation 2 (publish seq 33 of key ${K}), active at that moment, has no tool of that name (the gate says it checked generation 1 with ${short('b')})`,
      },
    ]);
  });

  it('STALE_PLAN_ADMITTED: judged against a rollback like any publish', () => {
    const b = changedRound(['a', 'b#2', 'c']);
    b.disclosure(33, { session: DEV_SESSION });
    const rollback = b.rollback(DEV_KEY, 1);
    b.planMade({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b#2', generation: 2 });
    const admit = b.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'b#2', generation: 2 });
    finish(b, 'undecided');
    expect([rollback, admit]).toEqual([35, 37]);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I8',
        round: ROUND,
        seq: 37,
        code: 'STALE_PLAN_ADMITTED',
        evidence: `gate decision seq 37 (session "${DEV_SESSION}", plan "p0") admits "b" with plan digest ${short('b#2')}, but generation 3 (publish seq 35 of key ${K}), active at that moment, has ${short('b')} (the gate says it checked generation 2 with ${short('b#2')})`,
      },
      // The gate says it checked generation 2, the one the rollback at 35 rolled away: I28 too.
      {
        invariant: 'I28',
        round: ROUND,
        seq: 37,
        code: 'LEASE_FOR_ROLLED_AWAY',
        evidence: `ADMIT of call ${DEV_SESSION}#p0 binds generation 2 of key ${K}, which the rollback at seq 35 rolled away`,
      },
    ]);
  });

  it('NO_ACTIVE_GENERATION: an ADMIT on a key nothing was published for', () => {
    const b = new TraceBuilder();
    admissionWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    opsWalk(b);
    b.disclosure(devPublish, { session: DEV_SESSION });
    b.planMade({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'a' });
    const rotatedKey = `${ID1}|${DEV}`;
    const admit = b.gateDecision({
      session: DEV_SESSION,
      planId: 'p0',
      key: rotatedKey,
      tool: 'a',
      generation: null,
      descriptorDigest: null,
    });
    finish(b, 'undecided');
    expect(checkTrace(b.build())).toMatchObject({
      violations: [
        {
          invariant: 'I8',
          round: ROUND,
          seq: admit,
          code: 'NO_ACTIVE_GENERATION',
          evidence: `gate decision seq ${admit} (session "${DEV_SESSION}", plan "p0") admits "a" with plan digest ${short('a')}, but nothing of key ${ID1.slice(0, 12)}|${DEV} was published before it (the gate names no generation)`,
        },
      ],
      checked: { I8: 1, I11: 1 },
    });
  });

  it('does not judge refusals', () => {
    const b = changedRound(['a', 'b#2', 'c']);
    b.call({
      session: DEV_SESSION,
      planId: 'p0',
      key: DEV_KEY,
      tool: 'b',
      generation: 1,
      kind: 'stale',
      decision: 'STALE_CATALOG',
    });
    finish(b);
    expect(checkTrace(b.build())).toMatchObject({
      violations: [],
      checked: { I8: 0 },
      metrics: { decisions: { STALE_CATALOG: 1 } },
    });
  });
});
