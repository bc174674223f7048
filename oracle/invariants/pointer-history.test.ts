import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, DEV_KEY, VIEWS_R3, devWalk, finish, opsWalk, standardWorld } from '../testing/scenarios.ts';
import { ID0, TraceBuilder, digestOf, toolDigest } from '../testing/trace-builder.ts';
import { NO_CALL_METRICS, checkedCounts } from '../testing/verdicts.ts';

const ROUND = 17;
const K = `${ID0.slice(0, 12)}|${DEV}`;
const short = (name: string): string => toolDigest(name).slice(0, 12);

/**
 * The standard world with acme.dev published at generations 1 (seq 12) and 2 (seq 29, a rescan
 * at revision 4, which changes no view; revision 4 is seq 20), acme.ops at seq 19; the next event
 * is seq 30.
 */
function twoGenerations(): TraceBuilder {
  const b = new TraceBuilder();
  standardWorld(b);
  devWalk(b);
  opsWalk(b);
  b.revision('s0', 4, VIEWS_R3);
  devWalk(b, { scanId: 'sc-dev-4', revision: 4 });
  return b;
}

/** The standard world with acme.dev published at generation 1 (seq 12), acme.ops at seq 19. */
function oneGeneration(): TraceBuilder {
  const b = new TraceBuilder();
  standardWorld(b);
  devWalk(b);
  opsWalk(b);
  return b;
}

