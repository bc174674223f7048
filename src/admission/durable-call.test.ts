/**
 * `CatalogHost` on the SQLite store: what a call writes to the lease ledger and the call receipts
 * (the lease, its consumption with the receipt before the call leaves, the outcome), and a second
 * host started on the same database after the first one closed: it republishes over the
 * generation it finds, and numbers its leases after the ones already issued. (The disclosures of
 * the first host's sessions are not in the store: the second host discloses again.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SCAN_LIMITS } from '../discovery/config.ts';
import { CatalogHost } from '../host.ts';
import { nullSink, realClock, realScheduler } from '../ports.ts';
import { InMemoryRegistryStore } from '../registry/store.ts';
import { DEFAULT_TRUST } from '../validation/trust.ts';
import { openSqliteStore } from '../registry/sqlite-store.ts';
import { RegistryStoreError } from '../registry/store-error.ts';
import { afterThisTest, tempDir } from '../registry/testing/temp-dirs.ts';
import { LEASE_META_KEY } from './codes.ts';
import type { SignedLease } from './lease.ts';
import { startHarness, toolWith, type Harness } from './testing/host-harness.ts';

const READ = toolWith('read_file', { path: { type: 'string' } });

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function hostOn(path: string): Promise<{ h: Harness; store: ReturnType<typeof openSqliteStore> }> {
  const store = openSqliteStore({ path });
  afterThisTest(() => store.close());
  const h = await startHarness({ tools: [READ], effectClasses: { read_file: 'READ' }, revision: 7, store });
  harnesses.push(h);
  return { h, store };
}

describe('CatalogHost on a SQLite store', () => {
  it('records the lease, consumes it with the receipt as the call leaves, then records the outcome', async () => {
    const { h, store } = await hostOn(join(tempDir(), 'catalog.db'));
    h.grant(['read_file']);
    await h.time.advance(250);
    const record = h.disclose('s1');
    const plan = h.plan(record, 'read_file');
    const request = h.request(plan, { arguments: { path: '/etc/motd' } });
    const result = await h.host.call(request);
    expect(result).toMatchObject({ admitted: true, leaseId: 'lease-0', outcome: 'ok' });
    const sent = h.pair.calls[0]?.meta?.[LEASE_META_KEY] as SignedLease;
    expect(store.leases()).toEqual([{ lease: sent, consumedAt: 250 }]);
    const { type: _type, t: _t, ...receiptEvent } = h.of('receipt')[0] ?? {};
    expect(store.callReceipts()).toEqual([{ ...receiptEvent, writtenAt: 250, outcome: 'ok', outcomeAt: 250 }]);
    expect(store.callReceipt('lease-0')).toMatchObject({
      callId: request.callId,
      key: 'fp:a|acme.dev',
      tool: 'read_file',
      generation: 1,
      policyEpoch: 1,
      pin: 7,
    });
  });

  it('a host started on the same database after the first closed publishes generation 2 over it and issues lease-1 next', async () => {
    const path = join(tempDir(), 'catalog.db');
    const first = await hostOn(path);
    first.h.grant(['read_file']);
    await first.h.host.call(
      first.h.request(first.h.plan(first.h.disclose('s1'), 'read_file'), { arguments: { path: '/a' } }),
    );
    await first.h.close();
    harnesses.splice(0);
    first.store.close();

    const second = await hostOn(path);
    expect(
      second.store
        .catalogReceipts('fp:a|acme.dev')
        .map((receipt) => [receipt.previousGeneration, receipt.catalogGeneration]),
    ).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(second.h.of('published').map((event) => event.generation)).toEqual([2]);
    second.h.grant(['read_file']);
    const result = await second.h.host.call(
      second.h.request(second.h.plan(second.h.disclose('s1'), 'read_file'), { arguments: { path: '/b' } }),
    );
    expect(result).toMatchObject({ admitted: true, leaseId: 'lease-1', outcome: 'ok' });
    expect(
      second.store.callReceipts().map((receipt) => [receipt.leaseId, receipt.generation, receipt.outcome]),
    ).toEqual([
      ['lease-0', 1, 'ok'],
      ['lease-1', 2, 'ok'],
    ]);
    expect(second.store.leases().map((record) => record.consumedAt !== null)).toEqual([true, true]);
  });
});

describe('CatalogHost with config.storePath: the SQLite store is its default', () => {
  it('opens the database at storePath, holds its lock while it runs, and releases it on stop()', async () => {
    const path = join(tempDir(), 'catalog.db');
    const h = await startHarness({
      tools: [READ],
      effectClasses: { read_file: 'READ' },
      revision: 7,
      config: { storePath: path },
    });
    harnesses.push(h);
    h.grant(['read_file']);
    const result = await h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/a' } }));
    expect(result).toMatchObject({ admitted: true, leaseId: 'lease-0', outcome: 'ok' });
    // A second store on the same file while the host runs: the host's connection holds the lock.
    expect(() => openSqliteStore({ path, busyTimeoutMs: 0 })).toThrow(expect.objectContaining({ failure: 'LOCKED' }));
    h.host.stop();
    h.host.stop();
    // After stop() the database is free and holds what the host wrote: generation 1 of revision 7,
    // its catalog receipt, the lease and the call's receipt with its outcome.
    const store = openSqliteStore({ path });
    afterThisTest(() => store.close());
    expect(store.active('fp:a|acme.dev')).toMatchObject({
      catalogGeneration: 1,
      status: 'ELIGIBLE',
      snapshot: { sourceRevision: 7 },
    });
    expect(
      store.catalogReceipts('fp:a|acme.dev').map((receipt) => [receipt.previousGeneration, receipt.catalogGeneration]),
    ).toEqual([[0, 1]]);
    expect(store.callReceipts().map((receipt) => [receipt.leaseId, receipt.tool, receipt.outcome])).toEqual([
      ['lease-0', 'read_file', 'ok'],
    ]);
  });

  it('refuses a file that is not a SQLite database with RegistryStoreError NOT_SQLITE, never an empty registry', () => {
    const path = join(tempDir(), 'catalog.db');
    writeFileSync(path, 'not a database, but a text file long enough to have a header of its own............');
    const open = (): CatalogHost => new CatalogHost(PORTS, { ...CONFIG, storePath: path });
    expect(open).toThrow(RegistryStoreError);
    expect(open).toThrow(expect.objectContaining({ failure: 'NOT_SQLITE' }));
  });

  it('the embedding snippet of docs/EMBEDDING.md: real ports, the default limits and trust, storePath; stop() closes the database', () => {
    const path = join(tempDir(), 'catalog.db');
    const host = new CatalogHost(
      { clock: realClock, scheduler: realScheduler(), random: { next: Math.random }, sink: nullSink },
      {
        limits: DEFAULT_SCAN_LIMITS,
        refresh: {
          refreshIntervalMs: 600_000,
          retryBackoffMsBase: 500,
          retryBackoffMsMax: 30_000,
          listChangedDelayMs: 100,
          generationTtlMs: 900_000,
        },
        trust: { ...DEFAULT_TRUST, effectClasses: { read_file: 'READ' } },
        leaseKey: process.env.MY_HOST_LEASE_KEY,
        storePath: path,
      },
    );
    host.stop();
    const store = openSqliteStore({ path });
    afterThisTest(() => store.close());
    expect(store.issuedLeaseCount()).toBe(0);
  });

  it.each([
    ['', 'config.storePath must be a non-empty file path, got ""'],
    [42, 'config.storePath must be a non-empty file path, got 42'],
    [
      ':memory:',
      'config.storePath names an in-memory SQLite database, which ends with the process: pass ports.store (new InMemoryRegistryStore()) for a catalog that may be lost',
    ],
  ])('storePath %j is a TypeError', (storePath, message) => {
    expect(() => new CatalogHost(PORTS, { ...CONFIG, storePath: storePath as string })).toThrow(new TypeError(message));
  });

  it('storePath and ports.store together are a TypeError (which one would hold the catalog is not guessed)', () => {
    expect(
      () =>
        new CatalogHost(
          { ...PORTS, store: new InMemoryRegistryStore() },
          { ...CONFIG, storePath: join(tempDir(), 'catalog.db') },
        ),
    ).toThrow(
      new TypeError(
        'CatalogHost takes one registry store: config.storePath (the host opens it) or ports.store (its owner opens it), not both',
      ),
    );
  });

  it('without ports.store or config.storePath the constructor throws a TypeError (no silent in-memory default)', () => {
    expect(() => new CatalogHost(PORTS, CONFIG)).toThrow(
      new TypeError(
        'CatalogHost needs a registry store: set config.storePath (the durable SQLite store) or pass ports.store (new InMemoryRegistryStore() for a catalog that may end with the process)',
      ),
    );
  });
});

const PORTS = {
  clock: { now: () => 0 },
  scheduler: { schedule: () => ({ cancel: () => undefined }) },
  random: { next: () => 0.5 },
  sink: { emit: () => undefined },
} as unknown as ConstructorParameters<typeof CatalogHost>[0];
const CONFIG: ConstructorParameters<typeof CatalogHost>[1] = {
  limits: { pageCountMax: 8, byteCountMax: 1_000_000, scanTimeoutMs: 10_000 },
  refresh: {
    refreshIntervalMs: 1_000_000,
    retryBackoffMsBase: 10,
    retryBackoffMsMax: 10,
    listChangedDelayMs: 20,
    generationTtlMs: 100_000,
  },
  trust: { effectClasses: {} } as unknown as ConstructorParameters<typeof CatalogHost>[1]['trust'],
};
