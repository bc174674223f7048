import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, DEV_SESSION, OPS, admissionWorld, devWalk, finish, opsWalk } from '../testing/scenarios.ts';
import { ID0, TraceBuilder, toolDigest } from '../testing/trace-builder.ts';
import type { Violation } from '../violation.ts';

const ROUND = 17;
const K = `${ID0.slice(0, 12)}|${DEV}`;
const short = (label: string): string => toolDigest(label).slice(0, 12);
const i9 = (seq: number, code: string, evidence: string): Violation => ({
  invariant: 'I9',
  round: ROUND,
  seq,
  code,
  evidence,
});

/**
 * acme.dev's planner is shown generation 1 (a, b, c; seq 25); revision 4 adds d and acme.dev is
 * published again (generation 2, seq 33), which the planner is not shown. Publishes: acme.dev
 * seq 17, acme.ops seq 24.
 */
function newToolRound(): TraceBuilder {
  const b = new TraceBuilder();
  admissionWorld(b);
  const devPublish = devWalk(b).publishSeq ?? -1;
  opsWalk(b);
  b.disclosure(devPublish, { session: DEV_SESSION });
  b.revision('s0', 4, { [DEV]: ['a', 'b', 'c', 'd'], [OPS]: ['a'] });
  expect(devWalk(b, { scanId: 'sc-dev-4', revision: 4, pages: [['a', 'b', 'c', 'd']] }).publishSeq).toBe(33);
  return b;
}

/** F17: the planner guesses d, a real tool it was never shown; the gate admits it and the server runs it. */
const guessD = { session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'd', generation: 1, kind: 'guessed' };

