import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, DEV_SESSION, devWalk, finish, opsWalk, standardWorld } from '../testing/scenarios.ts';
import { ID0, TraceBuilder, toolDigest } from '../testing/trace-builder.ts';
import { NO_CALL_METRICS, checkedCounts } from '../testing/verdicts.ts';

const ROUND = 17;
const K = `${ID0.slice(0, 12)}|${DEV}`;
const short = (name: string): string => toolDigest(name).slice(0, 12);

/** The standard round with `defects` planted (seq 1..), acme.dev published with `verdicts`. */
function plantedRound(
  defects: Record<string, string>,
  verdicts: Record<string, string>,
): { builder: TraceBuilder; devPublish: number } {
  const b = new TraceBuilder();
  standardWorld(b, [], defects);
  const devPublish = devWalk(b, { publish: { verdicts } }).publishSeq ?? -1;
  opsWalk(b);
  finish(b);
  return { builder: b, devPublish };
}

describe('I5: no planted defect admitted', () => {
  it('DEFECT_ADMITTED: a planted REMOTE_REF tool published with verdict ok', () => {
    const { builder, devPublish } = plantedRound({ c: 'REMOTE_REF' }, {});
    // seq 0 server_up, 1 defect_planted, 2 revision, 3-4 sessions, 5-13 acme.dev walk.
    expect(devPublish).toBe(13);
    expect(checkTrace(builder.build())).toEqual({
      round: ROUND,
      violations: [
        {
          invariant: 'I5',
          round: ROUND,
          seq: 13,
          code: 'DEFECT_ADMITTED',
          evidence: `publish seq 13 of key ${K} admits tool "c" (${short('c')}) with verdict "ok", but it was planted with defect REMOTE_REF (seq 1)`,
        },
      ],
      checked: checkedCounts({ I1: 2, I2: 2, I4: 0, I5: 1, I10: 2, I11: 0, I12: 2, I13: 9 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('accepts the planted tool published with verdict REMOTE_REF, and still counts it', () => {
    const { builder } = plantedRound({ c: 'REMOTE_REF' }, { c: 'REMOTE_REF' });
    expect(checkTrace(builder.build())).toMatchObject({ violations: [], checked: { I5: 1 } });
  });

  it('accepts any non-ok verdict: the oracle does not demand the core name the planted defect', () => {
    const { builder } = plantedRound({ c: 'REMOTE_REF' }, { c: 'UNRESOLVED_REF' });
    expect(checkTrace(builder.build()).violations).toEqual([]);
  });

  it('DEFECT_ADMITTED: one violation per admitted defective tool, in every publish that admits it', () => {
    const b = new TraceBuilder();
    standardWorld(b, [], { a: 'BAD_NAME', c: 'NON_OBJECT_ROOT' });
    const devPublish = devWalk(b, { publish: { verdicts: { c: 'NON_OBJECT_ROOT' } } }).publishSeq ?? -1;
    const opsPublish = opsWalk(b).publishSeq ?? -1;
    finish(b);
    // seq 0 server_up, 1-2 defect_planted (a, c), 3 revision, 4-5 sessions; a is admitted twice.
    expect([devPublish, opsPublish]).toEqual([14, 21]);
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I5',
        round: ROUND,
        seq: 14,
        code: 'DEFECT_ADMITTED',
        evidence: `publish seq 14 of key ${K} admits tool "a" (${short('a')}) with verdict "ok", but it was planted with defect BAD_NAME (seq 1)`,
      },
      {
        invariant: 'I5',
        round: ROUND,
        seq: 21,
        code: 'DEFECT_ADMITTED',
        evidence: `publish seq 21 of key ${ID0.slice(0, 12)}|acme.ops admits tool "a" (${short('a')}) with verdict "ok", but it was planted with defect BAD_NAME (seq 1)`,
      },
    ]);
    expect(verdict.checked.I5).toBe(3);
  });

  it('DEFECT_ADMITTED: a rollback that republishes an admitted defect admits it again', () => {
    const b = new TraceBuilder();
    standardWorld(b, [], { c: 'REMOTE_REF' });
    devWalk(b);
    opsWalk(b);
    devWalk(b, { scanId: 'sc-dev-2', publish: { verdicts: { c: 'REMOTE_REF' } } });
    const rollback = b.rollback(`${ID0}|${DEV}`, 1);
    finish(b);
    expect(checkTrace(b.build()).violations.map((v) => [v.seq, v.invariant, v.code])).toEqual([
      [13, 'I5', 'DEFECT_ADMITTED'],
      [rollback, 'I5', 'DEFECT_ADMITTED'],
    ]);
  });

  it('has nothing to judge when no defect was planted', () => {
    const { builder } = plantedRound({}, {});
    expect(checkTrace(builder.build())).toMatchObject({ violations: [], checked: { I5: 0 } });
  });
});

describe('I5: DUPLICATE_NAME is judged next to its twin', () => {
  /**
   * `s0` whose acme.dev view holds two planted twins `first` and `second` (seq 1 and 2) on pages
   * [a, first] and [second]; acme.ops holds `opsTools`. acme.dev is published at seq 13.
   */
  function twinsRound(
    first: string,
    second: string,
    verdicts: Record<string, string>,
    opsTools: readonly string[] = ['a'],
  ): TraceBuilder {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.defectPlanted('s0', first, 'DUPLICATE_NAME');
    b.defectPlanted('s0', second, 'DUPLICATE_NAME');
    b.revision('s0', 3, { [DEV]: ['a', first, second], 'acme.ops': opsTools });
    b.sessionOpened('s0', DEV, ID0);
    b.walk({ audience: DEV, scanId: 'sc-dev', revision: 3, pages: [['a', first], [second]], publish: { verdicts } });
    finish(b, 'undecided');
    return b;
  }

  it('DEFECT_ADMITTED twice: two descriptors under one name, both admitted', () => {
    const verdict = checkTrace(twinsRound('dup', 'dup#2', {}).build());
    const evidence = (self: string, other: string): string =>
      `publish seq 13 of key ${K} admits tool "dup" (${short(self)}) with verdict "ok", but it was planted with defect DUPLICATE_NAME (seq ${self === 'dup' ? 1 : 2}) next to "dup" (${short(other)})`;
    expect(verdict.violations).toEqual(
      [
        { invariant: 'I5', round: ROUND, seq: 13, code: 'DEFECT_ADMITTED', evidence: evidence('dup', 'dup#2') },
        { invariant: 'I5', round: ROUND, seq: 13, code: 'DEFECT_ADMITTED', evidence: evidence('dup#2', 'dup') },
      ].sort((x, y) => (x.evidence < y.evidence ? -1 : 1)),
    );
    expect(verdict.checked.I5).toBe(2);
  });

  it('DEFECT_ADMITTED: names equal after normalisation (case, - and _), one of them admitted', () => {
    const verdict = checkTrace(twinsRound('get_sum', 'GET-SUM', { 'GET-SUM': 'DUPLICATE_NAME' }).build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I5',
        round: ROUND,
        seq: 13,
        code: 'DEFECT_ADMITTED',
        evidence: `publish seq 13 of key ${K} admits tool "get_sum" (${short('get_sum')}) with verdict "ok", but it was planted with defect DUPLICATE_NAME (seq 1) next to "GET-SUM" (${short('GET-SUM')})`,
      },
    ]);
  });

  it('accepts both twins quarantined', () => {
    const verdict = checkTrace(
      twinsRound('dup', 'dup#2', { dup: 'DUPLICATE_NAME', 'dup#2': 'DUPLICATE_NAME' }).build(),
    );
    expect(verdict).toMatchObject({ violations: [], checked: { I5: 2 } });
  });

  it('does not judge a twin published without its namesake', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    b.defectPlanted('s0', 'dup', 'DUPLICATE_NAME');
    b.defectPlanted('s0', 'dup#2', 'DUPLICATE_NAME');
    b.revision('s0', 3, { [DEV]: ['a', 'dup'], 'acme.ops': ['a', 'dup#2'] });
    b.walk({ audience: DEV, scanId: 'sc-dev', revision: 3, pages: [['a', 'dup']] });
    b.walk({ audience: 'acme.ops', scanId: 'sc-ops', revision: 3, pages: [['a', 'dup#2']] });
    finish(b, 'undecided');
    expect(checkTrace(b.build())).toMatchObject({ violations: [], checked: { I5: 0 } });
  });
});

