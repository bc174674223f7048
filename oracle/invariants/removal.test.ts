/**
 * I38 on hand-built traces: s0 presents ID0; generation 1 of its acme.dev key is disclosed to
 * session s0/acme.dev at seq 1, listing `read_file` D1; the operator walks D1 to `sunset` (t=20
 * ms) and `disabled` (t=30 ms), then orders its removal (t=40 ms). The session's run references
 * D1 (shown before the walk began) and is live, so a removal answered `removed` fails, and so does
 * a later call of the run refused VERSION_GONE; a receipt of D1 after `disabled` fails. A run
 * first shown D1 after the walk began references nothing; orders the core never heard
 * (`unsupported`, `host_down`) judge nothing. After an `announce` (t=30 ms) D1 is still bindable:
 * a run first shown it then references it, and a call of D1 refused for its lifecycle before the
 * sunset fails; one refused after the sunset, or for another reason, does not.
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { digestOf, ID0, TraceBuilder } from '../testing/trace-builder.ts';

const D1 = digestOf('read_file#1');
const KEY = `${ID0}|acme.dev`;
const SESSION = 's0/acme.dev';

function disclosure(b: TraceBuilder, generation: number, session = SESSION): number {
  return b.emit('world', 'disclosure', {
    session,
    server: 's0',
    audience: 'acme.dev',
    key: KEY,
    generation,
    snapshotDigest: digestOf(`snapshot:${generation}`),
    tools: [D1],
  });
}

function order(
  b: TraceBuilder,
  t: number,
  step: 'announce' | 'sunset' | 'disabled' | 'remove',
  options: { delivery?: 'delivered' | 'unsupported' | 'host_down'; answer?: 'removed' | 'refused' } = {},
): number {
  const answer = step === 'remove' ? (options.answer ?? 'refused') : null;
  return b.at(t).emit('world', 'lifecycle_ordered', {
    server: 's0',
    identity: ID0,
    tool: 'read_file',
    step,
    descriptorDigests: [D1],
    delivery: options.delivery ?? 'delivered',
    answer: (options.delivery ?? 'delivered') === 'delivered' ? answer : null,
    code: answer === 'refused' ? 'REFERENCED' : null,
  });
}

/** A call of read_file D1 planned from `generation` by `session`, refused with `decision` (or admitted, with its receipt). */
function call(b: TraceBuilder, plan: string, generation: number, decision: string, session = SESSION): number {
  b.emit('world', 'plan_made', {
    session,
    planId: plan,
    key: KEY,
    generation,
    snapshotDigest: digestOf(`snapshot:${generation}`),
    tool: 'read_file',
    descriptorDigest: D1,
    kind: 'normal',
    expectAdmit: null,
  });
  const seq = b.emit('core', 'gate_decision', {
    callId: `call-${plan}`,
    planId: plan,
    session,
    key: KEY,
    tool: 'read_file',
    planDescriptorDigest: D1,
    generation,
    descriptorDigest: D1,
    policyEpoch: 1,
    decision,
  });
  if (decision !== 'ADMIT') return seq;
  return b.emit('core', 'receipt', {
    callId: `call-${plan}`,
    leaseId: `lease-${plan}`,
    key: KEY,
    tool: 'read_file',
    generation,
    descriptorDigest: D1,
    policyEpoch: 1,
    disclosure: { generation, snapshotDigest: digestOf(`snapshot:${generation}`) },
    pin: 7,
  });
}

/** The walk: the run of s0/acme.dev shown generation 1 before it, sunset and disabled delivered. */
function walked(): TraceBuilder {
  const b = new TraceBuilder();
  b.serverUp('s0', ID0);
  disclosure(b, 1);
  order(b, 20, 'sunset');
  order(b, 30, 'disabled');
  return b;
}

function i38(b: TraceBuilder): { found: Array<[number | null, string, string]>; checked: number } {
  b.roundEnd();
  const verdict = checkTrace(b.build());
  return {
    found: verdict.violations.filter((v) => v.invariant === 'I38').map((v) => [v.seq, v.code, v.evidence]),
    checked: verdict.checked.I38,
  };
}

