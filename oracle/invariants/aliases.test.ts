/**
 * I37 on hand-built traces: s0 presents ID0 and its operator's manifest file gives tool ids
 * `s0.<name>`; `read_file` is listed as D1 in generation 1 of the acme.dev key, which the world
 * discloses to a session before each run's calls. The operator sets the production alias of
 * `read_file` at release 0 (t=200) and flips it to release 1 (t=400); receipts name version 1
 * (manifest M1) or version 2 (manifest M2). A run that changes definition mid-run, a run started
 * after the flip that binds the old definition, one started after a refused breaking flip that
 * binds the new one, and one started after a rollback that keeps the flipped one fail; runs that
 * bind what the alias named when they started pass; orders the core never heard judge nothing.
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { digestOf, ID0, TraceBuilder } from '../testing/trace-builder.ts';

const D1 = digestOf('read_file#1');
const M1 = digestOf('manifest#1');
const M2 = digestOf('manifest#2');
const KEY = `${ID0}|acme.dev`;

type Delivery = 'delivered' | 'unsupported' | 'host_down';

/** Calls made in the trace being built (ids l1, l2, ...). */
let calls = 0;

function start(): TraceBuilder {
  calls = 0;
  const b = new TraceBuilder();
  b.serverUp('s0', ID0);
  b.emit('world', 'operator_manifest', { server: 's0', identities: [ID0], toolIdPrefix: 's0.' });
  return b;
}

function disclose(b: TraceBuilder, session: string): number {
  return b.emit('world', 'disclosure', {
    session,
    server: 's0',
    audience: 'acme.dev',
    key: KEY,
    generation: 1,
    snapshotDigest: digestOf('snapshot:1'),
    tools: [D1],
  });
}

function order(
  b: TraceBuilder,
  t: number,
  action: 'set' | 'rollback',
  options: { release?: number; change?: string | null; migration?: boolean; delivery?: Delivery } = {},
): number {
  return b.at(t).emit('world', 'alias_ordered', {
    server: 's0',
    identity: ID0,
    tool: 'read_file',
    action,
    descriptorDigest: action === 'set' ? D1 : null,
    release: action === 'set' ? (options.release ?? 0) : null,
    change: options.change ?? null,
    migration: options.migration ?? false,
    delivery: options.delivery ?? 'delivered',
  });
}

/** An admitted call of read_file by `session` through generation 1, binding version `version`. */
function call(b: TraceBuilder, session: string, version: 1 | 2): number {
  calls += 1;
  const callId = `${session}#p${calls}`;
  b.emit('core', 'gate_decision', {
    callId,
    planId: `p${calls}`,
    session,
    key: KEY,
    tool: 'read_file',
    planDescriptorDigest: D1,
    generation: 1,
    descriptorDigest: D1,
    policyEpoch: 1,
    decision: 'ADMIT',
  });
  return b.emit('core', 'receipt', {
    callId,
    leaseId: `l${calls}`,
    key: KEY,
    tool: 'read_file',
    generation: 1,
    descriptorDigest: D1,
    policyEpoch: 1,
    disclosure: { generation: 1, snapshotDigest: digestOf('snapshot:1') },
    pin: 7,
    version: { toolId: 's0.read_file', version, manifestDigest: version === 1 ? M1 : M2 },
  });
}

function i37(b: TraceBuilder): { found: Array<[number | null, string]>; checked: number } {
  b.roundEnd();
  const verdict = checkTrace(b.build());
  return {
    found: verdict.violations.filter((v) => v.invariant === 'I37').map((v) => [v.seq, v.code]),
    checked: verdict.checked.I37,
  };
}

/** Session a is shown generation 1 and calls (version 1) before the alias is set and flipped. */
function flipped(change: string | null = 'compatible', migration = false): TraceBuilder {
  const b = start();
  disclose(b, 'a');
  call(b, 'a', 1);
  order(b, 200, 'set', { release: 0 });
  order(b, 400, 'set', { release: 1, change, migration });
  return b;
}

describe('I37: no run sees a definition change mid-run; a flip binds later runs only', () => {
  it('a run whose calls bind another version after the flip fails at that call', () => {
    const b = flipped();
    const seq = call(b, 'a', 2);
    expect(i37(b)).toEqual({ found: [[seq, 'DEFINITION_CHANGED_MID_RUN']], checked: 2 });
    const evidence = checkTrace(b.build()).violations.find((v) => v.invariant === 'I37')?.evidence;
    expect(evidence).toBe(
      `receipt l2 (seq ${seq}) of run a ${KEY}#1 binds s0.read_file v2 (manifest ${M2.slice(0, 12)}); the run's first receipt l1 (seq 4) bound s0.read_file v1 (manifest ${M1.slice(0, 12)})`,
    );
  });

  it('the run keeps version 1 and a run started after the flip binds version 2: holds', () => {
    const b = flipped();
    call(b, 'a', 1);
    disclose(b, 'b');
    call(b, 'b', 2);
    expect(i37(b)).toEqual({ found: [], checked: 2 });
  });

  it('a run started after the flip that binds what runs bound under release 0 fails: the flip was not bound', () => {
    const b = flipped();
    disclose(b, 'b');
    const seq = call(b, 'b', 1);
    expect(i37(b)).toEqual({ found: [[seq, 'ALIAS_TARGET_NOT_BOUND']], checked: 2 });
  });

  it('a breaking flip without a migration leaves the alias where it was: a later run binding version 2 fails', () => {
    const b = flipped('breaking');
    disclose(b, 'b');
    const seq = call(b, 'b', 2);
    expect(i37(b)).toEqual({ found: [[seq, 'BREAKING_BOUND_WITHOUT_MIGRATION']], checked: 2 });
    const kept = flipped('breaking');
    disclose(kept, 'b');
    call(kept, 'b', 1);
    expect(i37(kept)).toEqual({ found: [], checked: 2 });
    const migrated = flipped('breaking', true);
    disclose(migrated, 'b');
    call(migrated, 'b', 2);
    expect(i37(migrated)).toEqual({ found: [], checked: 2 });
  });

  it('a rollback restores later runs only: a run started after it binds version 1 again', () => {
    const b = flipped();
    disclose(b, 'b');
    call(b, 'b', 2);
    order(b, 600, 'rollback');
    call(b, 'b', 2);
    disclose(b, 'c');
    const seq = call(b, 'c', 2);
    expect(i37(b)).toEqual({ found: [[seq, 'ALIAS_TARGET_NOT_BOUND']], checked: 3 });
  });

  it('orders the core never heard judge nothing', () => {
    for (const delivery of ['unsupported', 'host_down'] as const) {
      const b = start();
      disclose(b, 'a');
      call(b, 'a', 1);
      order(b, 200, 'set', { release: 0, delivery });
      order(b, 400, 'set', { release: 1, change: 'compatible', delivery });
      call(b, 'a', 2);
      expect(i37(b)).toEqual({ found: [], checked: 0 });
    }
  });
});
