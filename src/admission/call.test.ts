/**
 * `CatalogHost.call` end to end through the real SDK pair: the ADMIT path (lease, pin, receipt,
 * outcome), the outcomes of the server's answers, leases dying with the policy epoch, the
 * `list_changed` barrier, and unversioned sources (READ admitted, WRITE only with a confirmation).
 */
import { createHmac } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../ports.ts';
import { jcs } from '../snapshot/canonical.ts';
import { BAD_LEASE_ERROR_CODE, LEASE_META_KEY, PIN_META_KEY, STALE_PIN_ERROR_CODE } from './codes.ts';
import { ServerErrorResponse } from '../mcp/server-errors.ts';
import { classifyCallFailure } from './dispatch.ts';
import { verifyLease, type SignedLease } from './lease.ts';
import { ACME, startHarness, TEST_LEASE_KEY, toolWith, type Harness } from './testing/host-harness.ts';
import type { CallAnswer, RecordedCall } from '../../test/support/scripted-server.ts';

const READ = toolWith('read_file', { path: { type: 'string' } });
const WRITE = toolWith('write_file', { path: { type: 'string' }, content: { type: 'string' } });
const CLASSES = { read_file: 'READ', write_file: 'WRITE' } as const;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(options: Partial<Parameters<typeof startHarness>[0]> = {}): Promise<Harness> {
  harness = await startHarness({ tools: [READ, WRITE], effectClasses: { ...CLASSES }, ...options });
  return harness;
}

/** An event without the harness's time stamp. */
function fields(event: Observation | undefined): Observation | undefined {
  if (event === undefined) return undefined;
  const { t: _t, ...rest } = event as Observation & { t?: number };
  return rest;
}

/** The admission events in order: `[type, decision or outcome]`. */
function admissionTrail(h: Harness): [string, unknown][] {
  return h.events
    .filter((event) => ['gate_decision', 'receipt', 'receipt_outcome'].includes(event.type))
    .map((event) => [
      event.type,
      event.type === 'gate_decision'
        ? event.decision
        : event.type === 'receipt_outcome'
          ? event.outcome
          : event.type === 'receipt'
            ? event.leaseId
            : undefined,
    ]);
}

function leaseSeen(call: RecordedCall | undefined): SignedLease {
  return call?.meta?.[LEASE_META_KEY] as SignedLease;
}

