import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import {
  DEV,
  DEV_KEY,
  DEV_SESSION,
  OPS,
  OPS_KEY,
  admissionWorld,
  devWalk,
  finish,
  openSessions,
  opsWalk,
  standardWorld,
} from '../testing/scenarios.ts';
import { ID0, ID1, ID_S1, TraceBuilder, toolDigest } from '../testing/trace-builder.ts';
import { NO_CALL_METRICS, checkedCounts } from '../testing/verdicts.ts';

const ROUND = 17;
/** An audience present in revision views that no client of the core holds. */
const INTERNAL = 'internal.ops';
/** An audience a client connects as although no revision gives it a view. */
const GUEST = 'acme.guest';
const short = (name: string): string => toolDigest(name).slice(0, 12);

/** s0 moves to revision 4 (acme.dev gains d) after both audiences were published at 3. */
function staleRound(): { builder: TraceBuilder; devPublish: number } {
  const builder = new TraceBuilder();
  standardWorld(builder);
  const { publishSeq } = devWalk(builder);
  opsWalk(builder);
  builder.revision('s0', 4, { [DEV]: ['a', 'b', 'c', 'd'], [OPS]: ['a'] });
  return { builder, devPublish: publishSeq ?? -1 };
}

describe('I12: liveness in a settled round', () => {
  it('NOT_CONVERGED: the core never caught up with the final revision', () => {
    const { builder, devPublish } = staleRound();
    finish(builder);
    const roundEnd = builder.build().events.length - 1;
    expect(checkTrace(builder.build()).violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: roundEnd,
        code: 'NOT_CONVERGED',
        evidence: `server s0 key ${ID0.slice(0, 12)}|${DEV} at revision 4: the latest publish (seq ${devPublish}) is missing [${short('d')}] and has extra []`,
      },
    ]);
  });

  it('passes once the latest publish equals the final view', () => {
    const { builder } = staleRound();
    builder.walk({
      audience: DEV,
      scanId: 'sc-dev-4',
      revision: 4,
      pages: [
        ['a', 'b'],
        ['c', 'd'],
      ],
    });
    finish(builder);
    expect(checkTrace(builder.build()).violations).toEqual([]);
  });

  it('is not checked in an undecided round', () => {
    const { builder } = staleRound();
    finish(builder, 'undecided');
    const verdict = checkTrace(builder.build());
    expect(verdict.violations).toEqual([]);
    expect(verdict.checked.I12).toBe(0);
  });

  it('is not checked when the trace has no round_end', () => {
    const { builder } = staleRound();
    expect(checkTrace(builder.build()).checked.I12).toBe(0);
  });

  it('NOT_PUBLISHED: an audience that never got a publish, including an empty view', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.revision('s0', 3, { [DEV]: ['a', 'b', 'c'], 'acme.guest': [] });
    openSessions(b, [DEV, 'acme.guest']);
    devWalk(b);
    finish(b);
    const roundEnd = b.build().events.length - 1;
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: roundEnd,
        code: 'NOT_PUBLISHED',
        evidence: `server s0 key ${ID0.slice(0, 12)}|acme.guest at revision 3: nothing was published for the key by the end of the round`,
      },
    ]);
  });

  it('accepts an empty final view published with zero tools', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.revision('s0', 3, { [DEV]: ['a', 'b', 'c'], 'acme.guest': [] });
    openSessions(b, [DEV, 'acme.guest']);
    devWalk(b);
    b.walk({ audience: 'acme.guest', scanId: 'sc-guest', revision: 3, pages: [[]] });
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([]);
  });

  it('skips a server whose latest boot has a disqualifying trait', () => {
    const withS1 = new TraceBuilder();
    standardWorld(withS1);
    withS1.serverUp('s1', ID_S1, { traits: ['F5:cycle'] });
    withS1.revision('s1', 1, { [DEV]: ['x'] });
    withS1.sessionOpened('s1', DEV, ID_S1);
    devWalk(withS1);
    opsWalk(withS1);
    finish(withS1);
    const verdict = checkTrace(withS1.build());
    expect(verdict.violations).toEqual([]);
    expect(verdict.checked.I12).toBe(2);
  });

  it.each(['F6', 'F13:remote-ref', 'EQUIV'])('treats trait %s as disqualifying', (trait) => {
    const b = new TraceBuilder();
    standardWorld(b, [trait]);
    finish(b);
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I12: 0 } });
  });

  it('does not disqualify a server for a non-disqualifying trait such as F12', () => {
    const b = new TraceBuilder();
    standardWorld(b, ['F12', 'F14']);
    finish(b);
    expect(checkTrace(b.build()).violations.map((v) => v.code)).toEqual(['NOT_PUBLISHED', 'NOT_PUBLISHED']);
  });

  it('demands publishes under the latest identity after a rotation', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    opsWalk(b);
    b.serverUp('s0', ID1, { boot: 1 });
    devWalk(b, { identity: ID1, scanId: 'sc-dev-rotated' });
    finish(b);
    const roundEnd = b.build().events.length - 1;
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: roundEnd,
        code: 'NOT_PUBLISHED',
        evidence: `server s0 key ${ID1.slice(0, 12)}|${OPS} at revision 3: nothing was published for the key by the end of the round`,
      },
    ]);
  });

  it('owes nothing to an audience in the views that no client connected as', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.revision('s0', 3, { [DEV]: ['a', 'b', 'c'], [INTERNAL]: ['z'] });
    openSessions(b, [DEV]);
    devWalk(b);
    finish(b);
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([]);
    expect(verdict.checked.I12).toBe(1);
  });

  it('NOT_PUBLISHED: a core that never connected still owes the keys the planner asked it about (else doing nothing would pass)', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.revision('s0', 3, { [DEV]: ['a', 'b', 'c'], [INTERNAL]: ['z'] });
    // No session_opened: the core never connected. The world's planner asked about acme.dev twice.
    b.disclosureRefused('s0', DEV, 'INCOMPLETE_DISCOVERY');
    b.disclosureRefused('s0', DEV, 'INCOMPLETE_DISCOVERY');
    finish(b);
    // seq 0 server_up, 1 revision, 2-3 disclosure_refused, 4 quiet, 5 round_end; INTERNAL was never offered.
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: 5,
        code: 'NOT_PUBLISHED',
        evidence: `server s0 key ${ID0.slice(0, 12)}|${DEV} at revision 3: nothing was published for the key by the end of the round`,
      },
    ]);
    expect(verdict.checked.I12).toBe(1);
  });

  it('still demands the session audience next to an audience without a session', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.revision('s0', 3, { [DEV]: ['a', 'b', 'c'], [INTERNAL]: ['z'] });
    openSessions(b, [DEV]);
    finish(b);
    // seq 0 server_up, 1 revision, 2 session_opened, 3 quiet, 4 round_end.
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: 4,
        code: 'NOT_PUBLISHED',
        evidence: `server s0 key ${ID0.slice(0, 12)}|${DEV} at revision 3: nothing was published for the key by the end of the round`,
      },
    ]);
    expect(verdict.checked.I12).toBe(1);
  });

  it('NOT_PUBLISHED: a session audience that no revision ever gave a view', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    b.sessionOpened('s0', GUEST, ID0);
    devWalk(b);
    opsWalk(b);
    finish(b);
    // seq 0-3 standard world, 4 guest session, 5-13 acme.dev walk, 14-20 acme.ops walk, 21 quiet, 22 round_end.
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: 22,
        code: 'NOT_PUBLISHED',
        evidence: `server s0 key ${ID0.slice(0, 12)}|${GUEST} at revision 3: nothing was published for the key by the end of the round`,
      },
    ]);
    expect(verdict.checked.I12).toBe(3);
  });

  it('accepts a session audience absent from the final views once it has a publish with zero tools', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    b.sessionOpened('s0', GUEST, ID0);
    devWalk(b);
    opsWalk(b);
    b.walk({ audience: GUEST, scanId: 'sc-guest', revision: 3, pages: [[]] });
    finish(b);
    expect(checkTrace(b.build())).toEqual({
      round: ROUND,
      violations: [],
      checked: checkedCounts({ I1: 3, I2: 3, I4: 0, I5: 0, I10: 3, I11: 0, I12: 3, I13: 13 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('NOT_CONVERGED: a session audience dropped from the final views still holding tools', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    const { publishSeq } = opsWalk(b);
    b.revision('s0', 4, { [DEV]: ['a', 'b', 'c'] });
    finish(b);
    // seq 0-3 standard world, 4-12 acme.dev walk, 13-19 acme.ops walk, 20 revision 4, 21 quiet, 22 round_end.
    expect(publishSeq).toBe(19);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: 22,
        code: 'NOT_CONVERGED',
        evidence: `server s0 key ${ID0.slice(0, 12)}|${OPS} at revision 4: the latest publish (seq 19) is missing [] and has extra [${short('a')}]`,
      },
    ]);
  });

  it('accepts a session audience dropped from the final views once it is republished with zero tools', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    opsWalk(b);
    b.revision('s0', 4, { [DEV]: ['a', 'b', 'c'] });
    opsWalk(b, { scanId: 'sc-ops-4', revision: 4, pages: [[]] });
    finish(b);
    expect(checkTrace(b.build())).toEqual({
      round: ROUND,
      violations: [],
      checked: checkedCounts({ I1: 3, I2: 3, I4: 0, I5: 0, I10: 3, I11: 0, I12: 2, I13: 13 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('DISABLED_AT_END: the key was disabled after its latest publish and never re-enabled', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    opsWalk(b);
    b.serverDisabled(DEV_KEY);
    finish(b);
    // seq 12 acme.dev publish, 19 acme.ops publish, 20 server_disabled, 21 quiet, 22 round_end.
    expect(checkTrace(b.build())).toEqual({
      round: ROUND,
      violations: [
        {
          invariant: 'I12',
          round: ROUND,
          seq: 22,
          code: 'DISABLED_AT_END',
          evidence: `server s0 key ${ID0.slice(0, 12)}|${DEV} at revision 3: the key is still DISABLED since seq 20 (reason "NO_ROLLBACK_SOURCE"); its latest publish is seq 12`,
        },
      ],
      checked: checkedCounts({ I1: 2, I2: 2, I4: 0, I5: 0, I10: 2, I11: 0, I12: 2, I13: 9 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('DISABLED_AT_END: a key disabled before anything was published for it', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    b.serverDisabled(OPS_KEY, 'EQUIVOCATION');
    finish(b);
    // seq 12 acme.dev publish, 13 server_disabled, 14 quiet, 15 round_end.
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: 15,
        code: 'DISABLED_AT_END',
        evidence: `server s0 key ${ID0.slice(0, 12)}|${OPS} at revision 3: the key is still DISABLED since seq 13 (reason "EQUIVOCATION"); nothing was ever published for it`,
      },
    ]);
  });

  it('accepts a key re-enabled by a later publish', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    opsWalk(b);
    b.serverDisabled(DEV_KEY);
    devWalk(b, { scanId: 'sc-dev-2' });
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([]);
  });

  it('owes nothing for a disabled key of a disqualified server', () => {
    const b = new TraceBuilder();
    standardWorld(b, ['F13:remote-ref']);
    devWalk(b);
    opsWalk(b);
    b.serverDisabled(DEV_KEY);
    finish(b);
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I12: 0 } });
  });
});

describe('I12: the probes a correct core must admit are admitted', () => {
  /**
   * `admissionWorld`, both audiences published, the quiet tail (seq 25), the planner shown
   * acme.dev's catalog (seq 26); then `probes` and the round end.
   */
  function probeRound(probes: (b: TraceBuilder) => void, status: 'settled' | 'undecided' = 'settled'): TraceBuilder {
    const b = new TraceBuilder();
    admissionWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    opsWalk(b);
    b.quiet();
    expect(b.disclosure(devPublish, { session: DEV_SESSION })).toBe(26);
    probes(b);
    b.roundEnd(status);
    return b;
  }
  const probeA = { session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'a', kind: 'probe' };
  const label = `probe plan "p0" of session "${DEV_SESSION}" (seq 27, "a" ${short('a')} from generation 1 of key ${ID0.slice(0, 12)}|${DEV}), which must be admitted,`;

  it('PROBE_REFUSED: a probe refused, anchored at the refusal and naming its code', () => {
    const b = probeRound((builder) => builder.call({ ...probeA, decision: 'ARGS_INVALID' }));
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: 28,
        code: 'PROBE_REFUSED',
        evidence: `${label} was refused ARGS_INVALID at gate decision seq 28`,
      },
    ]);
    expect(verdict.checked.I12).toBe(3);
    expect(verdict.metrics.probes).toEqual({ expected: 1, admitted: 0 });
  });

  it('PROBE_NOT_DECIDED: a probe the gate never decided', () => {
    const b = probeRound((builder) => builder.planMade(probeA));
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I12',
        round: ROUND,
        seq: 28,
        code: 'PROBE_NOT_DECIDED',
        evidence: `${label} has no gate decision by the end of the round`,
      },
    ]);
  });

  it('accepts a probe admitted after a first refusal of the same plan', () => {
    const b = probeRound((builder) => {
      builder.call({ ...probeA, decision: 'SERVER_DISABLED' });
      builder.gateDecision({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'a' });
    });
    const verdict = checkTrace(b.build());
    expect(verdict).toMatchObject({ violations: [], checked: { I12: 3 } });
    expect(verdict.metrics.probes).toEqual({ expected: 1, admitted: 1 });
  });

  it("PROBE_REFUSED: an ADMIT of another session's plan with the same planId does not count", () => {
    const b = probeRound((builder) => {
      builder.call({ ...probeA, decision: 'POLICY_REVOKED' });
      builder.gateDecision({ session: 'planner-other', planId: 'p0', key: DEV_KEY, tool: 'a' });
    });
    expect(checkTrace(b.build()).violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I12', 'PROBE_REFUSED', 28],
      ['I9', 'UNDISCLOSED_TOOL_ADMITTED', 29],
    ]);
  });

  it('demands nothing of a probe the world does not expect to be admitted', () => {
    const b = probeRound((builder) => builder.call({ ...probeA, expectAdmit: false, decision: 'POLICY_REVOKED' }));
    expect(checkTrace(b.build())).toMatchObject({
      violations: [],
      checked: { I12: 2 },
      metrics: { probes: { expected: 0, admitted: 0 } },
    });
  });

  it('does not judge a probe of a key no liveness target has (here an identity s0 never presented)', () => {
    const b = probeRound((builder) => {
      builder.planMade({ ...probeA, key: `${ID1}|${DEV}`, generation: 0 });
    });
    expect(checkTrace(b.build())).toMatchObject({
      violations: [],
      checked: { I12: 2 },
      metrics: { probes: { expected: 1, admitted: 0 } },
    });
  });

  it('is not judged in an undecided round, though the metric still counts the probe', () => {
    const b = probeRound((builder) => builder.call({ ...probeA, decision: 'ARGS_INVALID' }), 'undecided');
    expect(checkTrace(b.build())).toMatchObject({
      violations: [],
      checked: { I12: 0 },
      metrics: { probes: { expected: 1, admitted: 0 } },
    });
  });
});
