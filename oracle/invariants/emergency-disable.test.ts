/**
 * I30 on hand-built traces: after a delivered emergency disable of `echo` on s0, a `call_sent` of
 * `echo` to s0 is a violation (whichever audience); a call sent before the order, a call of another
 * tool, a call after the server rotated to another identity, and a call after an order the core
 * never heard (`unsupported`, `host_down`) are not.
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { ID0, ID1, TraceBuilder } from '../testing/trace-builder.ts';

/** s0 up at ID0, a call of echo sent at 10, and the order at 20 with `delivery`. */
function ordered(delivery: 'delivered' | 'unsupported' | 'host_down'): TraceBuilder {
  const b = new TraceBuilder();
  b.serverUp('s0', ID0);
  b.at(10).callSent({ server: 's0', audience: 'acme.dev', tool: 'echo' });
  b.at(20).emit('world', 'emergency_disabled', { server: 's0', identity: ID0, tool: 'echo', delivery });
  return b;
}

describe('I30: no execution after an emergency disable', () => {
  it('a call of the disabled tool sent after the order fails, anchored at the first, counting them all', () => {
    const b = ordered('delivered');
    b.at(30).callSent({ server: 's0', audience: 'acme.dev', tool: 'read' });
    const first = b.at(40).callSent({ server: 's0', audience: 'acme.ops', tool: 'echo' });
    b.at(50).callSent({ server: 's0', audience: 'acme.dev', tool: 'echo' });
    b.roundEnd();
    const verdict = checkTrace(b.build());
    expect(verdict.violations.map((v) => [v.invariant, v.seq, v.code, v.evidence])).toEqual([
      [
        'I30',
        first,
        'EXECUTED_AFTER_EMERGENCY_DISABLE',
        `2 calls of "echo" left the core for server s0 after its emergency disable (seq 2, t=20 ms), the first at seq ${first} (t=40 ms, audience acme.ops)`,
      ],
    ]);
    expect(verdict.checked.I30).toBe(1);
  });

  it('calls before the order, of other tools, or after a rotation to another identity pass', () => {
    const b = ordered('delivered');
    b.at(30).callSent({ server: 's0', audience: 'acme.dev', tool: 'read' });
    b.at(40).identityRotated('s0', ID1, 0);
    b.at(50).callSent({ server: 's0', audience: 'acme.dev', tool: 'echo' });
    b.roundEnd();
    const verdict = checkTrace(b.build());
    expect(verdict.violations.filter((v) => v.invariant === 'I30')).toEqual([]);
    expect(verdict.checked.I30).toBe(1);
  });

  it('an order the core never heard judges nothing', () => {
    for (const delivery of ['unsupported', 'host_down'] as const) {
      const b = ordered(delivery);
      b.at(40).callSent({ server: 's0', audience: 'acme.dev', tool: 'echo' });
      b.roundEnd();
      const verdict = checkTrace(b.build());
      expect(verdict.violations.filter((v) => v.invariant === 'I30')).toEqual([]);
      expect(verdict.checked.I30).toBe(0);
    }
  });
});