describe('CatalogHost.call: ADMIT', () => {
  it('issues a bound lease, sends pin and lease in _meta, writes one receipt then one receipt_outcome', async () => {
    const h = await start({ revision: 7 });
    h.grant(['read_file', 'write_file']);
    await h.time.advance(250);
    const record = h.disclose('s1');
    const plan = h.plan(record, 'read_file');
    const request = h.request(plan, { arguments: { path: '/etc/motd' } });
    const result = await h.host.call(request);

    expect(result).toEqual({
      admitted: true,
      callId: request.callId,
      leaseId: 'lease-0',
      outcome: 'ok',
      result: { content: [{ type: 'text', text: 'ok' }] },
    });
    expect(h.pair.calls).toHaveLength(1);
    const seen = h.pair.calls[0];
    expect(seen?.name).toBe('read_file');
    expect(seen?.arguments).toEqual({ path: '/etc/motd' });
    expect(seen?.meta?.[PIN_META_KEY]).toBe(7);
    const lease = leaseSeen(seen);
    expect(lease).toEqual({
      schema: 'catsim.lease.v1',
      leaseId: 'lease-0',
      key: 'fp:a|acme.dev',
      principal: 'alice',
      session: 's1',
      tool: 'read_file',
      resourceScope: 'repo:acme/widgets',
      generation: 1,
      descriptorDigest: plan.descriptorDigest,
      policyEpoch: 1,
      issuedAt: 250,
      notAfter: 5_250,
      mac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const { mac, ...signed } = lease;
    expect(mac).toBe(createHmac('sha256', TEST_LEASE_KEY).update(jcs(signed)).digest('hex'));
    expect(
      verifyLease(lease, TEST_LEASE_KEY, 250, {
        used: new Set(),
        key: 'fp:a|acme.dev',
        principal: 'alice',
        session: 's1',
        tool: 'read_file',
        resourceScope: 'repo:acme/widgets',
        generation: 1,
        descriptorDigest: plan.descriptorDigest,
        policyEpoch: 1,
      }),
    ).toEqual({ ok: true, lease });

    expect(admissionTrail(h)).toEqual([
      ['gate_decision', 'ADMIT'],
      ['receipt', 'lease-0'],
      ['receipt_outcome', 'ok'],
    ]);
    expect(fields(h.of('gate_decision')[0])).toEqual({
      type: 'gate_decision',
      callId: request.callId,
      planId: plan.planId,
      session: 's1',
      key: 'fp:a|acme.dev',
      tool: 'read_file',
      planDescriptorDigest: plan.descriptorDigest,
      generation: 1,
      descriptorDigest: plan.descriptorDigest,
      policyEpoch: 1,
      decision: 'ADMIT',
    });
    expect(fields(h.of('receipt')[0])).toEqual({
      type: 'receipt',
      callId: request.callId,
      leaseId: 'lease-0',
      key: 'fp:a|acme.dev',
      tool: 'read_file',
      generation: 1,
      descriptorDigest: plan.descriptorDigest,
      policyEpoch: 1,
      disclosure: { generation: 1, snapshotDigest: record.snapshotDigest },
      pin: 7,
    });
    expect(fields(h.of('receipt_outcome')[0])).toEqual({ type: 'receipt_outcome', leaseId: 'lease-0', outcome: 'ok' });
  });

  it('gives each call a fresh single-use lease id', async () => {
    const h = await start();
    h.grant(['read_file']);
    const plan = h.plan(h.disclose('s1'), 'read_file');
    await h.host.call(h.request(plan, { arguments: { path: '/a' } }));
    await h.host.call(h.request(plan, { arguments: { path: '/b' } }));
    expect(h.pair.calls.map((call) => leaseSeen(call).leaseId)).toEqual(['lease-0', 'lease-1']);
    expect(h.of('receipt').map((event) => event.leaseId)).toEqual(['lease-0', 'lease-1']);
  });

  it('sends a private copy of the arguments: a caller mutating them later changes nothing sent', async () => {
    const h = await start();
    h.grant(['read_file']);
    const args = { path: '/a' };
    const pending = h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: args }));
    args.path = '/etc/shadow';
    await pending;
    expect(h.pair.calls[0]?.arguments).toEqual({ path: '/a' });
  });
});

describe('CatalogHost.call: outcomes', () => {
  async function outcomeOf(
    answer: CallAnswer,
  ): Promise<{ h: Harness; result: Awaited<ReturnType<Harness['host']['call']>> }> {
    const h = await start({ onCall: () => answer });
    h.grant(['read_file']);
    const result = await h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } }));
    return { h, result };
  }

  it('an isError result is outcome error', async () => {
    const { h, result } = await outcomeOf({ result: { content: [{ type: 'text', text: 'boom' }], isError: true } });
    expect(result).toMatchObject({ admitted: true, outcome: 'error' });
    expect(admissionTrail(h)).toEqual([
      ['gate_decision', 'ADMIT'],
      ['receipt', 'lease-0'],
      ['receipt_outcome', 'error'],
    ]);
  });

  it('the stale-pin and bad-lease refusal codes are outcome refused, with data.reason', async () => {
    const stale = await outcomeOf({ error: STALE_PIN_ERROR_CODE, reason: 'STALE_PIN' });
    expect(stale.result).toMatchObject({ admitted: true, outcome: 'refused', errorCode: -32050, reason: 'STALE_PIN' });
    await stale.h.close();
    const bad = await outcomeOf({ error: BAD_LEASE_ERROR_CODE, reason: 'REUSED' });
    expect(bad.result).toMatchObject({ admitted: true, outcome: 'refused', errorCode: -32051, reason: 'REUSED' });
    expect(admissionTrail(bad.h)).toEqual([
      ['gate_decision', 'ADMIT'],
      ['receipt', 'lease-0'],
      ['receipt_outcome', 'refused'],
    ]);
  });

  it('any other JSON-RPC error is outcome error', async () => {
    const { result } = await outcomeOf({ error: -32602 });
    expect(result).toMatchObject({ admitted: true, outcome: 'error', errorCode: -32602 });
  });

  it("a server refusing at once with -32001 or -32000 (the SDK's own timeout and closed-connection codes) is outcome error, not unknown", async () => {
    const busy = await outcomeOf({ error: -32001, reason: 'server busy' });
    expect(busy.result).toMatchObject({ admitted: true, outcome: 'error', errorCode: -32001, reason: 'server busy' });
    expect(admissionTrail(busy.h)).toEqual([
      ['gate_decision', 'ADMIT'],
      ['receipt', 'lease-0'],
      ['receipt_outcome', 'error'],
    ]);
    await busy.h.close();
    const closed = await outcomeOf({ error: -32000 });
    expect(closed.result).toMatchObject({ admitted: true, outcome: 'error', errorCode: -32000 });
  });

  it('no answer within callTimeoutMs is outcome unknown, written once at the timeout', async () => {
    const h = await start({ onCall: () => ({ hang: true }) });
    h.grant(['read_file']);
    const pending = h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } }));
    await h.time.advance(999);
    expect(h.pair.calls).toHaveLength(1);
    expect(h.of('receipt_outcome')).toEqual([]);
    await h.time.advance(1);
    expect(await pending).toMatchObject({ admitted: true, outcome: 'unknown' });
    expect(h.of('receipt_outcome').map((event) => [event.t, event.outcome])).toEqual([[1_000, 'unknown']]);
  });
});

