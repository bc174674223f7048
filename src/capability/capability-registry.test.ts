import { beforeEach, describe, expect, it } from 'vitest';
import { descriptorDigest } from '../snapshot/digests.ts';
import { CapabilityRegistry, type EndpointOffer } from './capability-registry.ts';
import { InMemoryCapabilityStore, type CapabilityWrite } from './capability-store.ts';
import { buildManifest, manifestDigestOf, type OperatorEntry, type ToolManifest } from './manifest.ts';

/** v1 of jobs.rerun; v2 changes the description (behavioural); v3 adds a required input (breaking). */
const V1 = {
  name: 'rerun',
  description: 'Reruns a CI job.',
  inputSchema: { type: 'object', properties: { jobId: { type: 'string' } }, required: ['jobId'] },
};
const V2 = { ...V1, description: 'Reruns a CI job by id.' };
const V3 = {
  ...V2,
  inputSchema: {
    type: 'object',
    properties: { jobId: { type: 'string' }, reason: { type: 'string' } },
    required: ['jobId', 'reason'],
  },
};
const SEARCH = { name: 'search', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } };
const ENTRY: OperatorEntry = { toolId: 'jobs.rerun', sideEffect: 'WRITE', idempotency: 'keyed' };

const manifestOf = (descriptor: unknown, entry: OperatorEntry = ENTRY): ToolManifest =>
  buildManifest(descriptor, 'jobs', entry);

/** The endpoint a host offers when the jobs server lists `descriptor`. */
const offer = (descriptor: unknown, build = 'jobs-2026.12.1', identity = 'fp:jobs-a'): EndpointOffer => ({
  server: 'jobs',
  identity,
  build,
  descriptorDigest: descriptorDigest(descriptor),
});

let now: number;
let store: InMemoryCapabilityStore;
let registry: CapabilityRegistry;

beforeEach(() => {
  now = 100;
  store = new InMemoryCapabilityStore();
  registry = new CapabilityRegistry({ clock: { now: () => now }, store });
});

/** Registers V1 and V2 of jobs.rerun and v1 of jobs.search. */
function registerTwo(): void {
  registry.register(manifestOf(V1));
  now = 110;
  registry.register(manifestOf(V2));
  registry.register(manifestOf(SEARCH, { toolId: 'jobs.search', sideEffect: 'READ' }));
}

/** An in-memory store whose commits fail (before writing anything) once `failing` is set. */
class FailingStore extends InMemoryCapabilityStore {
  failing = false;

  override commit(writes: readonly CapabilityWrite[]): void {
    if (this.failing) throw new Error('disk full');
    super.commit(writes);
  }
}

/** Asserts an outcome is ok and returns it. */
function ok<T extends { ok: boolean }>(outcome: T): Extract<T, { ok: true }> {
  expect(outcome).toMatchObject({ ok: true });
  return outcome as Extract<T, { ok: true }>;
}

describe('versions', () => {
  it('an equal manifest is the same version; any change is the next one, classified against the newest', () => {
    const first = registry.register(manifestOf(V1));
    expect([first.created, first.version.version, first.version.diffFromPrevious]).toEqual([true, 1, null]);
    expect(registry.register(manifestOf(structuredClone(V1))).created).toBe(false);
    now = 110;
    const second = registry.register(manifestOf(V2));
    expect([
      second.created,
      second.version.version,
      second.version.previousVersion,
      second.version.registeredAt,
    ]).toEqual([true, 2, 1, 110]);
    expect(second.version.diffFromPrevious?.class).toBe('behavioural');
    // Re-registering v1's manifest after v2 is v1 again, not a v3.
    expect(registry.register(manifestOf(V1))).toMatchObject({ created: false, version: { version: 1 } });
    expect(registry.register(manifestOf(V3)).version.diffFromPrevious?.class).toBe('breaking');
    expect(registry.audit().map((record) => [record.seq, record.action, record.subject, record.detail])).toEqual([
      [1, 'register', 'jobs.rerun@1', 'first version'],
      [2, 'register', 'jobs.rerun@2', 'behavioural from v1'],
      [3, 'register', 'jobs.rerun@3', 'breaking from v2'],
    ]);
  });

  it('refuses a manifest whose schema hash is not that of its schema', () => {
    const forged = { ...manifestOf(V1), inputSchema: V3.inputSchema };
    expect(() => registry.register(forged)).toThrow(
      new TypeError('manifest of jobs.rerun: inputSchemaHash is not the hash of its schema'),
    );
    expect(registry.audit()).toEqual([]);
  });
});

