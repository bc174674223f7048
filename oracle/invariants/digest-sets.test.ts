/**
 * I1 CONTENT_MISMATCH and I12 NOT_CONVERGED compare descriptor digests as sets (SPEC I1 speaks of
 * the server's true set): an exact duplicate served twice adds nothing callable, a missing distinct
 * digest is a failure.
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { DEV, devWalk, finish, opsWalk, standardWorld } from '../testing/scenarios.ts';
import { ID0, TraceBuilder, toolDigest } from '../testing/trace-builder.ts';
import { asKnownEvent, type PublishedEvent } from '../trace.ts';
import { NO_CALL_METRICS, checkedCounts } from '../testing/verdicts.ts';

const ROUND = 17;
const K = `${ID0.slice(0, 12)}|${DEV}`;
const short = (name: string): string => toolDigest(name).slice(0, 12);

function publishedAt(builder: TraceBuilder, seq: number): PublishedEvent {
  const event = asKnownEvent(builder.build().events[seq]!);
  if (event?.type !== 'published') throw new Error(`seq ${seq} is not a publish`);
  return event;
}

describe('I1 and I12 compare digest sets', () => {
  it('accepts a publish that lists an exact duplicate of a view digest (overlapping pages)', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    // A cursor-ignoring server overlaps its pages: b is served on page 1 and again on page 2.
    const { publishSeq } = devWalk(b, {
      pages: [
        ['a', 'b'],
        ['b', 'c'],
      ],
    });
    opsWalk(b);
    finish(b);
    expect(publishSeq).toBe(12);
    expect(publishedAt(b, 12).tools.map((tool) => tool.descriptorDigest)).toEqual([
      toolDigest('a'),
      toolDigest('b'),
      toolDigest('b'),
      toolDigest('c'),
    ]);
    expect(checkTrace(b.build())).toEqual({
      round: ROUND,
      violations: [],
      checked: checkedCounts({ I1: 2, I2: 2, I4: 0, I5: 0, I10: 2, I11: 0, I12: 2, I13: 9 }),
      metrics: NO_CALL_METRICS,
    });
  });

  it('CONTENT_MISMATCH and NOT_CONVERGED: a duplicate does not stand in for a missing distinct digest', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    // Published a, b, b against the view a, b, c: as sets, c is missing and nothing is extra.
    const { publishSeq } = devWalk(b, { pages: [['a', 'b'], ['b']] });
    opsWalk(b);
    finish(b);
    // seq 0-3 standard world, 4-12 acme.dev walk, 13-19 acme.ops walk, 20 quiet, 21 round_end.
    expect(publishSeq).toBe(12);
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'I1',
        round: ROUND,
        seq: 12,
        code: 'CONTENT_MISMATCH',
        evidence: `publish seq 12 of key ${K} differs from the acme.dev view at revision 3: missing [${short('c')}], extra []`,
      },
      {
        invariant: 'I12',
        round: ROUND,
        seq: 21,
        code: 'NOT_CONVERGED',
        evidence: `server s0 key ${K} at revision 3: the latest publish (seq 12) is missing [${short('c')}] and has extra []`,
      },
    ]);
  });
});
