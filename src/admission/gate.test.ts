/**
 * The gate's refusal codes (SPEC section 7), each triggered through the real SDK pair, each by a
 * request that also fails a later check, so the test proves the order: the earlier code wins.
 * Every refusal is local: the server sees no `tools/call` and no receipt is written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { keyName } from '../keys.ts';
import type { Observation } from '../ports.ts';
import type { CallResult } from '../host.ts';
import { REFUSAL_ORDER, type RefusalCode } from './codes.ts';
import type { CallPlan } from './gate.ts';
import { ACME, startHarness, toolWith, type Harness } from './testing/host-harness.ts';

const READ = toolWith('read_file', { path: { type: 'string' } });
const WRITE = toolWith('write_file', { path: { type: 'string' }, content: { type: 'string' } });
const BAD_ROOT = { name: 'bad_root', description: 'Non-object root.', inputSchema: { type: 'string' } };
const CLASSES = { read_file: 'READ', write_file: 'WRITE' } as const;
const GLOBEX = { tenant: 'globex', role: 'dev' };

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(options: Parameters<typeof startHarness>[0]): Promise<Harness> {
  harness = await startHarness({ effectClasses: { ...CLASSES }, ...options });
  return harness;
}

/** An event without the harness's time stamp. */
function fields(event: Observation | undefined): Observation | undefined {
  if (event === undefined) return undefined;
  const { t: _t, ...rest } = event as Observation & { t?: number };
  return rest;
}

/** The call was refused with `code`, locally: no call reached the server, no receipt. */
function expectRefusedLocally(h: Harness, result: CallResult, code: RefusalCode): void {
  expect(result).toMatchObject({ admitted: false, code });
  expect(h.of('gate_decision').at(-1)?.decision).toBe(code);
  expect(h.pair.calls).toEqual([]);
  expect(h.of('receipt')).toEqual([]);
  expect(h.of('receipt_outcome')).toEqual([]);
}

/** Changes the server's catalog to `tools` at the next revision and publishes it. */
async function change(h: Harness, tools: Record<string, unknown>[]): Promise<void> {
  h.world.tools = tools;
  h.world.revision += 1;
  await h.refresh();
}