describe('leases die with their principal, session, use and policy epoch', () => {
  it('a server verifying leases executes the first use and refuses a replay with BAD_LEASE', async () => {
    const used = new Set<string>();
    let now = 0;
    const h = await start({
      onCall: (call) => {
        const verdict = verifyLease(call.meta?.[LEASE_META_KEY], TEST_LEASE_KEY, now, {
          used,
          principal: 'alice',
          tool: call.name,
        });
        return verdict.ok ? { result: { content: [] } } : { error: BAD_LEASE_ERROR_CODE, reason: verdict.reason };
      },
    });
    h.grant(['read_file']);
    const result = await h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } }));
    expect(result).toMatchObject({ admitted: true, outcome: 'ok' });
    now = h.time.now();
    const replay = h.pair.client.request(
      { method: 'tools/call', params: { name: 'read_file', arguments: { path: '/x' }, _meta: h.pair.calls[0]?.meta } },
      (await import('./dispatch.ts')).LenientCallToolResultSchema,
    );
    await expect(replay).rejects.toMatchObject({ code: BAD_LEASE_ERROR_CODE, data: { reason: 'REUSED' } });
  });

  it('verifyLease refuses a reused lease, another principal or session, a tampered or expired lease', async () => {
    const h = await start();
    h.grant(['read_file']);
    await h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } }));
    const lease = leaseSeen(h.pair.calls[0]);
    const used = new Set<string>();
    expect(verifyLease(lease, TEST_LEASE_KEY, 0, { used, principal: 'alice' }).ok).toBe(true);
    expect(verifyLease(lease, TEST_LEASE_KEY, 0, { used, principal: 'alice' })).toEqual({
      ok: false,
      reason: 'REUSED',
    });
    expect(verifyLease(lease, TEST_LEASE_KEY, 0, { used: new Set(), principal: 'mallory' })).toEqual({
      ok: false,
      reason: 'WRONG_PRINCIPAL',
    });
    expect(verifyLease(lease, TEST_LEASE_KEY, 0, { used: new Set(), session: 's2' })).toEqual({
      ok: false,
      reason: 'WRONG_SESSION',
    });
    expect(
      verifyLease({ ...lease, principal: 'mallory' }, TEST_LEASE_KEY, 0, { used: new Set(), principal: 'mallory' }),
    ).toEqual({ ok: false, reason: 'BAD_MAC' });
    expect(verifyLease(lease, TEST_LEASE_KEY, 5_000, { used: new Set() }).ok).toBe(true);
    expect(verifyLease(lease, TEST_LEASE_KEY, 5_001, { used: new Set() })).toEqual({ ok: false, reason: 'EXPIRED' });
  });

  it('an epoch move kills an outstanding lease; the next call is leased at the new epoch, a revocation refuses it', async () => {
    const h = await start();
    h.grant(['read_file']);
    const plan = h.plan(h.disclose('s1'), 'read_file');
    await h.host.call(h.request(plan, { arguments: { path: '/x' } }));
    const outstanding = leaseSeen(h.pair.calls[0]);
    expect(outstanding.policyEpoch).toBe(1);
    h.grant(['read_file', 'write_file']);
    const serverEpoch = h.host.policy.epoch(ACME);
    expect(serverEpoch).toBe(2);
    expect(verifyLease(outstanding, TEST_LEASE_KEY, 1, { used: new Set(), policyEpoch: serverEpoch })).toEqual({
      ok: false,
      reason: 'EPOCH_MOVED',
    });
    await h.host.call(h.request(plan, { arguments: { path: '/y' } }));
    expect(leaseSeen(h.pair.calls[1]).policyEpoch).toBe(2);
    h.grant(['write_file']);
    expect(await h.host.call(h.request(plan, { arguments: { path: '/z' } }))).toMatchObject({
      admitted: false,
      code: 'POLICY_REVOKED',
    });
    expect(h.pair.calls).toHaveLength(2);
  });
});

