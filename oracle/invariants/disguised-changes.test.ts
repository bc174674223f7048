/**
 * I39 on hand-built traces: s0 lists `get_weather` to acme.dev at revision 7 (generation 1 of the
 * key, disclosed to the planner, whose plan p0 pins it), then at t=800 `get_weather#2` (revision
 * 8: `contract_changed` of the class the case says, the claim 1.2.0 -> 1.2.1), published as
 * generation 2 at 850 and disclosed at 900. A call of p0 that runs `get_weather#2` after
 * generation 2 listed it fails when the change is breaking, and holds when it is compatible or
 * when the core had not listed the new contract yet; a drift refusal of a plan pinned to what both
 * the active generation and the server list fails, one of p0 after the change holds, and so does
 * one decided while s0's primary is down and its backup serves `get_weather` under another
 * contract (F37).
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { ID0, TraceBuilder, toolDigest } from '../testing/trace-builder.ts';

const KEY = `${ID0}|acme.dev`;
const SESSION = 'planner-acme.dev';
const PAGE = [{ cursorIn: null, cursorOut: null, pageDigest: 'p' }];

interface Case {
  change?: 'breaking' | 'compatible' | null;
  /** The call of p0 (rebound to `get_weather#2`) is decided after generation 2 (default) or before it. */
  callAfterPublish?: boolean;
  /** Instead of the call: the gate refuses `plan` (p0, pinned before; p1, pinned to generation 2's contract). */
  refusal?: { plan: 'p0' | 'p1'; decision: string };
  /** F37: s0's primary goes down at 950 until `untilMs`, its backup serving `get_weather` under `contract`. */
  outage?: { contract: 'same' | 'other'; untilMs: number };
}

/** The trace of one case; returns the verdict and the seq of the executed call or the refusal. */
function round(c: Case): { verdict: ReturnType<typeof checkTrace>; anchor: number } {
  const b = new TraceBuilder();
  b.serverUp('s0', ID0);
  b.revision('s0', 7, { 'acme.dev': ['get_weather'] });
  b.at(40);
  const first = b.published({ key: KEY, scanId: 'scan-1', sourceRevision: 7, pages: PAGE, tools: ['get_weather'] });
  b.at(100);
  b.disclosure(first);
  b.planMade({ session: SESSION, planId: 'p0', key: KEY, tool: 'get_weather' });
  b.at(800);
  b.revision('s0', 8, { 'acme.dev': ['get_weather#2'] });
  if (c.change !== null)
    b.emit('world', 'contract_changed', {
      server: 's0',
      tool: 'get_weather',
      from: toolDigest('get_weather'),
      to: toolDigest('get_weather#2'),
      change: c.change ?? 'breaking',
      rule: 'new required input',
      claimFrom: '1.2.0',
      claimTo: '1.2.1',
    });
  if (c.callAfterPublish === false) return judged(b, rebound(b));
  b.at(850);
  const second = b.published({ key: KEY, scanId: 'scan-2', sourceRevision: 8, pages: PAGE, tools: ['get_weather#2'] });
  b.at(900);
  b.disclosure(second);
  b.planMade({ session: SESSION, planId: 'p1', key: KEY, tool: 'get_weather#2' });
  if (c.outage !== undefined) {
    b.at(950);
    b.emit('world', 'primary_down', {
      server: 's0',
      tool: 'get_weather',
      contract: c.outage.contract,
      backupIdentity: `${ID0}~backup`,
      backupBuild: '1.0.1-backup',
      untilMs: c.outage.untilMs,
      backup: 'offered',
    });
  }
  b.at(1000);
  if (c.refusal === undefined) return judged(b, rebound(b));
  const tool = c.refusal.plan === 'p0' ? 'get_weather' : 'get_weather#2';
  const anchor = b.gateDecision({
    session: SESSION,
    planId: c.refusal.plan,
    key: KEY,
    tool,
    decision: c.refusal.decision,
  });
  b.roundEnd();
  return { verdict: checkTrace(b.build()), anchor };
}

/** The verdict of the trace so far, with the anchor of its case. */
function judged(b: TraceBuilder, anchor: number): { verdict: ReturnType<typeof checkTrace>; anchor: number } {
  return { verdict: checkTrace(b.build()), anchor };
}