describe('I9: no call to a tool never disclosed to the session', () => {
  it('UNDISCLOSED_TOOL_ADMITTED and UNDISCLOSED_TOOL_EXECUTED: a guessed tool admitted and executed', () => {
    const b = newToolRound();
    const call = b.call(guessD);
    finish(b);
    expect(call).toMatchObject({ plan: 34, decision: 35, receipt: 36, executed: 37 });
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      i9(
        35,
        'UNDISCLOSED_TOOL_ADMITTED',
        `gate decision seq 35 (session "${DEV_SESSION}", plan "p0") admits "d" (${short('d')}) for key ${K}, but no disclosure before it showed that descriptor to the session`,
      ),
      i9(
        37,
        'UNDISCLOSED_TOOL_EXECUTED',
        `call seq 37 (s0 ${DEV} executed "d", lease "lease-p0") for session "${DEV_SESSION}" (receipt seq 36, gate decision seq 35) binds descriptor ${short('d')}, which no disclosure before it showed the session`,
      ),
    ]);
    expect(verdict.checked.I9).toBe(2);
  });

  it('accepts the same call once the session was shown generation 2', () => {
    const b = newToolRound();
    b.disclosure(33, { session: DEV_SESSION });
    b.call({ ...guessD, generation: 2, kind: 'normal' });
    finish(b);
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I9: 2 } });
  });

  it('UNDISCLOSED_TOOL_ADMITTED: a disclosure to another session does not count', () => {
    const b = newToolRound();
    b.disclosure(33, { session: 'planner-other' });
    b.call({ ...guessD, execute: false });
    finish(b);
    expect(checkTrace(b.build()).violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I9', 'UNDISCLOSED_TOOL_ADMITTED', 36],
    ]);
  });

  it('UNDISCLOSED_TOOL_ADMITTED: a disclosure after the ADMIT does not count', () => {
    const b = newToolRound();
    b.call({ ...guessD, execute: false });
    b.disclosure(33, { session: DEV_SESSION });
    finish(b);
    expect(checkTrace(b.build()).violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I9', 'UNDISCLOSED_TOOL_ADMITTED', 35],
    ]);
  });

  it('UNDISCLOSED_TOOL_EXECUTED (and I6): a lease-less call of a tool no session of that audience was shown', () => {
    const b = newToolRound();
    const executed = b.callExecuted({ audience: DEV, tool: 'x', leaseId: null });
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I6',
        round: ROUND,
        seq: executed,
        code: 'CALL_WITHOUT_LEASE',
        evidence: `call seq 34 (s0 ${DEV} executed "x", no lease): the call carried no lease, so no receipt can be joined to it`,
      },
      i9(
        executed,
        'UNDISCLOSED_TOOL_EXECUTED',
        `call seq 34 (s0 ${DEV} executed "x", no lease): it carried no lease, and no disclosure before it showed "x" (${short('x')}) to any session of s0 ${DEV}`,
      ),
    ]);
  });

  it("UNDISCLOSED_TOOL_EXECUTED: a lease-less call is judged per audience, so acme.dev's disclosures do not cover acme.ops", () => {
    const b = newToolRound();
    b.disclosure(24, { session: 'planner-acme.ops' });
    const executed = b.callExecuted({ audience: OPS, tool: 'b', leaseId: null });
    finish(b);
    expect(checkTrace(b.build()).violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I6', 'CALL_WITHOUT_LEASE', executed],
      ['I9', 'UNDISCLOSED_TOOL_EXECUTED', executed],
    ]);
  });

  it('accepts a lease-less call of a tool shown by name to a session of the audience, even with a changed descriptor', () => {
    const b = newToolRound();
    b.callExecuted({ audience: DEV, tool: 'b#2', leaseId: null });
    finish(b);
    expect(checkTrace(b.build()).violations.map((v) => [v.invariant, v.code])).toEqual([['I6', 'CALL_WITHOUT_LEASE']]);
  });

  it('does not judge refusals', () => {
    const b = newToolRound();
    b.call({ ...guessD, decision: 'UNDISCLOSED_TOOL' });
    finish(b);
    expect(checkTrace(b.build())).toMatchObject({
      violations: [],
      checked: { I9: 0 },
      metrics: { decisions: { UNDISCLOSED_TOOL: 1 } },
    });
  });

  it('UNDISCLOSED_TOOL_SENT: a lease-less call of a never-shown name that the server refused (issue 27, a gateless client)', () => {
    const b = newToolRound();
    // No gate decision, no receipt: the only record of the call is the server's refusal.
    const refused = b.callRefusedByServer({ audience: DEV, tool: 'x', leaseId: null, code: 'BAD_LEASE' });
    const unknown = b.callRefusedByServer({ audience: DEV, tool: 'ghost', leaseId: null, code: 'UNKNOWN_TOOL' });
    finish(b);
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      i9(
        refused,
        'UNDISCLOSED_TOOL_SENT',
        `refused call seq 34 (s0 ${DEV} refused "x" BAD_LEASE, no lease): it carried no lease, and no disclosure before it showed "x" to any session of s0 ${DEV}`,
      ),
      i9(
        unknown,
        'UNDISCLOSED_TOOL_SENT',
        `refused call seq 35 (s0 ${DEV} refused "ghost" UNKNOWN_TOOL, no lease): it carried no lease, and no disclosure before it showed "ghost" to any session of s0 ${DEV}`,
      ),
    ]);
    expect(verdict.checked.I9).toBe(2);
  });

  it('accepts a refused lease-less call of a name shown to a session of the audience', () => {
    const b = newToolRound();
    b.callRefusedByServer({ audience: DEV, tool: 'b', leaseId: null, code: 'BAD_LEASE' });
    finish(b);
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I9: 1 } });
  });

  it('UNDISCLOSED_TOOL_SENT: a refused leased call is judged against its session through its receipt', () => {
    const b = newToolRound();
    // The gate admits the guessed d (reported at its ADMIT); the server refuses its pin.
    const call = b.call({ ...guessD, execute: false });
    const refused = b.callRefusedByServer({ audience: DEV, tool: 'd', leaseId: 'lease-p0', code: 'STALE_PIN' });
    finish(b);
    expect(call).toMatchObject({ decision: 35, receipt: 36 });
    expect(checkTrace(b.build()).violations.filter((v) => v.invariant === 'I9')).toEqual([
      i9(
        35,
        'UNDISCLOSED_TOOL_ADMITTED',
        `gate decision seq 35 (session "${DEV_SESSION}", plan "p0") admits "d" (${short('d')}) for key ${K}, but no disclosure before it showed that descriptor to the session`,
      ),
      i9(
        refused,
        'UNDISCLOSED_TOOL_SENT',
        `refused call seq ${refused} (s0 ${DEV} refused "d" STALE_PIN, lease "lease-p0") for session "${DEV_SESSION}" (receipt seq 36, gate decision seq 35) binds descriptor ${short('d')}, which no disclosure before it showed the session`,
      ),
    ]);
  });

  it('UNDISCLOSED_TOOL_SENT: a core that claims it showed a name the server never served (its publish names a made-up tool) gets no credit for it', () => {
    const b = newToolRound();
    // The core publishes, and shows the session, a generation with a tool "x" of its own making:
    // no revision of s0 has a descriptor with that digest. Names were read from the core's publish
    // until issue 27, so this lease-less call of "x" passed I9; they now come from the world's views.
    const fabricated = b.published({
      key: DEV_KEY,
      scanId: 'sc-made-up',
      sourceRevision: 4,
      pages: [],
      tools: ['a', 'x'],
    });
    b.disclosure(fabricated, { session: DEV_SESSION });
    const refused = b.callRefusedByServer({ audience: DEV, tool: 'x', leaseId: null, code: 'UNKNOWN_TOOL' });
    finish(b);
    expect(checkTrace(b.build()).violations.filter((v) => v.invariant === 'I9')).toEqual([
      i9(
        refused,
        'UNDISCLOSED_TOOL_SENT',
        `refused call seq ${refused} (s0 ${DEV} refused "x" UNKNOWN_TOOL, no lease): it carried no lease, and no disclosure before it showed "x" to any session of s0 ${DEV}`,
      ),
    ]);
  });
});