describe('the list_changed barrier', () => {
  it('a call issued right after a notification waits for the refresh, then gets STALE_CATALOG for the changed tool', async () => {
    const h = await start();
    h.grant(['read_file', 'write_file']);
    const plan = h.plan(h.disclose('s1'), 'write_file');
    h.world.tools = [READ, toolWith('write_file', { path: { type: 'string' } })];
    h.world.revision = 2;
    await h.pair.server.sendToolListChanged();
    await h.time.settle();
    const mark = h.events.length;
    const pending = h.host.call(h.request(plan, { arguments: { path: '/x', content: 'y' } }));
    await h.time.advance(19);
    expect(h.events.slice(mark)).toEqual([]);
    await h.time.advance(1);
    expect(await pending).toMatchObject({ admitted: false, code: 'STALE_CATALOG' });
    expect(h.events.slice(mark).map((event) => [event.t, event.type])).toEqual([
      [20, 'scan_started'],
      [20, 'page_read'],
      [20, 'page_read'],
      [20, 'scan_ended'],
      [20, 'published'],
      [20, 'gate_decision'],
    ]);
    expect(h.of('gate_decision')[0]).toMatchObject({
      generation: 2,
      planDescriptorDigest: plan.descriptorDigest,
      decision: 'STALE_CATALOG',
    });
    expect(h.pair.calls).toEqual([]);
  });

  it('a notification that changed nothing holds the call until the refresh, then admits it against the new generation', async () => {
    // The grant moved the policy epoch after generation 1 was scanned (at epoch 0), so the rescan
    // publishes generation 2 with the same tools instead of confirming generation 1.
    const h = await start();
    h.grant(['read_file']);
    const record = h.disclose('s1');
    const plan = h.plan(record, 'read_file');
    await h.pair.server.sendToolListChanged();
    await h.time.settle();
    const pending = h.host.call(h.request(plan, { arguments: { path: '/x' } }));
    await h.time.advance(20);
    expect(await pending).toMatchObject({ admitted: true, outcome: 'ok' });
    expect(h.events.filter((event) => event.t === 20).map((event) => event.type)).toEqual([
      'scan_started',
      'page_read',
      'page_read',
      'scan_ended',
      'published',
      'gate_decision',
      'receipt',
      'receipt_outcome',
    ]);
    expect(h.of('receipt')[0]).toMatchObject({
      generation: 2,
      pin: 1,
      disclosure: { generation: 1, snapshotDigest: record.snapshotDigest },
    });
  });

  it('a call without a pending notification is decided at once', async () => {
    const h = await start();
    h.grant(['read_file']);
    const result = await h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } }));
    expect(result).toMatchObject({ admitted: true });
    expect(h.refreshers[0]?.listChangePending).toBe(false);
  });
});