describe('I5: no planted defect admitted at the gate', () => {
  /**
   * The standard world with `defects` planted (seq 1..), acme.dev published with `verdicts` (the
   * view's tools are `devTools`, one page) and shown to the planner, then the gate decides a call
   * of `tool` with `decision` (an ADMIT is also receipted and executed).
   */
  function gateRound(
    defects: Record<string, string>,
    verdicts: Record<string, string>,
    tool: string,
    decision = 'ADMIT',
    devTools = ['a', 'b', 'c'],
  ): { builder: TraceBuilder; gate: number } {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    for (const [label, defect] of Object.entries(defects)) b.defectPlanted('s0', label, defect);
    b.revision('s0', 3, { [DEV]: devTools });
    b.sessionOpened('s0', DEV, ID0);
    const devPublish = devWalk(b, { pages: [devTools], publish: { verdicts } }).publishSeq ?? -1;
    b.disclosure(devPublish, { session: DEV_SESSION });
    const gate = b.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool, decision }).decision;
    finish(b);
    return { builder: b, gate };
  }

  it('DEFECT_ADMITTED: an ADMIT of a tool planted with UNKNOWN_DIALECT, counted by the metric', () => {
    const { builder, gate } = gateRound({ c: 'UNKNOWN_DIALECT' }, { c: 'UNKNOWN_DIALECT' }, 'c');
    // seq 0 server_up, 1 defect_planted, 2 revision, 3 session, 4-10 walk (publish 10), 11 disclosure, 12 plan, 13 gate.
    expect(gate).toBe(13);
    const verdict = checkTrace(builder.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I5',
        round: ROUND,
        seq: 13,
        code: 'DEFECT_ADMITTED',
        evidence: `gate decision seq 13 (session "${DEV_SESSION}", plan "p0") admits tool "c" (${short('c')}) with decision ADMIT, but it was planted with defect UNKNOWN_DIALECT (seq 1)`,
      },
    ]);
    expect(verdict.checked.I5).toBe(2);
    expect(verdict.metrics.unknownDialectAdmissions).toBe(1);
  });

  it('accepts the gate refusing it, and still counts the decision', () => {
    const { builder } = gateRound({ c: 'UNKNOWN_DIALECT' }, { c: 'UNKNOWN_DIALECT' }, 'c', 'TOOL_QUARANTINED');
    const verdict = checkTrace(builder.build());
    expect(verdict).toMatchObject({ violations: [], checked: { I5: 2 } });
    expect(verdict.metrics.unknownDialectAdmissions).toBe(0);
  });

  it('DEFECT_ADMITTED: another label is an I5 violation but not an unknown-dialect admission', () => {
    const { builder } = gateRound({ c: 'REMOTE_REF' }, { c: 'REMOTE_REF' }, 'c');
    const verdict = checkTrace(builder.build());
    expect(verdict.violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([['I5', 'DEFECT_ADMITTED', 13]]);
    expect(verdict.metrics.unknownDialectAdmissions).toBe(0);
  });

  it('DEFECT_ADMITTED: a DUPLICATE_NAME twin admitted next to its namesake in the active generation', () => {
    const twins = { dup: 'DUPLICATE_NAME', 'dup#2': 'DUPLICATE_NAME' };
    const { builder } = gateRound(twins, twins, 'dup', 'ADMIT', ['a', 'dup', 'dup#2']);
    // seq 0 server_up, 1-2 defect_planted, 3 revision, 4 session, 5-11 walk, 12 disclosure, 13 plan, 14 gate.
    expect(checkTrace(builder.build()).violations).toEqual([
      {
        invariant: 'I5',
        round: ROUND,
        seq: 14,
        code: 'DEFECT_ADMITTED',
        evidence: `gate decision seq 14 (session "${DEV_SESSION}", plan "p0") admits tool "dup" (${short('dup')}) with decision ADMIT, but it was planted with defect DUPLICATE_NAME (seq 1) next to "dup" (${short('dup#2')})`,
      },
    ]);
  });

  it('does not judge a DUPLICATE_NAME twin whose active generation lacks its namesake', () => {
    const { builder } = gateRound({ dup: 'DUPLICATE_NAME', 'dup#2': 'DUPLICATE_NAME' }, {}, 'dup', 'ADMIT', [
      'a',
      'dup',
    ]);
    expect(checkTrace(builder.build())).toMatchObject({ violations: [], checked: { I5: 0 } });
  });
});
