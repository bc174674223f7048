import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { cleanRound, finish, standardWorld, devWalk, opsWalk } from '../testing/scenarios.ts';
import { TraceBuilder } from '../testing/trace-builder.ts';
import { parseCompleteTrace } from '../trace.ts';

const ROUND = 17;

describe('CORE_FAILED: the core answered every call of the world', () => {
  it('reports each kind of failure once, at its first core_failed, counting the others', () => {
    const b = new TraceBuilder();
    standardWorld(b);
    devWalk(b);
    opsWalk(b);
    const first = b.emit('world', 'core_failed', { during: 'disclose', reason: 'THREW', error: 'TypeError: boom' });
    b.emit('world', 'core_failed', { during: 'disclose', reason: 'THREW', error: 'TypeError: boom' });
    b.emit('world', 'core_failed', { during: 'disclose', reason: 'THREW', error: 'TypeError: boom' });
    const rejected = b.emit('world', 'core_failed', { during: 'call', reason: 'REJECTED', error: 'Error: no gate' });
    const unhandled = b.emit('world', 'core_failed', {
      during: 'unhandledRejection',
      reason: 'UNHANDLED_REJECTION',
      error: 'Error: lost',
    });
    finish(b);
    const at = (seq: number): number => b.build().events[seq]?.t ?? -1;
    expect(checkTrace(b.build()).violations).toEqual([
      {
        invariant: 'CORE_FAILED',
        round: ROUND,
        seq: first,
        code: 'THREW',
        evidence: `the core disclose threw at seq ${first} (t=${at(first)} ms): TypeError: boom (and 2 more times in this round)`,
      },
      {
        invariant: 'CORE_FAILED',
        round: ROUND,
        seq: rejected,
        code: 'REJECTED',
        evidence: `the core call rejected at seq ${rejected} (t=${at(rejected)} ms): Error: no gate`,
      },
      {
        invariant: 'CORE_FAILED',
        round: ROUND,
        seq: unhandled,
        code: 'UNHANDLED_REJECTION',
        evidence: `the core left a promise rejection unhandled at seq ${unhandled} (t=${at(unhandled)} ms): Error: lost`,
      },
    ]);
  });

  it('a saved trace with core_failed parses, and a malformed one names the field', () => {
    const b = cleanRound();
    expect(() => parseCompleteTrace(b.jsonl())).not.toThrow();
    const bad = new TraceBuilder();
    standardWorld(bad);
    bad.emit('world', 'core_failed', { during: 'attach', reason: 'THREW' });
    finish(bad);
    expect(() => parseCompleteTrace(bad.jsonl())).toThrow(/"error"/);
  });
});
