/**
 * `CatalogHost` with a capability registry (SPEC section 9): a disclosure registers the versions
 * of the generation's tools and pins the session's run on its bundle; a call is refused with the
 * registry's own code when its pinned version is disabled or emergency-disabled, and a call that
 * leaves the core writes a capability receipt naming the exact version, endpoint and build. On a
 * harness over a real SDK pair (src/admission/testing/host-harness.ts), on virtual time; the
 * server `fp:a` lists `read_file` at revision 7 and the first scan publishes generation 1 at t=0.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, toolWith, type Harness } from '../admission/testing/host-harness.ts';
import { openSqliteStore } from '../registry/sqlite-store.ts';
import { afterThisTest, tempDir } from '../registry/testing/temp-dirs.ts';
import { InMemoryCapabilityStore } from './capability-store.ts';
import { HostCapabilities } from './host-capabilities.ts';
import { buildManifest, manifestDigestOf } from './manifest.ts';

const READ = toolWith('read_file', { path: { type: 'string' } });
const RUN_ID = 's1|fp:a|acme.dev#1';

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** A harness whose host keeps its capabilities in memory; `read_file` granted, t=250 ms. */
async function started(): Promise<Harness> {
  const h = await startHarness({
    tools: [READ],
    effectClasses: { read_file: 'READ' },
    revision: 7,
    capabilities: new InMemoryCapabilityStore(),
  });
  harnesses.push(h);
  h.grant(['read_file']);
  await h.time.advance(250);
  return h;
}

/** The host's capability registry (the harness always gives it one). */
function registryOf(h: Harness) {
  const capabilities = h.host.capabilities;
  if (capabilities === undefined) throw new Error('the harness host has no capability registry');
  return capabilities.registry;
}