describe('I10: linear pointer history per key', () => {
  it('GENERATION_REPEATED: generations 1, 2, 2', () => {
    const b = oneGeneration();
    devWalk(b, { scanId: 'sc-dev-2' });
    const repeat = devWalk(b, { scanId: 'sc-dev-3', publish: { generation: 2 } }).publishSeq;
    finish(b);
    expect(repeat).toBe(37);
    expect(checkTrace(b.build())).toEqual({
      round: ROUND,
      violations: [
        {
          invariant: 'I10',
          round: ROUND,
          seq: 37,
          code: 'GENERATION_REPEATED',
          evidence: `publish seq 37 of key ${K} (generation 2) repeats the generation of the publish at seq 28`,
        },
      ],
      checked: checkedCounts({ I1: 4, I2: 4, I4: 0, I5: 0, I10: 4, I11: 0, I12: 2, I13: 19 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('GENERATION_GAP: generations 1, 3', () => {
    const b = oneGeneration();
    const gap = devWalk(b, { scanId: 'sc-dev-2', publish: { generation: 3 } }).publishSeq;
    finish(b);
    expect(gap).toBe(28);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I10',
        round: ROUND,
        seq: 28,
        code: 'GENERATION_GAP',
        evidence: `publish seq 28 of key ${K} (generation 3): expected generation 2 after generation 1 (seq 12)`,
      },
    ]);
  });

  it('GENERATION_GAP then GENERATION_BACKWARDS: generations 1, 3, 2 (each number judged after the one before it)', () => {
    const b = oneGeneration();
    devWalk(b, { scanId: 'sc-dev-2', publish: { generation: 3 } });
    devWalk(b, { scanId: 'sc-dev-3', publish: { generation: 2 } });
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I10',
        round: ROUND,
        seq: 28,
        code: 'GENERATION_GAP',
        evidence: `publish seq 28 of key ${K} (generation 3): expected generation 2 after generation 1 (seq 12)`,
      },
      {
        invariant: 'I10',
        round: ROUND,
        seq: 37,
        code: 'GENERATION_BACKWARDS',
        evidence: `publish seq 37 of key ${K} (generation 2): expected generation 4 after generation 3 (seq 28)`,
      },
    ]);
  });

  it.each([
    [0, 'GENERATION_BACKWARDS'],
    [2, 'GENERATION_GAP'],
  ])('a first publish numbered %i is %s', (generation, code) => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b, { publish: { generation } });
    opsWalk(b);
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I10',
        round: ROUND,
        seq: 12,
        code,
        evidence: `publish seq 12 of key ${K} (generation ${generation}): expected generation 1 for the key's first publish`,
      },
    ]);
  });

  it('counts generations per key: acme.dev and acme.ops both start at 1', () => {
    expect(checkTrace(oneGeneration().build()).violations).toEqual([]);
  });

  it('REVISION_DECREASED: a scan of revision 3 published after a publish of revision 4, not as a rollback', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const old = devWalk(b, { publish: false });
    b.revision('s0', 4, VIEWS_R3);
    devWalk(b, { scanId: 'sc-dev-4', revision: 4 });
    const stale = b.published({
      key: DEV_KEY,
      scanId: 'sc-dev',
      sourceRevision: 3,
      pages: old.pages,
      tools: ['a', 'b', 'c'],
    });
    opsWalk(b, { revision: 4 });
    finish(b);
    // seq 4-11 the unpublished scan, 12 revision 4, 13-21 the revision-4 walk.
    expect(stale).toBe(22);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I10',
        round: ROUND,
        seq: 22,
        code: 'REVISION_DECREASED',
        evidence: `publish seq 22 of key ${K} (generation 2) binds revision 3, below revision 4 of generation 1 (seq 21), and is not a rollback`,
      },
    ]);
  });

  it('accepts the same revision decrease as a marked rollback to generation 1', () => {
    const b = twoGenerations();
    const rollback = b.rollback(DEV_KEY, 1);
    finish(b);
    expect(rollback).toBe(30);
    expect(b.publishAt(30)).toMatchObject({ generation: 3, sourceRevision: 3, scanId: 'sc-dev', rolledBackFrom: 1 });
    expect(checkTrace(b.build())).toEqual({
      // I28: the rollback (nothing leased after it).
      round: ROUND,
      violations: [],
      checked: checkedCounts({ I1: 4, I2: 4, I4: 0, I5: 0, I10: 4, I11: 1, I12: 2, I13: 14, I28: 1 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('accepts a later publish that is not below the rollback, although below the generation rolled away from', () => {
    const b = twoGenerations();
    b.rollback(DEV_KEY, 1);
    devWalk(b, { scanId: 'sc-dev-4b', revision: 4 });
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([]);
  });

  it('compares only versioned neighbours: a publish with no revision breaks no order', () => {
    const b = oneGeneration();
    devWalk(b, {
      scanId: 'sc-dev-u',
      reported: null,
      publish: { status: 'UNVERSIONED_OBSERVATION', sourceRevision: null },
    });
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([]);
  });

  it('ROLLBACK_UNKNOWN_SOURCE: a generation the key never published, and one that is not earlier', () => {
    const b = twoGenerations();
    const none = b.rollback(DEV_KEY, 1, { rolledBackFrom: 0 });
    const later = b.rollback(DEV_KEY, 1, { rolledBackFrom: 9 });
    finish(b);
    expect([none, later]).toEqual([30, 31]);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I10',
        round: ROUND,
        seq: 30,
        code: 'ROLLBACK_UNKNOWN_SOURCE',
        evidence: `publish seq 30 of key ${K} (generation 3) rolls back from generation 0, which the key never published before it`,
      },
      {
        invariant: 'I10',
        round: ROUND,
        seq: 31,
        code: 'ROLLBACK_UNKNOWN_SOURCE',
        evidence: `publish seq 31 of key ${K} (generation 4) rolls back from generation 9, which is not below its own`,
      },
    ]);
  });

  it('ROLLBACK_CONTENT_MISMATCH: another page root than the generation rolled back to', () => {
    const b = twoGenerations();
    const other = digestOf('root:other');
    b.rollback(DEV_KEY, 1, { pageRoot: other });
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I10',
        round: ROUND,
        seq: 30,
        code: 'ROLLBACK_CONTENT_MISMATCH',
        evidence: `publish seq 30 of key ${K} (generation 3) rolls back from generation 1 (seq 12) but its pageRoot is ${other.slice(0, 12)}, not ${digestOf('root:sc-dev').slice(0, 12)}`,
      },
    ]);
  });

  it('ROLLBACK_CONTENT_MISMATCH: a rollback that drops a tool (also a half snapshot for I1, I2 and I12)', () => {
    const b = twoGenerations();
    const source = b.publishOf(DEV_KEY, 1);
    b.rollback(DEV_KEY, 1, { tools: source.tools.slice(0, 2) });
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: 30,
        code: 'CONTENT_MISMATCH',
        evidence: `publish seq 30 of key ${K} differs from the acme.dev view at revision 3: missing [${short('c')}], extra []`,
      },
      {
        invariant: 'I2',
        round: ROUND,
        seq: 30,
        code: 'TOOLS_MISMATCH',
        evidence: `publish seq 30 of key ${K}: tool 3 is nothing but the served pages have ${short('c')} (2 published, 3 served)`,
      },
      {
        invariant: 'I10',
        round: ROUND,
        seq: 30,
        code: 'ROLLBACK_CONTENT_MISMATCH',
        evidence: `publish seq 30 of key ${K} (generation 3) rolls back from generation 1 (seq 12) but its tool 3 is nothing, not "c" (${short('c')})`,
      },
      {
        invariant: 'I12',
        round: ROUND,
        seq: 32,
        code: 'NOT_CONVERGED',
        evidence: `server s0 key ${K} at revision 4: the latest publish (seq 30) is missing [${short('c')}] and has extra []`,
      },
    ]);
  });

  it.each([
    ['scanId', { scanId: 'sc-dev-4' }, 'its scanId is "sc-dev-4", not "sc-dev"'],
    ['sourceRevision', { sourceRevision: 4 }, 'its sourceRevision is 4, not 3'],
  ])('ROLLBACK_CONTENT_MISMATCH: another %s than the generation rolled back to', (_field, change, mismatch) => {
    const b = twoGenerations();
    b.rollback(DEV_KEY, 1, change);
    finish(b, 'undecided');
    expect(checkTrace(b.build()).violations.filter((v) => v.invariant === 'I10')).toEqual([
      {
        invariant: 'I10',
        round: ROUND,
        seq: 30,
        code: 'ROLLBACK_CONTENT_MISMATCH',
        evidence: `publish seq 30 of key ${K} (generation 3) rolls back from generation 1 (seq 12) but ${mismatch}`,
      },
    ]);
  });

  it('CONFLICT_MISSTATED and CONFLICT_WITHOUT_RACE: a lost compare-and-swap must name the pointer it lost to', () => {
    const b = oneGeneration();
    const conflict = (expectedGeneration: number, actualGeneration: number): number =>
      b.emit('core', 'cas_conflict', { key: DEV_KEY, scanId: 'sc-race', expectedGeneration, actualGeneration });
    const seqs = [conflict(0, 1), conflict(0, 2), conflict(1, 1)];
    finish(b);
    // seq 20: a true loss (expected 0, the pointer at 1); 21: names generation 2; 22: expected the generation it held.
    expect(seqs).toEqual([20, 21, 22]);
    const verdict = checkTrace(b.build());
    expect(verdict.violations).toEqual([
      {
        invariant: 'I10',
        round: ROUND,
        seq: 21,
        code: 'CONFLICT_MISSTATED',
        evidence: `cas_conflict seq 21 (scan "sc-race", key ${K}) says generation 2 was active, but the pointer held generation 1 (publish seq 12)`,
      },
      {
        invariant: 'I10',
        round: ROUND,
        seq: 22,
        code: 'CONFLICT_WITHOUT_RACE',
        evidence: `cas_conflict seq 22 (scan "sc-race", key ${K}) says it lost expecting generation 1, but the pointer held generation 1 (publish seq 12): that compare-and-swap could not lose`,
      },
    ]);
    expect(verdict.checked.I10).toBe(2 + 3);
  });

  it('CONFLICT_MISSTATED: a lost compare-and-swap on a key nothing was published for names generation 0', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    const seq = b.emit('core', 'cas_conflict', {
      key: DEV_KEY,
      scanId: 'sc-race',
      expectedGeneration: 0,
      actualGeneration: 1,
    });
    devWalk(b);
    opsWalk(b);
    finish(b);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I10',
        round: ROUND,
        seq,
        code: 'CONFLICT_MISSTATED',
        evidence: `cas_conflict seq ${seq} (scan "sc-race", key ${K}) says generation 1 was active, but nothing was published for the key before it`,
      },
    ]);
  });
});