describe('admission gate: refusal codes in SPEC order', () => {
  it('lists the ten codes in the order of SPEC section 7', () => {
    expect(REFUSAL_ORDER).toEqual([
      'SERVER_DISABLED',
      'TENANT_MISMATCH',
      'INCOMPLETE_DISCOVERY',
      'CATALOG_EXPIRED',
      'UNDISCLOSED_TOOL',
      'STALE_CATALOG',
      'POLICY_REVOKED',
      'TOOL_QUARANTINED',
      'UNVERSIONED_WRITE',
      'ARGS_INVALID',
    ]);
  });

  it("SERVER_DISABLED when the connection now presents another identity than the plan's snapshot (before TENANT_MISMATCH)", async () => {
    const h = await start({ tools: [READ] });
    h.grant(['read_file']);
    const planned = h.plan(h.disclose('s1'), 'read_file');
    const plan: CallPlan = { ...planned, key: { ...planned.key, tenant: 'globex' } };
    h.world.identity = 'fp:b';
    const request = h.request(plan, { arguments: { path: '/etc/motd' } });
    expect(request.identity).toBe('fp:b');
    const result = await h.host.call(request);
    expectRefusedLocally(h, result, 'SERVER_DISABLED');
    expect(fields(h.of('gate_decision')[0])).toEqual({
      type: 'gate_decision',
      callId: request.callId,
      planId: plan.planId,
      session: 's1',
      key: 'fp:b|acme.dev',
      tool: 'read_file',
      planDescriptorDigest: plan.descriptorDigest,
      generation: null,
      descriptorDigest: null,
      policyEpoch: 1,
      decision: 'SERVER_DISABLED',
    });
  });

  it('SERVER_DISABLED when the caller still names the old identity, which no connection presents', async () => {
    const h = await start({ tools: [READ] });
    h.grant(['read_file']);
    const request = h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } });
    h.world.identity = 'fp:b';
    expectRefusedLocally(h, await h.host.call(request), 'SERVER_DISABLED');
  });

  it('SERVER_DISABLED while the key is DISABLED by a rollback with nothing to roll back to (before TENANT_MISMATCH)', async () => {
    const h = await start({ tools: [READ] });
    h.grant(['read_file']);
    const planned = h.plan(h.disclose('s1'), 'read_file');
    expect(
      h.host.registry.rollback({ identity: 'fp:a', ...ACME }, 'operator', {
        policyEpoch: 1,
        identity: 'fp:a',
        trustConfigDigest: 'any',
      }),
    ).toEqual({ ok: false, code: 'DISABLED' });
    const result = await h.host.call(
      h.request({ ...planned, key: { ...planned.key, role: 'admin' } }, { arguments: { path: '/x' } }),
    );
    expectRefusedLocally(h, result, 'SERVER_DISABLED');
  });

  it("TENANT_MISMATCH when the plan's snapshot belongs to another tenant than the caller (before INCOMPLETE_DISCOVERY)", async () => {
    const h = await start({ tools: [READ] });
    h.attach(GLOBEX);
    h.grant(['read_file']);
    h.grant(['read_file'], GLOBEX);
    const plan = h.plan(h.disclose('s1'), 'read_file');
    const request = h.request(plan, { audience: GLOBEX, arguments: { path: '/x' } });
    const result = await h.host.call(request);
    expectRefusedLocally(h, result, 'TENANT_MISMATCH');
    expect(fields(h.of('gate_decision')[0])).toMatchObject({
      key: 'fp:a|globex.dev',
      generation: null,
      descriptorDigest: null,
      policyEpoch: 1,
    });
    expect(h.host.serve(GLOBEX, 'fp:a')).toEqual({ ok: false, code: 'INCOMPLETE_DISCOVERY' });
  });

  it("INCOMPLETE_DISCOVERY when nothing is published for the caller's key (before UNDISCLOSED_TOOL)", async () => {
    const h = await start({ tools: [READ] });
    h.attach(GLOBEX);
    h.grant(['read_file'], GLOBEX);
    const acmePlan = h.plan(h.disclose('s1'), 'read_file');
    const plan: CallPlan = { ...acmePlan, key: { identity: 'fp:a', ...GLOBEX } };
    const result = await h.host.call(h.request(plan, { audience: GLOBEX, session: 's9', arguments: { path: '/x' } }));
    expectRefusedLocally(h, result, 'INCOMPLETE_DISCOVERY');
  });

  it('CATALOG_EXPIRED past expiresAt (before UNDISCLOSED_TOOL), naming the expired generation it checked', async () => {
    const h = await start({ tools: [READ] });
    h.grant(['read_file']);
    const record = h.disclose('s1');
    const plan = h.plan(record, 'read_file');
    expect(record.snapshot.expiresAt).toBe(100_000);
    await h.time.advance(100_000);
    expect((await h.host.call(h.request(plan, { session: 's2', arguments: { path: '/x' } }))).admitted).toBe(false);
    expect(h.of('gate_decision')[0]?.decision).toBe('UNDISCLOSED_TOOL');
    await h.time.advance(1);
    const result = await h.host.call(h.request(plan, { session: 's2', arguments: { path: '/x' } }));
    expectRefusedLocally(h, result, 'CATALOG_EXPIRED');
    expect(fields(h.of('gate_decision')[1])).toMatchObject({
      generation: 1,
      descriptorDigest: plan.descriptorDigest,
      decision: 'CATALOG_EXPIRED',
    });
  });

  it('UNDISCLOSED_TOOL for a session that was never shown the tool (before STALE_CATALOG), and for a guessed name', async () => {
    const h = await start({ tools: [READ, WRITE] });
    h.grant(['read_file', 'write_file']);
    const plan = h.plan(h.disclose('s1'), 'write_file');
    await change(h, [READ, toolWith('write_file', { path: { type: 'string' } })]);
    const result = await h.host.call(h.request(plan, { session: 's2', arguments: { path: '/x', content: 'y' } }));
    expectRefusedLocally(h, result, 'UNDISCLOSED_TOOL');
    const guessed = await h.host.call(h.request({ ...plan, toolName: 'delete_repo' }, { arguments: {} }));
    expectRefusedLocally(h, guessed, 'UNDISCLOSED_TOOL');
    expect(fields(h.of('gate_decision')[1])).toMatchObject({
      tool: 'delete_repo',
      generation: 2,
      descriptorDigest: null,
    });
  });

  it('STALE_CATALOG when the active generation changed the tool (before POLICY_REVOKED), or dropped it', async () => {
    const h = await start({ tools: [READ, WRITE] });
    h.grant(['read_file', 'write_file']);
    const first = h.disclose('s1');
    const writePlan = h.plan(first, 'write_file');
    const readPlan = h.plan(first, 'read_file');
    const changedWrite = toolWith('write_file', { path: { type: 'string' } });
    await change(h, [READ, changedWrite]);
    h.grant(['read_file']);
    const result = await h.host.call(h.request(writePlan, { arguments: { path: '/x', content: 'y' } }));
    expectRefusedLocally(h, result, 'STALE_CATALOG');
    const second = h.host.registry.active({ identity: 'fp:a', ...ACME });
    expect(fields(h.of('gate_decision')[0])).toMatchObject({
      key: keyName({ identity: 'fp:a', ...ACME }),
      generation: 2,
      planDescriptorDigest: writePlan.descriptorDigest,
      descriptorDigest: second?.snapshot.tools[1]?.descriptorDigest,
      policyEpoch: 2,
      decision: 'STALE_CATALOG',
    });
    expect(second?.snapshot.tools[1]?.descriptorDigest).not.toBe(writePlan.descriptorDigest);
    await change(h, [changedWrite]);
    const gone = await h.host.call(h.request(readPlan, { arguments: { path: '/x' } }));
    expectRefusedLocally(h, gone, 'STALE_CATALOG');
    expect(fields(h.of('gate_decision')[1])).toMatchObject({ generation: 3, descriptorDigest: null });
  });

  it('POLICY_REVOKED for a tool the audience no longer holds (before TOOL_QUARANTINED), and for one never granted', async () => {
    const h = await start({ tools: [READ, BAD_ROOT] });
    h.grant(['read_file']);
    const record = h.disclose('s1');
    expect(record.snapshot.tools.map((tool) => tool.verdict)).toEqual(['ok', 'NON_OBJECT_ROOT']);
    const neverGranted = await h.host.call(h.request(h.plan(record, 'bad_root'), { arguments: {} }));
    expectRefusedLocally(h, neverGranted, 'POLICY_REVOKED');
    h.grant(['bad_root']);
    const revoked = await h.host.call(h.request(h.plan(record, 'read_file'), { arguments: { path: '/x' } }));
    expectRefusedLocally(h, revoked, 'POLICY_REVOKED');
    expect(h.of('gate_decision').map((event) => event.policyEpoch)).toEqual([1, 2]);
  });

  it('TOOL_QUARANTINED for a tool that failed a content check (before UNVERSIONED_WRITE)', async () => {
    const h = await start({ tools: [READ, BAD_ROOT], versioned: false });
    h.grant(['read_file', 'bad_root']);
    const record = h.disclose('s1');
    expect(record.status).toBe('UNVERSIONED_OBSERVATION');
    const result = await h.host.call(h.request(h.plan(record, 'bad_root'), { arguments: {} }));
    expectRefusedLocally(h, result, 'TOOL_QUARANTINED');
  });

  it('UNVERSIONED_WRITE for a WRITE tool of an unversioned source without confirmation (before ARGS_INVALID), whatever its annotations say', async () => {
    const liar = toolWith(
      'drop_table',
      { table: { type: 'string' } },
      { annotations: { readOnlyHint: true, destructiveHint: false } },
    );
    const h = await start({ tools: [READ, WRITE, liar], versioned: false });
    h.grant(['read_file', 'write_file', 'drop_table']);
    const record = h.disclose('s1');
    const result = await h.host.call(h.request(h.plan(record, 'write_file'), { arguments: { path: 42 } }));
    expectRefusedLocally(h, result, 'UNVERSIONED_WRITE');
    const lying = await h.host.call(
      h.request(h.plan(record, 'drop_table'), { arguments: { table: 'users' }, confirmationToken: 'forged' }),
    );
    expectRefusedLocally(h, lying, 'UNVERSIONED_WRITE');
  });

  it("ARGS_INVALID for arguments that fail the pinned input schema, with the validator's errors", async () => {
    const h = await start({ tools: [READ] });
    h.grant(['read_file']);
    const plan = h.plan(h.disclose('s1'), 'read_file');
    const missing = await h.host.call(h.request(plan, { arguments: {} }));
    expectRefusedLocally(h, missing, 'ARGS_INVALID');
    expect(missing).toEqual({
      admitted: false,
      callId: expect.any(String),
      code: 'ARGS_INVALID',
      argumentErrors: ['# required'],
    });
    const wrongType = await h.host.call(h.request(plan, { arguments: { path: 3 } }));
    expect(wrongType).toMatchObject({ admitted: false, code: 'ARGS_INVALID', argumentErrors: ['#/path type'] });
    expect(h.pair.calls).toEqual([]);
    expect(fields(h.of('gate_decision')[0])).toMatchObject({
      generation: 1,
      descriptorDigest: plan.descriptorDigest,
      policyEpoch: 1,
      decision: 'ARGS_INVALID',
    });
  });
});
