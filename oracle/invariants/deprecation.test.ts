/**
 * I34 on hand-built traces: s0 presents ID0; generation 1 of its acme.dev key is first disclosed
 * at seq 1, the operator deprecates `read_file` D1 at seq 2 (t=20 ms, delivered), generation 2 is
 * first disclosed at seq 3. A receipt of read_file D1 through generation 2 after the order is a new
 * binding of a deprecated version; through generation 1 (bound before the order), of another
 * digest, of another tool, or under another identity, it is not; an order the core never heard
 * (`unsupported`, `host_down`) judges nothing.
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { digestOf, ID0, ID1, TraceBuilder } from '../testing/trace-builder.ts';

const D1 = digestOf('read_file#1');
const D2 = digestOf('read_file#2');
const KEY = `${ID0}|acme.dev`;

function disclosure(b: TraceBuilder, generation: number, key = KEY): number {
  return b.emit('world', 'disclosure', {
    session: 's0/acme.dev',
    server: 's0',
    audience: 'acme.dev',
    key,
    generation,
    snapshotDigest: digestOf(`snapshot:${generation}`),
    tools: [D1],
  });
}

function ordered(delivery: 'delivered' | 'unsupported' | 'host_down'): TraceBuilder {
  const b = new TraceBuilder();
  b.serverUp('s0', ID0);
  disclosure(b, 1);
  b.at(20).emit('world', 'deprecation_ordered', {
    server: 's0',
    identity: ID0,
    tool: 'read_file',
    descriptorDigests: [D1],
    delivery,
  });
  disclosure(b, 2);
  return b;
}

function receipt(
  b: TraceBuilder,
  lease: string,
  generation: number,
  options: { digest?: string; tool?: string; key?: string } = {},
): number {
  return b.emit('core', 'receipt', {
    callId: `call-${lease}`,
    leaseId: lease,
    key: options.key ?? KEY,
    tool: options.tool ?? 'read_file',
    generation,
    descriptorDigest: options.digest ?? D1,
    policyEpoch: 1,
    disclosure: { generation, snapshotDigest: digestOf(`snapshot:${generation}`) },
    pin: 7,
  });
}

function i36(b: TraceBuilder): { found: Array<[number | null, string, string]>; checked: number } {
  b.roundEnd();
  const verdict = checkTrace(b.build());
  return {
    found: verdict.violations.filter((v) => v.invariant === 'I34').map((v) => [v.seq, v.code, v.evidence]),
    checked: verdict.checked.I34,
  };
}

describe('I34: no new binding of a deprecated version', () => {
  it('a receipt of the deprecated digest through a generation first disclosed after the order fails', () => {
    const b = ordered('delivered');
    const seq = receipt(b, 'l0', 2);
    expect(i36(b)).toEqual({
      found: [
        [
          seq,
          'NEW_BINDING_OF_DEPRECATED',
          `receipt l0 (seq ${seq}) admitted "read_file" ${D1.slice(0, 12)} through generation 2 of ${KEY}, first disclosed at seq 3, after the operator deprecated that version (seq 2, t=20 ms, no-new-binding)`,
        ],
      ],
      checked: 1,
    });
  });

  it('bindings made before the order, other digests, other tools and other identities pass', () => {
    const b = ordered('delivered');
    receipt(b, 'l0', 1);
    receipt(b, 'l1', 2, { digest: D2 });
    receipt(b, 'l2', 2, { tool: 'echo' });
    disclosure(b, 1, `${ID1}|acme.dev`);
    receipt(b, 'l3', 1, { key: `${ID1}|acme.dev` });
    expect(i36(b)).toEqual({ found: [], checked: 1 });
  });

  it('an order the core never heard judges nothing', () => {
    for (const delivery of ['unsupported', 'host_down'] as const) {
      const b = ordered(delivery);
      receipt(b, 'l0', 2);
      expect(i36(b)).toEqual({ found: [], checked: 0 });
    }
  });
});