/** p0's call, rebound to `get_weather#2`, admitted, receipted and executed; returns the executed call's seq. */
function rebound(b: TraceBuilder): number {
  b.gateDecision({ session: SESSION, planId: 'p0', key: KEY, tool: 'get_weather#2' });
  b.receipt({ callId: `${SESSION}#p0`, leaseId: 'lease-p0', key: KEY, tool: 'get_weather#2' });
  const executed = b.callExecuted({ audience: 'acme.dev', tool: 'get_weather#2', leaseId: 'lease-p0', revision: 8 });
  b.receiptOutcome('lease-p0');
  b.roundEnd();
  return executed;
}

function i39(c: Case): { found: string[]; checked: number } {
  const { verdict, anchor } = round(c);
  return {
    found: verdict.violations
      .filter((v) => v.invariant === 'I39')
      .map((v) => `${v.seq === anchor ? 'anchor' : v.seq} ${v.code}`),
    checked: verdict.checked.I39,
  };
}

describe('I39: no run executes against a breaking contract it did not pin; none is refused while served its own', () => {
  // Seqs: server_up 0, revision 1, generation 1 2, its disclosure 3, p0 4, revision 2 5, the
  // change 6, generation 2 7, its disclosure 8, p1 9, p0's decision 10, receipt 11, executed 12.
  it("a run's call executed against a breaking contract the active generation listed fails, whatever the claim", () => {
    expect(i39({})).toEqual({ found: ['anchor BREAKING_CONTRACT_EXECUTED'], checked: 1 });
    const { verdict } = round({});
    expect(verdict.violations.find((v) => v.invariant === 'I39')?.evidence).toBe(
      `call seq 12 (s0 acme.dev executed "get_weather", lease "lease-p0") ran descriptor ${toolDigest('get_weather#2').slice(0, 12)}, but its run pinned ${toolDigest('get_weather').slice(0, 12)} (plan "p0" of session "planner-acme.dev", seq 4); the change at seq 6 (new required input) is breaking though the server claimed 1.2.0 -> 1.2.1, and generation 2 (seq 7), active at gate decision seq 10 (session "planner-acme.dev", plan "p0"), already listed ${toolDigest('get_weather#2').slice(0, 12)}`,
    );
  });

  it('holds when the change was compatible, or the core had not listed the new contract yet', () => {
    expect(i39({ change: 'compatible' })).toEqual({ found: [], checked: 1 });
    expect(i39({ callAfterPublish: false })).toEqual({ found: [], checked: 1 });
  });

  it('judges nothing in a round without a contract change', () => {
    expect(i39({ change: null })).toEqual({ found: [], checked: 0 });
  });

  it('a drift refusal of a run pinned to what is listed and served fails; one of a run pinned before the change holds', () => {
    expect(i39({ refusal: { plan: 'p1', decision: 'STALE_CATALOG' } })).toEqual({
      found: ['anchor PINNED_CONTRACT_REFUSED'],
      checked: 1,
    });
    expect(i39({ refusal: { plan: 'p1', decision: 'VERSION_INCOMPATIBLE' } }).found).toEqual([
      'anchor PINNED_CONTRACT_REFUSED',
    ]);
    expect(i39({ refusal: { plan: 'p0', decision: 'STALE_CATALOG' } })).toEqual({ found: [], checked: 1 });
    // Another refusal code is not a judgement of drift: not judged.
    expect(i39({ refusal: { plan: 'p1', decision: 'POLICY_REVOKED' } })).toEqual({ found: [], checked: 0 });
  });

  it("a drift refusal while the primary is down and its backup serves another contract holds (F37: I40's refusal)", () => {
    const refusal = { plan: 'p1', decision: 'VERSION_INCOMPATIBLE' } as const;
    // Decided at 1000, inside the outage [950, 1500): the backup serves get_weather under another contract.
    expect(i39({ refusal, outage: { contract: 'other', untilMs: 1_500 } })).toEqual({ found: [], checked: 1 });
    // A backup serving the same contract could have run it: still an over-refusal.
    expect(i39({ refusal, outage: { contract: 'same', untilMs: 1_500 } }).found).toEqual([
      'anchor PINNED_CONTRACT_REFUSED',
    ]);
    // The primary was up again at 990, before the decision.
    expect(i39({ refusal, outage: { contract: 'other', untilMs: 990 } }).found).toEqual([
      'anchor PINNED_CONTRACT_REFUSED',
    ]);
  });
});
