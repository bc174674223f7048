import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../registry/sqlite-store.ts';
import { afterThisTest, tempDir } from '../registry/testing/temp-dirs.ts';
import { CapabilityRegistry } from './capability-registry.ts';
import { InMemoryCapabilityStore, type CapabilityStore, type ToolVersion } from './capability-store.ts';
import { buildManifest, manifestDigestOf } from './manifest.ts';

const manifest = buildManifest({ name: 'rerun', inputSchema: { type: 'object' } }, 'jobs');
const V1: ToolVersion = {
  toolId: 'jobs.rerun',
  version: 1,
  manifestDigest: manifestDigestOf(manifest),
  manifest,
  registeredAt: 5,
  previousVersion: null,
  diffFromPrevious: null,
};

/** The capability store of a fresh SQLite registry file, closed after the test; and its path. */
function sqliteAt(path: string): CapabilityStore {
  const store = openSqliteStore({ path });
  afterThisTest(() => store.close());
  return store.capabilities();
}

const STORES: readonly [string, () => CapabilityStore][] = [
  ['in memory', () => new InMemoryCapabilityStore()],
  ['on SQLite', () => sqliteAt(join(tempDir(), 'catalog.db'))],
];

describe.each(STORES)('the capability store %s', (_, makeStore) => {
  it('writes a batch whole or not at all: a version written twice refuses the batch, alias included', () => {
    const store = makeStore();
    store.commit([{ kind: 'version', record: V1 }]);
    const alias = { alias: 'prod:jobs.rerun', toolId: 'jobs.rerun', history: [] };
    expect(() =>
      store.commit([
        { kind: 'alias', record: alias },
        { kind: 'version', record: V1 },
      ]),
    ).toThrow('version jobs.rerun@1 is already stored (versions are immutable)');
    expect(store.alias('prod:jobs.rerun')).toBeUndefined();
    expect(store.versions('jobs.rerun')).toEqual([structuredClone(V1)]);
  });

  it('refuses a receipt or audit record out of order', () => {
    const store = makeStore();
    store.commit([{ kind: 'audit', record: { seq: 1, at: 0, action: 'register', subject: 'a', detail: '' } }]);
    expect(() =>
      store.commit([{ kind: 'audit', record: { seq: 1, at: 0, action: 'register', subject: 'b', detail: '' } }]),
    ).toThrow('audit record 1 is not after 1');
    expect(store.audit().map((record) => record.subject)).toEqual(['a']);
    expect([store.lastAuditSeq(), store.receiptCount()]).toEqual([1, 0]);
    expect(() => store.commit([{ kind: 'receipt', record: { receiptNumber: 2 } as never }])).toThrow(
      'receipt 2 is not the next receipt (1)',
    );
  });

  it('keeps copies: what a caller changes after a commit or a read is not stored', () => {
    const store = makeStore();
    const alias = {
      alias: 'prod:x',
      toolId: 'x',
      history: [{ version: 1, at: 0, reason: 'r', migration: null, rollback: false }],
    };
    store.commit([{ kind: 'alias', record: alias }]);
    alias.history.push({ version: 2, at: 1, reason: 'r', migration: null, rollback: false });
    (store.alias('prod:x')?.history ?? []).pop();
    expect(store.alias('prod:x')?.history.map((target) => target.version)).toEqual([1]);
  });

  it('lists aliases, bundles and runs in creation order, also after an update in place', () => {
    const store = makeStore();
    const run = (runId: string, endedAt: number | null) => ({
      kind: 'run' as const,
      record: { runId, bundleId: 'b', bundleDigest: 'd', pins: [], startedAt: 0, endedAt },
    });
    store.commit([run('r2', null), run('r1', null)]);
    store.commit([run('r2', 9)]);
    expect(store.runs().map((record) => [record.runId, record.endedAt])).toEqual([
      ['r2', 9],
      ['r1', null],
    ]);
  });
});

describe('a registry on the SQLite store', () => {
  it('finds every version, alias, bundle, run, receipt and audit record again after the file is reopened', () => {
    const path = join(tempDir(), 'catalog.db');
    const first = openSqliteStore({ path });
    const clock = { now: () => 42 };
    const registry = new CapabilityRegistry({ clock, store: first.capabilities() });
    registry.register(manifest);
    registry.setAlias('prod:jobs.rerun', 'jobs.rerun', 1, { reason: 'first' });
    registry.buildBundle('b', ['prod:jobs.rerun']);
    registry.startRun('r', 'b');
    const offer = { server: 'jobs', identity: 'fp:a', build: 'b1', descriptorDigest: manifest.descriptorDigest };
    const call = registry.admitCall('r', 'jobs.rerun', [offer]);
    if (!call.ok) throw new Error(call.reason);
    const receipt = registry.recordExecution(call, 'op-1');
    registry.emergencyDisable('jobs.rerun', 1, 'incident');
    const audit = registry.audit();
    first.close();
    const again = new CapabilityRegistry({ clock, store: sqliteAt(path) });
    expect(again.receipts()).toEqual([receipt]);
    expect(again.audit()).toEqual(audit);
    expect(audit.map((record) => record.action)).toEqual([
      'register',
      'alias-set',
      'bundle-built',
      'run-started',
      'emergency-disable',
    ]);
    expect(again.admitCall('r', 'jobs.rerun', [offer])).toMatchObject({
      ok: false,
      code: 'VERSION_EMERGENCY_DISABLED',
    });
    expect(again.usage('jobs.rerun', 1)).toEqual({
      aliases: ['prod:jobs.rerun'],
      bundles: ['b'],
      retiredBundles: [],
      runs: ['r'],
      endedRuns: [],
      receipts: 1,
    });
  });
});