describe('bundles and pinned runs', () => {
  it('"latest" is resolved once, when the bundle is built; a run never sees a later version', () => {
    registerTwo();
    const bundle = ok(registry.buildBundle('ci-agent', ['jobs.rerun@latest', 'jobs.search@1'])).bundle;
    expect(bundle.pins).toEqual([
      {
        toolId: 'jobs.rerun',
        version: 2,
        manifestDigest: manifestDigestOf(manifestOf(V2)),
        resolvedFrom: 'jobs.rerun@latest',
      },
      {
        toolId: 'jobs.search',
        version: 1,
        manifestDigest: manifestDigestOf(manifestOf(SEARCH, { toolId: 'jobs.search', sideEffect: 'READ' })),
        resolvedFrom: 'jobs.search@1',
      },
    ]);
    ok(registry.startRun('run-1', 'ci-agent'));
    now = 200;
    registry.register(manifestOf(V3));
    // The run still calls v2, on an endpoint still serving v2 (a canary of v3 is not offered to it).
    const call = ok(registry.admitCall('run-1', 'jobs.rerun', [offer(V3, 'canary'), offer(V2)]));
    expect([call.view.version, call.view.manifest.description, call.endpoint.build, call.backup]).toEqual([
      2,
      'Reruns a CI job by id.',
      'jobs-2026.12.1',
      true,
    ]);
    // A bundle built now resolves latest to v3.
    expect(ok(registry.buildBundle('ci-agent-2', ['jobs.rerun@latest'])).bundle.pins[0]?.version).toBe(3);
  });

  it('refuses bundles that resolve to nothing, name one tool twice, or already exist', () => {
    registerTwo();
    expect(registry.buildBundle('b', ['jobs.deploy@latest'])).toEqual({
      ok: false,
      code: 'REF_UNKNOWN',
      reason: 'no version of jobs.deploy',
    });
    expect(registry.buildBundle('b', ['jobs.rerun@7'])).toMatchObject({ ok: false, code: 'VERSION_UNKNOWN' });
    expect(registry.buildBundle('b', ['prod:jobs.rerun'])).toMatchObject({ ok: false, code: 'REF_UNKNOWN' });
    expect(registry.buildBundle('b', ['jobs.rerun@1', 'jobs.rerun@latest'])).toMatchObject({
      ok: false,
      code: 'BUNDLE_DUPLICATE_TOOL',
    });
    expect(registry.buildBundle('b', [])).toMatchObject({ ok: false, code: 'BUNDLE_EMPTY' });
    ok(registry.buildBundle('b', ['jobs.rerun@1']));
    expect(registry.buildBundle('b', ['jobs.rerun@2'])).toMatchObject({ ok: false, code: 'BUNDLE_EXISTS' });
  });
});