describe('connections', () => {
  it('a call finding its connection cut reconnects, waits for a scan on the new connection, and goes out on it', async () => {
    // A list_changed sent while the connection was down is never replayed, so the new connection
    // counts as one: the call is held until a scan started on it has settled (listChangedDelayMs 20).
    const h = await start();
    h.grant(['read_file']);
    const plan = h.plan(h.disclose('s1'), 'read_file');
    const cut = h.pair;
    await cut.close();
    expect(h.source.currentClient()).toBeUndefined();
    const mark = h.events.length;
    const t0 = h.time.now();
    const pending = h.host.call(h.request(plan, { arguments: { path: '/x' } }));
    await h.time.advance(19);
    expect(h.events.slice(mark)).toEqual([]);
    expect(h.refreshers[0]?.listChangePending).toBe(true);
    await h.time.advance(1);
    expect(await pending).toMatchObject({ admitted: true, outcome: 'ok' });
    expect(h.events.slice(mark).map((event) => [event.t - t0, event.type])).toEqual([
      [20, 'scan_started'],
      [20, 'page_read'],
      [20, 'page_read'],
      [20, 'scan_ended'],
      [20, 'published'],
      [20, 'gate_decision'],
      [20, 'receipt'],
      [20, 'receipt_outcome'],
    ]);
    expect(h.pairs).toHaveLength(2);
    expect([cut.calls.length, h.pair.calls.length]).toEqual([0, 1]);
  });

  it('a call on a connection that is cut while it is out ends unknown (the server may have run it)', async () => {
    const h = await start({ onCall: () => ({ hang: true }) });
    h.grant(['read_file']);
    const pending = h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } }));
    await h.time.settle();
    await h.pair.close();
    expect(await pending).toMatchObject({ admitted: true, outcome: 'unknown', errorCode: -32000 });
    expect(admissionTrail(h)).toEqual([
      ['gate_decision', 'ADMIT'],
      ['receipt', 'lease-0'],
      ['receipt_outcome', 'unknown'],
    ]);
  });
});

describe('unversioned sources', () => {
  it('admit a READ tool without a confirmation and send no pin', async () => {
    const h = await start({ versioned: false });
    h.grant(['read_file']);
    const record = h.disclose('s1');
    expect([record.status, record.snapshot.sourceRevision]).toEqual(['UNVERSIONED_OBSERVATION', null]);
    const result = await h.host.call(h.request(h.plan(record, 'read_file'), { arguments: { path: '/x' } }));
    expect(result).toMatchObject({ admitted: true, outcome: 'ok' });
    expect(Object.keys(h.pair.calls[0]?.meta ?? {})).toEqual([LEASE_META_KEY]);
    expect(h.of('receipt')[0]?.pin).toBeNull();
  });

  it('refuse a WRITE tool with UNVERSIONED_WRITE without a valid confirmation, and admit it with one', async () => {
    const confirmed = new Map([['s1/plan-write_file-1', 'token-1']]);
    const h = await start({
      versioned: false,
      config: {
        confirmations: { verify: (session, planId, token) => confirmed.get(`${session}/${planId}`) === token },
      },
    });
    h.grant(['write_file']);
    const plan = h.plan(h.disclose('s1'), 'write_file');
    const args = { path: '/x', content: 'y' };
    expect(await h.host.call(h.request(plan, { arguments: args }))).toMatchObject({
      admitted: false,
      code: 'UNVERSIONED_WRITE',
    });
    expect(await h.host.call(h.request(plan, { arguments: args, confirmationToken: 'token-2' }))).toMatchObject({
      admitted: false,
      code: 'UNVERSIONED_WRITE',
    });
    expect(h.pair.calls).toEqual([]);
    expect(await h.host.call(h.request(plan, { arguments: args, confirmationToken: 'token-1' }))).toMatchObject({
      admitted: true,
      outcome: 'ok',
    });
    expect(h.pair.calls.map((call) => call.name)).toEqual(['write_file']);
    expect(h.of('gate_decision').map((event) => event.decision)).toEqual([
      'UNVERSIONED_WRITE',
      'UNVERSIONED_WRITE',
      'ADMIT',
    ]);
  });
});