describe('I38: no removal while referenced, no call after disabled', () => {
  it('a removal refused while the run references the version, and its later calls refused as disabled, hold', () => {
    const b = walked();
    order(b, 40, 'remove');
    call(b, 'p1', 1, 'VERSION_DISABLED');
    expect(i38(b)).toEqual({ found: [], checked: 3 });
  });

  it('a removal answered removed while a live run references the version fails at the order', () => {
    const b = walked();
    const seq = order(b, 40, 'remove', { answer: 'removed' });
    expect(i38(b).found).toEqual([
      [
        seq,
        'REMOVED_WHILE_REFERENCED',
        `the core answered the removal of "read_file" of s0 (1 version, seq ${seq}, t=40 ms) removed while 1 live run referenced one, e.g. run s0/acme.dev ${KEY}#1, shown ${D1.slice(0, 12)} before the walk began`,
      ],
    ]);
  });

  it("a call of the run refused VERSION_GONE after the removal fails, whatever the core answered; another run's does not", () => {
    const b = walked();
    const removal = order(b, 40, 'remove');
    const first = call(b, 'p1', 1, 'VERSION_GONE');
    call(b, 'p2', 1, 'VERSION_GONE');
    // s1/acme.dev is first shown generation 1 after the walk began: its run never pinned D1.
    disclosure(b, 1, 's1/acme.dev');
    call(b, 'p3', 1, 'VERSION_GONE', 's1/acme.dev');
    expect(i38(b).found).toEqual([
      [
        first,
        'REFERENCED_VERSION_VANISHED',
        `2 calls of "read_file" from runs that pinned it before the walk began were refused VERSION_GONE after the removal order (seq ${removal}, t=40 ms, answered refused REFERENCED), the first call call-p1 at seq ${first} (session s0/acme.dev): the version vanished under a live run`,
      ],
    ]);
  });

  it('a receipt of the version after disabled fails; one before it holds', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    disclosure(b, 1);
    order(b, 20, 'sunset');
    call(b, 'p0', 1, 'ADMIT');
    const disabled = order(b, 100, 'disabled');
    const receipt = call(b, 'p1', 1, 'ADMIT');
    expect(i38(b).found).toEqual([
      [
        receipt,
        'EXECUTED_AFTER_DISABLED',
        `1 call of "read_file" of s0 left the core after its versions were disabled (seq ${disabled}, t=100 ms), the first with receipt lease-p1 at seq ${receipt} (t=130 ms, ${KEY})`,
      ],
    ]);
  });

  it('orders written unsupported or host_down judge nothing', () => {
    for (const delivery of ['unsupported', 'host_down'] as const) {
      const b = new TraceBuilder();
      b.serverUp('s0', ID0);
      disclosure(b, 1);
      order(b, 20, 'sunset', { delivery });
      order(b, 30, 'disabled', { delivery });
      call(b, 'p1', 1, 'ADMIT');
      order(b, 100, 'remove', { delivery });
      call(b, 'p2', 1, 'VERSION_GONE');
      expect(i38(b)).toEqual({ found: [], checked: 0 });
    }
  });

  it('after announce, a call of the version refused for its lifecycle before the sunset fails; after it, or for another reason, holds', () => {
    const b = new TraceBuilder();
    b.serverUp('s0', ID0);
    disclosure(b, 1);
    const announce = order(b, 30, 'announce');
    // Generation 2, first shown after the announce: a correct core binds D1 in its bundle.
    disclosure(b, 2);
    const first = call(b, 'p1', 2, 'TOOL_NOT_PINNED');
    call(b, 'p2', 2, 'STALE_CATALOG');
    call(b, 'p3', 1, 'VERSION_SUNSET');
    order(b, 300, 'sunset');
    call(b, 'p4', 2, 'VERSION_SUNSET');
    const removal = order(b, 400, 'remove', { answer: 'removed' });
    const found = i38(b);
    expect(found.checked).toBe(3);
    expect(found.found).toEqual([
      [
        first,
        'ANNOUNCED_VERSION_REFUSED',
        `2 calls of "read_file" of s0 were refused for the lifecycle of a version the operator had only announced (seq ${announce}, t=30 ms) and nothing had made unbindable yet, the first call-p1 TOOL_NOT_PINNED at seq ${first} (session s0/acme.dev): an announced version is still bound and called`,
      ],
      [
        removal,
        'REMOVED_WHILE_REFERENCED',
        // Generation 2's run was shown D1 after the announce but before the sunset: it references it too.
        `the core answered the removal of "read_file" of s0 (1 version, seq ${removal}, t=400 ms) removed while 2 live runs referenced one, e.g. run s0/acme.dev ${KEY}#1, shown ${D1.slice(0, 12)} before the walk began`,
      ],
    ]);
  });
});