describe('calls refused with their own code', () => {
  beforeEach(() => {
    registerTwo();
    ok(registry.buildBundle('ci-agent', ['jobs.rerun@2']));
    ok(registry.startRun('run-1', 'ci-agent'));
  });

  it('RUN_UNKNOWN, RUN_ENDED, TOOL_NOT_PINNED', () => {
    expect(registry.admitCall('run-9', 'jobs.rerun', [offer(V2)])).toMatchObject({ ok: false, code: 'RUN_UNKNOWN' });
    expect(registry.admitCall('run-1', 'jobs.search', [offer(SEARCH)])).toEqual({
      ok: false,
      code: 'TOOL_NOT_PINNED',
      reason: 'run run-1 (bundle ci-agent) pins no version of jobs.search',
    });
    ok(registry.endRun('run-1', 'done'));
    expect(registry.admitCall('run-1', 'jobs.rerun', [offer(V2)])).toMatchObject({ ok: false, code: 'RUN_ENDED' });
  });

  it('VERSION_INCOMPATIBLE: no endpoint serves the pinned contract (a backup with another contract is never used)', () => {
    expect(registry.admitCall('run-1', 'jobs.rerun', [offer(V3), offer(V1, 'old-api', 'fp:backup')])).toMatchObject({
      ok: false,
      code: 'VERSION_INCOMPATIBLE',
    });
    expect(registry.admitCall('run-1', 'jobs.rerun', [{ ...offer(V2), server: 'jobs-legacy' }])).toMatchObject({
      ok: false,
      code: 'VERSION_INCOMPATIBLE',
    });
    expect(registry.admitCall('run-1', 'jobs.rerun', [offer(V3), offer(V2, 'b2', 'fp:backup')])).toMatchObject({
      ok: true,
      backup: true,
      endpoint: { identity: 'fp:backup', build: 'b2' },
    });
    // A host whose primary is down offers its backups only, each saying so.
    expect(
      registry.admitCall('run-1', 'jobs.rerun', [{ ...offer(V2, 'b2', 'fp:backup'), backup: true }]),
    ).toMatchObject({
      ok: true,
      backup: true,
    });
  });

  it('VERSION_EMERGENCY_DISABLED at once, with a status a host can show; cleared, it runs again', () => {
    now = 120;
    ok(registry.emergencyDisable('jobs.rerun', 2, 'leaked tokens'));
    expect(registry.admitCall('run-1', 'jobs.rerun', [offer(V2)])).toEqual({
      ok: false,
      code: 'VERSION_EMERGENCY_DISABLED',
      reason: 'jobs.rerun v2 is emergency-disabled since t=120 ms: leaked tokens',
    });
    expect(registry.status('jobs.rerun', 2)).toEqual({
      toolId: 'jobs.rerun',
      version: 2,
      stage: 'active',
      emergency: { reason: 'leaked tokens', at: 120 },
      removed: false,
      bindable: false,
      executable: false,
      replacement: null,
      message: 'jobs.rerun v2 is emergency-disabled since t=120 ms: leaked tokens',
    });
    expect(registry.buildBundle('b2', ['jobs.rerun@2'])).toMatchObject({ ok: false, code: 'VERSION_NOT_BINDABLE' });
    ok(registry.clearEmergency('jobs.rerun', 2, 'tokens rotated'));
    expect(registry.admitCall('run-1', 'jobs.rerun', [offer(V2)]).ok).toBe(true);
    expect(registry.clearEmergency('jobs.rerun', 2, 'again')).toMatchObject({
      ok: false,
      code: 'NOT_EMERGENCY_DISABLED',
    });
  });

  it('VERSION_GONE: a run whose pinned version the store does not hold (a store restored from an older backup)', () => {
    const restored = new InMemoryCapabilityStore();
    restored.commit([{ kind: 'run', record: store.run('run-1') } as CapabilityWrite]);
    const other = new CapabilityRegistry({ clock: { now: () => now }, store: restored });
    expect(other.admitCall('run-1', 'jobs.rerun', [offer(V2)])).toEqual({
      ok: false,
      code: 'VERSION_GONE',
      reason: 'jobs.rerun v2 pinned by run run-1 is not in the registry',
    });
  });
});