describe('configuration', () => {
  it('call rejects with a TypeError when the host has no leaseKey', async () => {
    const h = await start({ config: { leaseKey: undefined } });
    h.grant(['read_file']);
    await expect(
      h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } })),
    ).rejects.toThrow(TypeError);
  });

  it("classifies by origin: the SDK's own -32001 and -32000 are unknown, the same codes from the server are errors", () => {
    expect(classifyCallFailure(new McpError(-32001, 'Request timed out'))).toEqual({
      outcome: 'unknown',
      errorCode: -32001,
    });
    expect(classifyCallFailure(new McpError(-32000, 'Connection closed'))).toEqual({
      outcome: 'unknown',
      errorCode: -32000,
    });
    const busy = new ServerErrorResponse(
      { code: -32001, message: 'server busy', data: { reason: 'busy' } },
      new McpError(-32001, 'server busy'),
    );
    expect(classifyCallFailure(busy)).toEqual({ outcome: 'error', errorCode: -32001, reason: 'busy' });
    const stale = new ServerErrorResponse(
      { code: STALE_PIN_ERROR_CODE, message: 'stale', data: { reason: 'STALE_PIN' } },
      undefined,
    );
    expect(classifyCallFailure(stale)).toEqual({
      outcome: 'refused',
      errorCode: STALE_PIN_ERROR_CODE,
      reason: 'STALE_PIN',
    });
  });

  it('McpError codes used by the SDK are not the refusal codes', () => {
    expect(new Set([STALE_PIN_ERROR_CODE, BAD_LEASE_ERROR_CODE, -32000, -32001, -32042]).size).toBe(5);
    expect(new McpError(STALE_PIN_ERROR_CODE, 'x').code).toBe(-32050);
  });
});

describe('CatalogHost.rollback (seed 001 rollout rule)', () => {
  it('rolls back to the previous generation discovered under the epoch holding now; calls are then leased for the new active generation only', async () => {
    const h = await start({ revision: 1 });
    h.world.revision = 2;
    await h.refresh();
    h.world.revision = 3;
    await h.refresh();
    // Generations 1, 2 and 3 were all discovered before any grant (epoch 0).
    const rolled = await h.host.rollback(ACME, 'fp:a', 'missing-tool rate rose');
    expect(
      rolled.ok && [
        rolled.record.catalogGeneration,
        rolled.record.rolledBackFrom,
        rolled.record.snapshot.sourceRevision,
      ],
    ).toEqual([4, 2, 2]);
    h.grant(['read_file']);
    const record = h.disclose('s1');
    expect(record.catalogGeneration).toBe(4);
    const result = await h.host.call(h.request(h.plan(record, 'read_file'), { arguments: { path: '/x' } }));
    expect(result.admitted).toBe(true);
    expect(h.of('receipt').map((receipt) => [receipt.generation, receipt.pin])).toEqual([[4, 2]]);
    expect(h.pair.calls[0]?.meta?.[PIN_META_KEY]).toBe(2);
  });

  it('DISABLES the key when the earlier generation was discovered under an older policy epoch: nothing is served or admitted', async () => {
    const h = await start({ revision: 1 });
    h.grant(['read_file']);
    h.world.revision = 2;
    await h.refresh();
    const planned = h.plan(h.disclose('s1'), 'read_file');
    // Generation 1 was discovered at epoch 0; the policy holding now is epoch 1.
    expect(await h.host.rollback(ACME, 'fp:a', 'privilege escalation')).toEqual({ ok: false, code: 'DISABLED' });
    expect(fields(h.events.at(-1))).toEqual({
      type: 'server_disabled',
      key: 'fp:a|acme.dev',
      reason: 'privilege escalation',
    });
    expect(h.host.serve(ACME, 'fp:a')).toEqual({ ok: false, code: 'SERVER_DISABLED' });
    const result = await h.host.call(h.request(planned, { arguments: { path: '/x' } }));
    expect(result).toMatchObject({ admitted: false, code: 'SERVER_DISABLED' });
    expect(h.pair.calls).toEqual([]);
  });

  it("DISABLES the key when the server no longer presents the key's identity (nothing proves the old catalog is its)", async () => {
    const h = await start({ revision: 1 });
    h.world.revision = 2;
    await h.refresh();
    h.world.identity = 'fp:b';
    expect(await h.host.rollback(ACME, 'fp:a', 'operator')).toEqual({ ok: false, code: 'DISABLED' });
    expect(h.host.registry.active({ identity: 'fp:a', ...ACME })?.catalogGeneration).toBe(2);
  });
});