describe('CatalogHost with a capability registry', () => {
  it('pins the session run at disclosure and writes a receipt naming the exact version that ran', async () => {
    const h = await started();
    const record = h.disclose('s1');
    const registry = registryOf(h);
    const manifest = buildManifest(READ, 'fp:a');
    expect(registry.version('fp:a.read_file', 1)?.manifestDigest).toBe(manifestDigestOf(manifest));
    expect(registry.usage('fp:a.read_file', 1)).toMatchObject({ runs: [RUN_ID], receipts: 0 });
    const result = await h.host.call(h.request(h.plan(record, 'read_file'), { arguments: { path: '/etc/motd' } }));
    expect(result).toMatchObject({ admitted: true, leaseId: 'lease-0', outcome: 'ok' });
    expect(registry.receipts()).toEqual([
      {
        receiptNumber: 1,
        runId: RUN_ID,
        bundleId: `fp:a|acme.dev#1@${record.snapshotDigest.slice(0, 16)}`,
        toolId: 'fp:a.read_file',
        version: 1,
        manifestDigest: manifestDigestOf(manifest),
        inputSchemaHash: manifest.inputSchemaHash,
        outputSchemaHash: null,
        errorSchemaHash: manifest.errorSchemaHash,
        endpoint: { server: 'fp:a', identity: 'fp:a', build: '1.0.0', backup: false },
        operationId: 'lease-0',
        at: 250,
      },
    ]);
  });

  it('refuses VERSION_EMERGENCY_DISABLED at once, with the status as the reason, and sends nothing', async () => {
    const h = await started();
    const record = h.disclose('s1');
    expect(registryOf(h).emergencyDisable('fp:a.read_file', 1, 'leaked tokens').ok).toBe(true);
    const request = h.request(h.plan(record, 'read_file'), { arguments: { path: '/etc/motd' } });
    expect(await h.host.call(request)).toEqual({
      admitted: false,
      callId: request.callId,
      code: 'VERSION_EMERGENCY_DISABLED',
      reason: 'fp:a.read_file v1 is emergency-disabled since t=250 ms: leaked tokens',
    });
    expect(h.of('gate_decision').map((event) => event.decision)).toEqual(['VERSION_EMERGENCY_DISABLED']);
    expect(h.of('receipt')).toEqual([]);
    expect(h.pair.calls).toEqual([]);
    expect(registryOf(h).receipts()).toEqual([]);
  });

  it('refuses before the gate: an emergency-disabled version with invalid arguments is VERSION_EMERGENCY_DISABLED, not ARGS_INVALID', async () => {
    const h = await started();
    const record = h.disclose('s1');
    registryOf(h).emergencyDisable('fp:a.read_file', 1, 'leaked tokens');
    const result = await h.host.call(h.request(h.plan(record, 'read_file'), { arguments: { path: 42 } }));
    expect(result).toMatchObject({ admitted: false, code: 'VERSION_EMERGENCY_DISABLED' });
  });

  it('refuses VERSION_DISABLED once the pinned version reached the disabled stage', async () => {
    const h = await started();
    const record = h.disclose('s1');
    registryOf(h).deprecate('fp:a.read_file', 1, 'disabled', { reason: 'replaced by read_file v2' });
    const result = await h.host.call(h.request(h.plan(record, 'read_file'), { arguments: { path: '/etc/motd' } }));
    expect(result).toMatchObject({
      admitted: false,
      code: 'VERSION_DISABLED',
      reason: 'fp:a.read_file v1 is at disabled since t=250 ms: replaced by read_file v2',
    });
    expect(h.pair.calls).toEqual([]);
  });

  it('registers a description-only change as a new, behavioural version; a run pinned on the old one keeps it', async () => {
    const h = await started();
    const first = h.disclose('s1');
    h.world.tools = [{ ...READ, description: 'Reads any file, including secrets.' }];
    h.world.revision = 8;
    await h.refresh();
    const second = h.disclose('s2');
    expect(second.catalogGeneration).toBe(2);
    const registry = registryOf(h);
    expect(registry.version('fp:a.read_file', 2)?.diffFromPrevious?.class).toBe('behavioural');
    // s1's plan is for version 1's descriptor, which the server no longer lists: the gate's STALE_CATALOG.
    const stale = await h.host.call(h.request(h.plan(first, 'read_file'), { arguments: { path: '/a' } }));
    expect(stale).toMatchObject({ admitted: false, code: 'STALE_CATALOG' });
    const fresh = await h.host.call(
      h.request(h.plan(second, 'read_file'), { session: 's2', arguments: { path: '/a' } }),
    );
    expect(fresh).toMatchObject({ admitted: true });
    expect(registry.receipts().map((receipt) => [receipt.runId, receipt.version])).toEqual([['s2|fp:a|acme.dev#2', 2]]);
  });

  it('ends the session runs when the session ends', async () => {
    const h = await started();
    h.disclose('s1');
    h.host.endSession('s1');
    expect(registryOf(h).usage('fp:a.read_file', 1)).toMatchObject({ runs: [], endedRuns: [RUN_ID] });
  });

  it('keeps versions and receipts in the SQLite file a host opens from storePath', async () => {
    const path = join(tempDir(), 'catalog.db');
    const h = await startHarness({
      tools: [READ],
      effectClasses: { read_file: 'READ' },
      config: { storePath: path },
    });
    harnesses.push(h);
    h.grant(['read_file']);
    const record = h.disclose('s1');
    await h.host.call(h.request(h.plan(record, 'read_file'), { arguments: { path: '/a' } }));
    await h.close();
    harnesses.splice(0);
    const store = openSqliteStore({ path });
    afterThisTest(() => store.close());
    expect(
      store
        .capabilities()
        .receipts()
        .map((receipt) => [receipt.toolId, receipt.version, receipt.operationId]),
    ).toEqual([['fp:a.read_file', 1, 'lease-0']]);
  });

  it('a whole-tool emergency disable holds for the next process of the host on the same store, before any version exists', () => {
    const store = new InMemoryCapabilityStore();
    const clock = { now: () => 120 };
    new HostCapabilities({ clock, store }).disableTool('fp:a', 'read_file', 'leaked tokens');
    const next = new HostCapabilities({ clock, store });
    expect(next.toolRefusal('fp:a', 'read_file')).toEqual({
      ok: false,
      code: 'VERSION_EMERGENCY_DISABLED',
      reason: 'fp:a.read_file is emergency-disabled: leaked tokens',
    });
    expect(next.toolRefusal('fp:a', 'write_file')).toBeUndefined();
    expect(next.registry.audit().map((record) => [record.action, record.subject, record.at])).toEqual([
      ['emergency-disable', 'fp:a.read_file@*', 120],
    ]);
  });

  it('a deprecation by descriptor moves a registered version to no-new-binding and holds for the next process before the others exist', () => {
    const store = new InMemoryCapabilityStore();
    const clock = { now: () => 300 };
    const first = new HostCapabilities({ clock, store });
    const manifest = buildManifest(READ, 'fp:a');
    first.registry.register(manifest);
    const unseen = 'f'.repeat(64);
    first.deprecateListed('fp:a', 'read_file', [unseen, manifest.descriptorDigest], 'superseded by v2');
    expect(first.registry.status('fp:a.read_file', 1)).toMatchObject({ stage: 'no-new-binding', bindable: false });
    const next = new HostCapabilities({ clock, store });
    const recorded = [...next.registry.deprecatedDescriptors()].map(([toolId, byDigest]) => [
      toolId,
      Object.fromEntries(byDigest),
    ]);
    expect(recorded).toEqual([
      ['fp:a.read_file', { [manifest.descriptorDigest]: 'superseded by v2', [unseen]: 'superseded by v2' }],
    ]);
    expect(next.registry.audit().map((record) => [record.action, record.subject])).toEqual([
      ['register', 'fp:a.read_file@1'],
      ['deprecation', `fp:a.read_file#${[unseen, manifest.descriptorDigest].sort().join(',')}`],
    ]);
    next.deprecateListed('fp:a', 'read_file', [], 'nothing listed');
    expect(next.registry.audit()).toHaveLength(2);
  });

  it('a walk by descriptor to sunset and disabled holds for the next process, and a version nothing references is removed', () => {
    const store = new InMemoryCapabilityStore();
    const clock = { now: () => 300 };
    const first = new HostCapabilities({ clock, store });
    const manifest = buildManifest(READ, 'fp:a');
    first.registry.register(manifest);
    const digest = manifest.descriptorDigest;
    first.deprecateListed('fp:a', 'read_file', [digest], 'F35 sunset', 'sunset');
    expect(first.registry.status('fp:a.read_file', 1)).toMatchObject({ stage: 'sunset', executable: true });
    expect(first.removeListed('fp:a', 'read_file', [digest], 'too early')).toEqual({
      ok: false,
      code: 'NOT_DISABLED',
      reason: 'fp:a.read_file v1 is at sunset, not disabled',
    });
    first.deprecateListed('fp:a', 'read_file', [digest], 'F35 disabled', 'disabled');
    const next = new HostCapabilities({ clock, store });
    expect(
      [...next.registry.descriptorStages()].map(([toolId, byDigest]) => [toolId, Object.fromEntries(byDigest)]),
    ).toEqual([['fp:a.read_file', { [digest]: { stage: 'disabled', reason: 'F35 disabled' } }]]);
    expect(next.registry.audit().map((record) => record.subject)).toEqual([
      'fp:a.read_file@1',
      `fp:a.read_file#${digest}@sunset`,
      `fp:a.read_file#${digest}@disabled`,
    ]);
    // No bundle and no run ever pinned v1: it is removed, and a second order has nothing left to do.
    expect(next.removeListed('fp:a', 'read_file', [digest], 'F35 removal')).toEqual({ ok: true, removed: [1] });
    expect(next.registry.status('fp:a.read_file', 1)).toMatchObject({ removed: true, executable: false });
    expect(next.removeListed('fp:a', 'read_file', [digest], 'again')).toEqual({ ok: true, removed: [] });
    expect(next.removeListed('fp:a', 'read_file', ['f'.repeat(64)], 'unseen')).toMatchObject({
      ok: false,
      code: 'VERSION_UNKNOWN',
    });
  });

  it('a disabled version a live run pins is refused VERSION_DISABLED and never removed (REFERENCED)', async () => {
    const h = await started();
    const record = h.disclose('s1');
    const capabilities = h.host.capabilities as HostCapabilities;
    const digest = buildManifest(READ, 'fp:a').descriptorDigest;
    capabilities.deprecateListed('fp:a', 'read_file', [digest], 'F35 sunset', 'sunset');
    capabilities.deprecateListed('fp:a', 'read_file', [digest], 'F35 disabled', 'disabled');
    const result = await h.host.call(h.request(h.plan(record, 'read_file'), { arguments: { path: '/etc/motd' } }));
    expect(result).toMatchObject({ admitted: false, code: 'VERSION_DISABLED' });
    expect(capabilities.removeListed('fp:a', 'read_file', [digest], 'F35 removal')).toEqual({
      ok: false,
      code: 'REFERENCED',
      reason: `fp:a.read_file v1 is referenced by bundle fp:a|acme.dev#1@${record.snapshotDigest.slice(0, 16)}, run ${RUN_ID}`,
    });
    expect(registryOf(h).status('fp:a.read_file', 1)?.removed).toBe(false);
  });

  it('an alias flip binds only runs started after it, and a rollback restores later runs only', async () => {
    const h = await started();
    const capabilities = h.host.capabilities as HostCapabilities;
    const before = h.disclose('s1');
    const digest = buildManifest(READ, 'fp:a').descriptorDigest;
    const order = { identity: 'fp:a', toolName: 'read_file', descriptorDigest: digest } as const;
    expect(capabilities.alias({ ...order, action: 'set', reason: 'verified' })).toMatchObject({ ok: true });
    const flipped = capabilities.alias({
      ...order,
      action: 'set',
      entry: { timeoutMs: 20_000 },
      reason: 'longer timeout',
    });
    expect(flipped).toMatchObject({ ok: true, alias: { alias: 'prod:fp:a.read_file' } });
    h.disclose('s2');
    const call = async (session: string) =>
      h.host.call(h.request(h.plan(before, 'read_file'), { session, arguments: { path: '/a' } }));
    await call('s1');
    await call('s2');
    expect(
      capabilities.alias({ identity: 'fp:a', toolName: 'read_file', action: 'rollback', reason: 'regression' }),
    ).toMatchObject({ ok: true });
    h.disclose('s3');
    await call('s3');
    await call('s2');
    const registry = registryOf(h);
    // s1 started before the flip (v1), s2 after it (v2, also after the rollback), s3 after the rollback (v1).
    expect(registry.receipts().map((receipt) => [receipt.runId, receipt.version])).toEqual([
      ['s1|fp:a|acme.dev#1', 1],
      ['s2|fp:a|acme.dev#1', 2],
      ['s3|fp:a|acme.dev#1', 1],
      ['s2|fp:a|acme.dev#1', 2],
    ]);
    expect(registry.version('fp:a.read_file', 2)?.manifest.timeoutMs).toBe(20_000);
    expect(registry.audit().map((record) => [record.action, record.subject, record.detail])).toEqual([
      ['register', 'fp:a.read_file@1', expect.any(String)],
      ['bundle-built', 'fp:a|acme.dev#1@' + before.snapshotDigest.slice(0, 16), 'fp:a.read_file@1'],
      ['run-started', 's1|fp:a|acme.dev#1', expect.any(String)],
      ['alias-set', 'prod:fp:a.read_file', 'unset -> v1: verified'],
      ['register', 'fp:a.read_file@2', expect.any(String)],
      ['alias-set', 'prod:fp:a.read_file', 'v1 -> v2: longer timeout'],
      [
        'bundle-built',
        `fp:a|acme.dev#1@${before.snapshotDigest.slice(0, 16)}+prod:fp:a.read_file=v2`,
        'fp:a.read_file@2',
      ],
      ['run-started', 's2|fp:a|acme.dev#1', expect.any(String)],
      ['alias-rollback', 'prod:fp:a.read_file', 'v2 -> v1: regression'],
      [
        'bundle-built',
        `fp:a|acme.dev#1@${before.snapshotDigest.slice(0, 16)}+prod:fp:a.read_file=v1`,
        'fp:a.read_file@1',
      ],
      ['run-started', 's3|fp:a|acme.dev#1', expect.any(String)],
    ]);
  });

  it('a flip across a breaking diff is refused without a migration and taken with one', () => {
    const store = new InMemoryCapabilityStore();
    const capabilities = new HostCapabilities({ clock: { now: () => 40 }, store });
    const manifest = buildManifest(READ, 'fp:a');
    capabilities.registry.register(manifest);
    const order = { identity: 'fp:a', toolName: 'read_file', descriptorDigest: manifest.descriptorDigest } as const;
    capabilities.alias({ ...order, action: 'set', reason: 'verified' });
    const shorter = { ...order, action: 'set', entry: { timeoutMs: 5_000 }, reason: 'shorter timeout' } as const;
    expect(capabilities.alias(shorter)).toEqual({
      ok: false,
      code: 'BREAKING_WITHOUT_MIGRATION',
      reason:
        'alias prod:fp:a.read_file: fp:a.read_file v1 -> v2 is breaking (TIMEOUT_SHORTENED) and no migration was given',
    });
    expect(capabilities.aliasTargetOf('fp:a.read_file', manifest.descriptorDigest)?.version).toBe(1);
    expect(capabilities.alias({ ...shorter, migration: 'callers retry within 5 s' })).toMatchObject({ ok: true });
    expect(capabilities.aliasTargetOf('fp:a.read_file', manifest.descriptorDigest)?.version).toBe(2);
    expect(capabilities.aliasTargetOf('fp:a.read_file', 'f'.repeat(64))).toBeUndefined();
    expect(
      capabilities.alias({ ...order, descriptorDigest: 'f'.repeat(64), action: 'set', reason: 'unknown' }),
    ).toEqual({
      ok: false,
      code: 'REF_UNKNOWN',
      reason: 'alias prod:fp:a.read_file: no version of fp:a.read_file with descriptor ffffffffffff is registered',
    });
  });
});