describe('aliases', () => {
  beforeEach(registerTwo);

  it('switches atomically, refuses a breaking switch without a migration, rolls back for later bundles only', () => {
    ok(registry.setAlias('prod:jobs.rerun', 'jobs.rerun', 1, { reason: 'first release' }));
    ok(registry.setAlias('prod:jobs.rerun', 'jobs.rerun', 2, { reason: 'better description' }));
    registry.register(manifestOf(V3));
    expect(registry.setAlias('prod:jobs.rerun', 'jobs.rerun', 3, { reason: 'needs a reason' })).toEqual({
      ok: false,
      code: 'BREAKING_WITHOUT_MIGRATION',
      reason:
        'alias prod:jobs.rerun: jobs.rerun v2 -> v3 is breaking (PROPERTY_ADDED_REQUIRED) and no migration was given',
    });
    now = 300;
    ok(
      registry.setAlias('prod:jobs.rerun', 'jobs.rerun', 3, {
        reason: 'needs a reason',
        migration: 'callers pass reason: "manual"; plan hash regenerated',
      }),
    );
    // A bundle built while the alias names v3, its run, and an executed call.
    ok(registry.buildBundle('on-v3', ['prod:jobs.rerun']));
    ok(registry.startRun('run-3', 'on-v3'));
    const receipt = registry.recordExecution(ok(registry.admitCall('run-3', 'jobs.rerun', [offer(V3)])), 'op-17');
    now = 400;
    const rolled = ok(registry.rollbackAlias('prod:jobs.rerun', 'v3 double-deploys'));
    expect(rolled.alias.history.map((target) => [target.version, target.at, target.rollback])).toEqual([
      [1, 110, false],
      [2, 110, false],
      [3, 300, false],
      [2, 400, true],
    ]);
    // Later bundles resolve v2; the run pinned to v3 keeps v3; the receipt still names v3.
    expect(ok(registry.buildBundle('after', ['prod:jobs.rerun'])).bundle.pins[0]?.version).toBe(2);
    expect(ok(registry.admitCall('run-3', 'jobs.rerun', [offer(V3)])).view.version).toBe(3);
    expect(registry.receipts()).toEqual([receipt]);
    expect(receipt.version).toBe(3);
    expect(registry.audit().filter((record) => record.action.startsWith('alias'))).toEqual([
      { seq: 4, at: 110, action: 'alias-set', subject: 'prod:jobs.rerun', detail: 'unset -> v1: first release' },
      { seq: 5, at: 110, action: 'alias-set', subject: 'prod:jobs.rerun', detail: 'v1 -> v2: better description' },
      { seq: 7, at: 300, action: 'alias-set', subject: 'prod:jobs.rerun', detail: 'v2 -> v3: needs a reason' },
      { seq: 10, at: 400, action: 'alias-rollback', subject: 'prod:jobs.rerun', detail: 'v3 -> v2: v3 double-deploys' },
    ]);
  });

  it('a switch or rollback whose commit fails changes nothing: neither the alias nor the audit', () => {
    const failing = new FailingStore();
    const broken = new CapabilityRegistry({ clock: { now: () => now }, store: failing });
    broken.register(manifestOf(V1));
    broken.register(manifestOf(V2));
    ok(broken.setAlias('prod:jobs.rerun', 'jobs.rerun', 1, { reason: 'first' }));
    ok(broken.setAlias('prod:jobs.rerun', 'jobs.rerun', 2, { reason: 'second' }));
    failing.failing = true;
    expect(() => broken.rollbackAlias('prod:jobs.rerun', 'x')).toThrow('disk full');
    expect(() => broken.setAlias('prod:jobs.rerun', 'jobs.rerun', 1, { reason: 'third' })).toThrow('disk full');
    expect(failing.alias('prod:jobs.rerun')?.history.map((target) => target.version)).toEqual([1, 2]);
    expect(failing.audit().map((record) => record.action)).toEqual(['register', 'register', 'alias-set', 'alias-set']);
  });

  it('refuses an alias of another tool, an unknown alias, and a rollback with no earlier target', () => {
    ok(registry.setAlias('prod:jobs.rerun', 'jobs.rerun', 1, { reason: 'first' }));
    expect(registry.setAlias('prod:jobs.rerun', 'jobs.search', 1, { reason: 'x' })).toMatchObject({
      ok: false,
      code: 'ALIAS_OTHER_TOOL',
    });
    expect(registry.rollbackAlias('prod:jobs.rerun', 'x')).toMatchObject({ ok: false, code: 'NOTHING_TO_ROLL_BACK' });
    expect(registry.rollbackAlias('prod:none', 'x')).toMatchObject({ ok: false, code: 'ALIAS_UNKNOWN' });
  });
});

describe('deprecation in four stages, removal by the usage graph', () => {
  beforeEach(() => {
    registerTwo();
    ok(registry.buildBundle('ci-agent', ['jobs.rerun@1']));
    ok(registry.startRun('run-1', 'ci-agent'));
    ok(registry.setAlias('prod:jobs.rerun', 'jobs.rerun', 1, { reason: 'first' }));
  });

  it('announce binds; no-new-binding refuses new bundles and aliases; sunset refuses new runs; disabled refuses calls', () => {
    now = 500;
    ok(
      registry.deprecate('jobs.rerun', 1, 'announce', {
        reason: 'v2 is out',
        replacement: { toolId: 'jobs.rerun', version: 2 },
      }),
    );
    expect(registry.buildBundle('b-announce', ['jobs.rerun@1']).ok).toBe(true);
    ok(registry.deprecate('jobs.rerun', 1, 'no-new-binding', { reason: 'migrate' }));
    expect(registry.buildBundle('b-late', ['prod:jobs.rerun'])).toEqual({
      ok: false,
      code: 'VERSION_NOT_BINDABLE',
      reason: 'jobs.rerun v1 is at no-new-binding since t=500 ms: migrate; migrate to jobs.rerun v2',
    });
    expect(registry.setAlias('staging:jobs.rerun', 'jobs.rerun', 1, { reason: 'x' })).toMatchObject({
      ok: false,
      code: 'VERSION_NOT_BINDABLE',
    });
    ok(registry.startRun('run-2', 'ci-agent'));
    ok(registry.deprecate('jobs.rerun', 1, 'sunset', { reason: 'window closed' }));
    expect(registry.startRun('run-3', 'ci-agent')).toEqual({
      ok: false,
      code: 'VERSION_SUNSET',
      reason: 'bundle ci-agent pins jobs.rerun v1, which is at sunset',
    });
    expect(ok(registry.admitCall('run-1', 'jobs.rerun', [offer(V1)])).view.version).toBe(1);
    ok(registry.deprecate('jobs.rerun', 1, 'disabled', { reason: 'gone' }));
    expect(registry.admitCall('run-1', 'jobs.rerun', [offer(V1)])).toEqual({
      ok: false,
      code: 'VERSION_DISABLED',
      reason: 'jobs.rerun v1 is at disabled since t=500 ms: gone; migrate to jobs.rerun v2',
    });
    expect(registry.deprecate('jobs.rerun', 1, 'sunset', { reason: 'back' })).toMatchObject({
      ok: false,
      code: 'STAGE_BACKWARDS',
    });
  });

  it('no removal while an alias, an unretired bundle or an unfinished run references the version', () => {
    expect(registry.remove('jobs.rerun', 1, 'cleanup')).toMatchObject({ ok: false, code: 'NOT_DISABLED' });
    ok(registry.deprecate('jobs.rerun', 1, 'disabled', { reason: 'gone' }));
    expect(registry.remove('jobs.rerun', 1, 'cleanup')).toEqual({
      ok: false,
      code: 'REFERENCED',
      reason: 'jobs.rerun v1 is referenced by alias prod:jobs.rerun, bundle ci-agent, run run-1',
    });
    ok(registry.setAlias('prod:jobs.rerun', 'jobs.rerun', 2, { reason: 'move on' }));
    ok(registry.retireBundle('ci-agent', 'replaced'));
    expect(registry.usage('jobs.rerun', 1)).toEqual({
      aliases: [],
      bundles: [],
      retiredBundles: ['ci-agent'],
      runs: ['run-1'],
      endedRuns: [],
      receipts: 0,
    });
    expect(registry.remove('jobs.rerun', 1, 'cleanup')).toMatchObject({ ok: false, code: 'REFERENCED' });
    ok(registry.endRun('run-1', 'finished'));
    now = 900;
    expect(ok(registry.remove('jobs.rerun', 1, 'cleanup')).status).toMatchObject({
      removed: true,
      executable: false,
      message: 'jobs.rerun v1 was removed at t=900 ms',
    });
    // The record is kept (receipts may name it); it is never resolved again.
    expect(registry.version('jobs.rerun', 1)?.version).toBe(1);
    expect(registry.buildBundle('b', ['jobs.rerun@1'])).toMatchObject({ ok: false, code: 'VERSION_NOT_BINDABLE' });
  });
});

describe('receipts', () => {
  it('name the exact version, schema hashes, endpoint, build and operation id', () => {
    registerTwo();
    ok(registry.buildBundle('ci-agent', ['jobs.rerun@latest']));
    ok(registry.startRun('run-1', 'ci-agent'));
    now = 150;
    const call = ok(registry.admitCall('run-1', 'jobs.rerun', [offer(V2, 'jobs-2026.12.1', 'fp:jobs-a')]));
    const manifest = manifestOf(V2);
    expect(registry.recordExecution(call, 'op-1')).toEqual({
      receiptNumber: 1,
      runId: 'run-1',
      bundleId: 'ci-agent',
      toolId: 'jobs.rerun',
      version: 2,
      manifestDigest: manifestDigestOf(manifest),
      inputSchemaHash: manifest.inputSchemaHash,
      outputSchemaHash: null,
      errorSchemaHash: manifest.errorSchemaHash,
      endpoint: { server: 'jobs', identity: 'fp:jobs-a', build: 'jobs-2026.12.1', backup: false },
      operationId: 'op-1',
      at: 150,
    });
    expect(registry.usage('jobs.rerun', 2).receipts).toBe(1);
  });
});
