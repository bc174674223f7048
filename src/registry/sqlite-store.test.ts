/**
 * The SQLite registry store's own promises: one transaction per publish and per consumption
 * (proved by failures injected with triggers between the statements), everything back after a
 * reopen and after the writing process was killed, the schema versioned and migrated, and a clear
 * one-line error, never an empty registry, for a file that is not a SQLite database, another
 * application's database, a damaged one, a newer schema, or a database another writer holds.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../ports.ts';
import { DEFAULT_TRUST, trustDigest } from '../validation/trust.ts';
import { CatalogRegistry } from './registry.ts';
import { sqliteDriver } from './sqlite-driver.ts';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, type Migration } from './sqlite-schema.ts';
import {
  openSqliteStore,
  openSqliteStoreOn,
  openSqliteStoreWith,
  type SqliteRegistryStore,
  type SqliteStoreOptions,
} from './sqlite-store.ts';
import { RegistryStoreError } from './store-error.ts';
import { callReceiptFor, generationAt, KEY, leases, receiptOf, STORE_KEY } from './testing/store-fixtures.ts';
import { afterThisTest, tempDir } from './testing/temp-dirs.ts';

/** A fresh database path in a temporary directory. */
function freshPath(): string {
  return join(tempDir(), 'catalog.db');
}

/** Opens a store that is closed after the test (closing twice is harmless). */
function open(options: SqliteStoreOptions, migrations: readonly Migration[] = MIGRATIONS): SqliteRegistryStore {
  const store = openSqliteStoreWith(options, migrations);
  afterThisTest(() => store.close());
  return store;
}

/** Runs `statements` on the file through a plain connection (the store closed), then closes it. */
function raw<T>(path: string, statements: (db: Database.Database) => T): T {
  const db = new Database(path);
  try {
    return statements(db);
  } finally {
    db.close();
  }
}

/** What opening `path` throws. */
function openError(path: string, options: Partial<SqliteStoreOptions> = {}): RegistryStoreError {
  try {
    open({ path, ...options });
  } catch (error) {
    if (error instanceof RegistryStoreError) return error;
    throw error;
  }
  throw new Error(`opening ${path} succeeded`);
}

const GUARDS = { policyEpoch: 1, identity: 'fp:a', trustConfigDigest: trustDigest(DEFAULT_TRUST) };

describe('one transaction per publish', () => {
  /** A store with generation 1 published and the key DISABLED, plus a failing trigger installed. */
  function storeWithFailing(trigger: string): { path: string; store: SqliteRegistryStore } {
    const path = freshPath();
    const before = open({ path });
    const first = generationAt(1, 3);
    before.compareAndSet(STORE_KEY, 0, first, receiptOf(first));
    before.disable(STORE_KEY, 'operator');
    before.close();
    raw(path, (db) => db.exec(`CREATE TRIGGER injected ${trigger} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`));
    return { path, store: open({ path }) };
  }

  // Each trigger fails one statement of the publish of generation 2; the statements before it
  // in the same transaction (the generation row, then the pointer, then the catalog receipt,
  // then clearing DISABLED) must all be undone with it.
  it.each([
    ['the generation row', 'BEFORE INSERT ON generations'],
    ['the pointer move', 'BEFORE UPDATE ON pointers'],
    ['the catalog receipt', 'BEFORE INSERT ON catalog_receipts'],
    ['clearing DISABLED', 'BEFORE DELETE ON disabled_keys'],
  ])(
    'a failure at %s leaves the pointer, generations, receipts and DISABLED mark as they were',
    (_statement, trigger) => {
      const { path, store } = storeWithFailing(trigger);
      const events: Observation[] = [];
      const registry = new CatalogRegistry(store, { now: () => 500 }, { emit: (event) => events.push(event) });
      const second = generationAt(2, 4);
      expect(() => registry.publish(second.snapshot, 1, GUARDS)).toThrow('injected failure');
      expect(events).toEqual([]);
      const check = (reader: SqliteRegistryStore): void => {
        expect(reader.active(STORE_KEY)?.catalogGeneration).toBe(1);
        expect(reader.generation(STORE_KEY, 2)).toBeUndefined();
        expect(reader.catalogReceipts(STORE_KEY).map((receipt) => receipt.catalogGeneration)).toEqual([1]);
        expect(reader.disabledReason(STORE_KEY)).toBe('operator');
      };
      check(store);
      store.close();
      expect(
        raw(path, (db) =>
          db
            .prepare(
              'SELECT (SELECT count(*) FROM generations), (SELECT generation FROM pointers), (SELECT count(*) FROM catalog_receipts), (SELECT count(*) FROM disabled_keys)',
            )
            .raw()
            .get(),
        ),
      ).toEqual([1, 1, 1, 1]);
      check(open({ path }));
    },
  );

  it('a rollback publish is one transaction too: its receipt failing leaves generation 2 active', () => {
    const path = freshPath();
    const store = open({ path });
    const registry = new CatalogRegistry(store, { now: () => 500 }, { emit: () => undefined });
    registry.publish(generationAt(1, 3).snapshot, 0, GUARDS);
    registry.publish(generationAt(2, 4).snapshot, 1, GUARDS);
    store.close();
    raw(path, (db) =>
      db.exec(
        "CREATE TRIGGER injected BEFORE INSERT ON catalog_receipts WHEN NEW.reason IS NOT NULL BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
      ),
    );
    const reopened = open({ path });
    const again = new CatalogRegistry(reopened, { now: () => 500 }, { emit: () => undefined });
    expect(() => again.rollback(KEY, 'missing-tool rate rose', GUARDS)).toThrow('injected failure');
    expect(reopened.active(STORE_KEY)?.catalogGeneration).toBe(2);
    expect(reopened.generation(STORE_KEY, 3)).toBeUndefined();
    expect(reopened.catalogReceipts(STORE_KEY).map((receipt) => receipt.reason)).toEqual([null, null]);
  });
});

describe('one transaction per lease consumption', () => {
  it('a failing receipt insert leaves the lease unspent and no receipt; after the fault is gone it is consumed once', () => {
    const path = freshPath();
    const [lease] = leases(1) as [ReturnType<typeof leases>[0]];
    const before = open({ path });
    before.recordLease(lease);
    before.close();
    raw(path, (db) =>
      db.exec(
        "CREATE TRIGGER injected BEFORE INSERT ON call_receipts BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
      ),
    );
    const store = open({ path });
    expect(() => store.consumeLease(callReceiptFor(lease, 1_200))).toThrow('injected failure');
    expect(store.lease(lease.leaseId)).toEqual({ lease, consumedAt: null });
    expect(store.callReceipts()).toEqual([]);
    store.close();
    raw(path, (db) => db.exec('DROP TRIGGER injected'));
    const healed = open({ path });
    expect(healed.consumeLease(callReceiptFor(lease, 1_300))).toBe(true);
    expect(healed.lease(lease.leaseId)?.consumedAt).toBe(1_300);
  });
});

describe('reopening', () => {
  /** Writes two keys' generations, a rollback, a DISABLED key, three leases (two consumed, one settled). */
  function writeEverything(store: SqliteRegistryStore): void {
    let now = 500;
    const registry = new CatalogRegistry(store, { now: () => now }, { emit: () => undefined });
    registry.publish(generationAt(1, 3).snapshot, 0, GUARDS);
    registry.publish(generationAt(2, null, ['echo', 'write_file']).snapshot, 1, GUARDS);
    registry.rollback(KEY, 'privilege escalation', GUARDS);
    const other = { ...generationAt(1, 9), key: 'fp:b|acme.dev' };
    store.compareAndSet('fp:b|acme.dev', 0, other, { ...receiptOf(other), key: 'fp:b|acme.dev' });
    now = 2_000;
    registry.rollback({ ...KEY, identity: 'fp:b' }, 'operator', { ...GUARDS, identity: 'fp:b' });
    const [a, b, c] = leases(3) as [
      ReturnType<typeof leases>[0],
      ReturnType<typeof leases>[0],
      ReturnType<typeof leases>[0],
    ];
    for (const lease of [a, b, c]) store.recordLease(lease);
    store.consumeLease(callReceiptFor(a, 1_200));
    store.recordOutcome(a.leaseId, 'ok', 1_250);
    store.consumeLease(callReceiptFor(b, 1_300));
  }

  /** Everything a store holds, as plain data. */
  function contents(store: SqliteRegistryStore): unknown {
    return {
      active: ['fp:a|acme.dev', 'fp:b|acme.dev'].map((key) => store.active(key)),
      generations: [1, 2, 3].map((generation) => store.generation(STORE_KEY, generation)),
      receipts: [store.catalogReceipts(STORE_KEY), store.catalogReceipts('fp:b|acme.dev')],
      disabled: [store.disabledReason(STORE_KEY), store.disabledReason('fp:b|acme.dev')],
      leases: store.leases(),
      count: store.issuedLeaseCount(),
      callReceipts: store.callReceipts(),
    };
  }

  it('gives back the same pointers, generations, catalog receipts, DISABLED marks, leases and call receipts', () => {
    const path = freshPath();
    const first = open({ path });
    writeEverything(first);
    const written = contents(first);
    first.close();
    const reopened = open({ path });
    expect(contents(reopened)).toEqual(written);
    // The values a person expects, not only equality with what was written:
    expect(reopened.active(STORE_KEY)).toMatchObject({
      catalogGeneration: 3,
      status: 'ELIGIBLE',
      rolledBackFrom: 1,
      snapshot: { scanId: 'scan-1', sourceRevision: 3 },
    });
    expect(reopened.generation(STORE_KEY, 2)).toMatchObject({
      status: 'UNVERSIONED_OBSERVATION',
      snapshot: { sourceRevision: null, tools: [{ name: 'echo' }, { name: 'write_file' }] },
    });
    expect(
      reopened
        .catalogReceipts(STORE_KEY)
        .map((receipt) => [
          receipt.catalogGeneration,
          receipt.previousGeneration,
          receipt.rolledBackFrom,
          receipt.reason,
        ]),
    ).toEqual([
      [1, 0, null, null],
      [2, 1, null, null],
      [3, 2, 1, 'privilege escalation'],
    ]);
    expect([reopened.disabledReason(STORE_KEY), reopened.disabledReason('fp:b|acme.dev')]).toEqual([
      undefined,
      'operator',
    ]);
    expect(reopened.leases().map((record) => [record.lease.leaseId, record.consumedAt])).toEqual([
      ['h-lease-0', 1_200],
      ['h-lease-1', 1_300],
      ['h-lease-2', null],
    ]);
    expect(
      reopened
        .callReceipts()
        .map((receipt) => [receipt.leaseId, receipt.writtenAt, receipt.outcome, receipt.outcomeAt]),
    ).toEqual([
      ['h-lease-0', 1_200, 'ok', 1_250],
      ['h-lease-1', 1_300, null, null],
    ]);
    expect(Object.isFrozen(reopened.active(STORE_KEY)?.snapshot.tools[0])).toBe(true);
  });

  it('a consumed lease stays consumed after reopen: it cannot be consumed again, nor its outcome written twice', () => {
    const path = freshPath();
    const first = open({ path });
    writeEverything(first);
    first.close();
    const reopened = open({ path });
    const [a, b, c] = leases(3) as [
      ReturnType<typeof leases>[0],
      ReturnType<typeof leases>[0],
      ReturnType<typeof leases>[0],
    ];
    expect(reopened.consumeLease(callReceiptFor(a, 9_000))).toBe(false);
    expect(reopened.consumeLease(callReceiptFor(b, 9_000))).toBe(false);
    expect(reopened.recordOutcome(a.leaseId, 'error', 9_000)).toBe(false);
    expect(reopened.recordOutcome(b.leaseId, 'unknown', 9_000)).toBe(true);
    expect(reopened.consumeLease(callReceiptFor(c, 9_100))).toBe(true);
    expect(() => reopened.recordLease(a)).toThrow('lease h-lease-0 is already in the ledger');
    expect(reopened.callReceipts().map((receipt) => [receipt.leaseId, receipt.outcome])).toEqual([
      ['h-lease-0', 'ok'],
      ['h-lease-1', 'unknown'],
      ['h-lease-2', null],
    ]);
  });

  it('keeps what a process committed before it was killed (SIGKILL, no close), and the lock dies with it', () => {
    const path = freshPath();
    const script = fileURLToPath(new URL('./testing/commit-then-die.ts', import.meta.url));
    const child = spawnSync(process.execPath, ['--import', 'tsx', script, path], { encoding: 'utf8' });
    expect([child.signal, child.stdout]).toEqual(['SIGKILL', 'committed\n']);
    const store = open({ path });
    expect(store.active(STORE_KEY)?.catalogGeneration).toBe(2);
    expect(store.catalogReceipts(STORE_KEY).map((receipt) => receipt.scanId)).toEqual(['scan-1', 'scan-2']);
    expect(store.leases().map((record) => [record.lease.leaseId, record.consumedAt])).toEqual([['h-lease-0', 1_200]]);
    expect(store.callReceipts().map((receipt) => [receipt.leaseId, receipt.outcome])).toEqual([['h-lease-0', null]]);
  });
});

describe('closing', () => {
  it('a closed store serves nothing, not even what it had read into memory', () => {
    const path = freshPath();
    const store = open({ path });
    const first = generationAt(1, 3);
    store.compareAndSet(STORE_KEY, 0, first, receiptOf(first));
    store.disable(STORE_KEY, 'operator');
    store.close();
    expect(store.open).toBe(false);
    expect(() => store.active(STORE_KEY)).toThrow(new TypeError(`registry store ${path} is closed`));
    expect(() => store.disabledReason(STORE_KEY)).toThrow(new TypeError(`registry store ${path} is closed`));
    expect(() => store.issuedLeaseCount()).toThrow(TypeError);
  });

  it('refuses a busy timeout that is not an integer >= 0', () => {
    expect(() => openSqliteStore({ path: freshPath(), busyTimeoutMs: -1 })).toThrow(
      new RangeError('busyTimeoutMs must be an integer >= 0, got -1'),
    );
  });
});

describe('schema versions and migrations', () => {
  it('writes a new database as a catsim registry at schema version 2, in WAL mode', () => {
    const path = freshPath();
    open({ path }).close();
    expect(SCHEMA_VERSION).toBe(2);
    expect(
      raw(path, (db) => [
        db.pragma('application_id', { simple: true }),
        db.pragma('user_version', { simple: true }),
        db.pragma('journal_mode', { simple: true }),
      ]),
    ).toEqual([0x63617473, 2, 'wal']);
    expect(APPLICATION_ID).toBe(1_667_331_187);
  });

  /** A version 3 for the tests only: a note column on leases. */
  const NOTE: Migration = {
    version: 3,
    summary: 'a note on each lease',
    up: (db) => {
      db.exec('ALTER TABLE leases ADD COLUMN note TEXT');
    },
  };

  it('migrates a version-1 database written by version-1 code to version 2 (the capability tables), keeping its data', () => {
    const path = freshPath();
    const [lease] = leases(1) as [ReturnType<typeof leases>[0]];
    const v1 = open({ path }, MIGRATIONS.slice(0, 1));
    const first = generationAt(1, 3);
    v1.compareAndSet(STORE_KEY, 0, first, receiptOf(first));
    v1.recordLease(lease);
    v1.close();
    const v2 = open({ path });
    expect(v2.active(STORE_KEY)).toEqual(first);
    expect(v2.lease(lease.leaseId)).toEqual({ lease, consumedAt: null });
    expect([v2.capabilities().audit(), v2.capabilities().bundles()]).toEqual([[], []]);
    v2.close();
    expect(raw(path, (db) => db.pragma('user_version', { simple: true }))).toBe(2);
  });

  it('migrates a database written by this code to a version 3, keeping its data; this code then refuses it as newer', () => {
    const path = freshPath();
    const [lease] = leases(1) as [ReturnType<typeof leases>[0]];
    const v2 = open({ path });
    const first = generationAt(1, 3);
    v2.compareAndSet(STORE_KEY, 0, first, receiptOf(first));
    v2.recordLease(lease);
    v2.close();
    const v3 = open({ path }, [...MIGRATIONS, NOTE]);
    expect(v3.active(STORE_KEY)).toEqual(first);
    expect(v3.lease(lease.leaseId)).toEqual({ lease, consumedAt: null });
    v3.close();
    expect(
      raw(path, (db) => [
        db.pragma('user_version', { simple: true }),
        db.prepare('SELECT note FROM leases').pluck().get(),
      ]),
    ).toEqual([3, null]);
    expect(openError(path).message).toBe(
      `registry store ${path}: schema version 3 is newer than this catsim's 2; open it with the catsim that wrote it`,
    );
  });

  it('a failing migration step changes nothing: the database stays at version 2 and opens as before', () => {
    const path = freshPath();
    open({ path }).close();
    const failing: Migration = {
      version: 3,
      summary: 'a note on each lease',
      up: (db) => {
        db.exec('ALTER TABLE leases ADD COLUMN note TEXT');
        throw new Error('disk says no');
      },
    };
    let error: unknown;
    try {
      open({ path }, [...MIGRATIONS, failing]);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(RegistryStoreError);
    expect(error).toMatchObject({
      failure: 'MIGRATION_FAILED',
      message: `registry store ${path}: migration to schema version 3 (a note on each lease) failed: disk says no; the database stays at version 2`,
    });
    expect(
      raw(path, (db) => [
        db.pragma('user_version', { simple: true }),
        (db.pragma('table_info(leases)') as { name: string }[]).some((column) => column.name === 'note'),
      ]),
    ).toEqual([2, false]);
    expect(open({ path }).issuedLeaseCount()).toBe(0);
  });

  it('refuses a migration list that is not numbered 1, 2, 3, ...', () => {
    expect(() =>
      open({ path: freshPath() }, [
        { ...NOTE, version: 1 },
        { ...NOTE, version: 2 },
        { ...NOTE, version: 4 },
      ]),
    ).toThrow('migration 2 has version 4, expected 3');
  });
});

describe('a database that cannot be used is an error naming the path and the cause, never an empty registry', () => {
  it('a file that is not a SQLite database (NOT_SQLITE), left as it was', () => {
    const path = freshPath();
    const text = 'catalog: not really a database\n'.repeat(200);
    writeFileSync(path, text);
    const error = openError(path);
    expect([error.failure, error.message]).toEqual([
      'NOT_SQLITE',
      `registry store ${path}: not a SQLite database (SQLITE_NOTADB)`,
    ]);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it("another application's SQLite database (FOREIGN), left as it was", () => {
    const path = freshPath();
    raw(path, (db) =>
      db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')"),
    );
    const error = openError(path);
    expect([error.failure, error.message]).toEqual([
      'FOREIGN',
      `registry store ${path}: a SQLite database, but not a catsim registry (application_id 0; tables: notes)`,
    ]);
    expect(
      raw(path, (db) => [
        db.prepare('SELECT body FROM notes').pluck().all(),
        db.pragma('journal_mode', { simple: true }),
      ]),
    ).toEqual([['keep me'], 'delete']);
  });

  it('a catsim registry whose tables are not those of its version (CORRUPT)', () => {
    const path = freshPath();
    open({ path }).close();
    raw(path, (db) => db.exec('DROP TABLE call_receipts'));
    const error = openError(path);
    expect([error.failure, error.message]).toEqual([
      'CORRUPT',
      `registry store ${path}: its tables are not those of schema version 2: table call_receipts is missing`,
    ]);
  });

  it('a damaged first page (CORRUPT)', () => {
    const path = freshPath();
    open({ path }).close();
    const bytes = readFileSync(path);
    bytes.fill(0xa5, 100, 4_096);
    writeFileSync(path, bytes);
    const error = openError(path);
    expect([error.failure, error.message]).toEqual([
      'CORRUPT',
      `registry store ${path}: corrupt (SQLITE_CORRUPT: database disk image is malformed)`,
    ]);
  });

  it('a stored snapshot changed behind the store (CORRUPT at the read, not served)', () => {
    const path = freshPath();
    const first = generationAt(1, 3);
    const store = open({ path });
    store.compareAndSet(STORE_KEY, 0, first, receiptOf(first));
    store.close();
    raw(path, (db) =>
      db.prepare('UPDATE generations SET snapshot = replace(snapshot, \'"name":"echo"\', \'"name":"rm_rf"\')').run(),
    );
    const reopened = open({ path });
    expect(() => reopened.active(STORE_KEY)).toThrow(
      new RegistryStoreError(
        path,
        'CORRUPT',
        'generation 1 of fp:a|acme.dev: the stored snapshot does not match its digest',
      ),
    );
    expect(() => reopened.active(STORE_KEY)).toThrow(
      `registry store ${path}: generation 1 of fp:a|acme.dev: the stored snapshot does not match its digest`,
    );
  });

  it('a newer schema version (NEWER_SCHEMA), left as it was', () => {
    const path = freshPath();
    open({ path }).close();
    raw(path, (db) => db.pragma('user_version = 7'));
    const error = openError(path);
    expect([error.failure, error.message]).toEqual([
      'NEWER_SCHEMA',
      `registry store ${path}: schema version 7 is newer than this catsim's 2; open it with the catsim that wrote it`,
    ]);
    expect(raw(path, (db) => db.pragma('user_version', { simple: true }))).toBe(7);
  });

  it('a database another store holds open (LOCKED), after the busy timeout; free again once it closes', () => {
    const path = freshPath();
    const holder = open({ path });
    const error = openError(path);
    expect([error.failure, error.message]).toEqual([
      'LOCKED',
      `registry store ${path}: locked by another writer (still SQLITE_BUSY after 100 ms); is another host using it?`,
    ]);
    holder.close();
    expect(open({ path }).issuedLeaseCount()).toBe(0);
  });

  it('a database another connection is writing (LOCKED), with the busy timeout given', () => {
    const path = freshPath();
    open({ path }).close();
    const writer = new Database(path);
    afterThisTest(() => writer.close());
    writer.exec('BEGIN EXCLUSIVE');
    const error = openError(path, { busyTimeoutMs: 20 });
    expect([error.failure, error.message]).toEqual([
      'LOCKED',
      `registry store ${path}: locked by another writer (still SQLITE_BUSY after 20 ms); is another host using it?`,
    ]);
    writer.exec('ROLLBACK');
  });

  it('a path in a directory that does not exist (IO)', () => {
    const path = join(tempDir(), 'missing', 'catalog.db');
    const error = openError(path);
    expect([error.failure, error.message]).toEqual([
      'IO',
      `registry store ${path}: cannot be opened (Cannot open database because the directory does not exist)`,
    ]);
  });

  it('better-sqlite3 not installed (NO_DRIVER)', () => {
    const path = freshPath();
    expect(() => sqliteDriver(path, 'better-sqlite3-not-here')).toThrow(
      new RegistryStoreError(
        path,
        'NO_DRIVER',
        'better-sqlite3-not-here is not installed; the SQLite store needs it: npm install better-sqlite3@^12.11.1 (13 needs Node 22)',
      ),
    );
  });
});

describe('better-sqlite3 stays optional', () => {
  /** Every non-test .ts file under `dir`, relative to the repository. */
  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      .map((entry) => relative('.', join(entry.parentPath, entry.name)))
      .filter((path) => !path.split('/').includes('testing') && !path.includes('node_modules'));
  }

  it('no shipped file loads it at import time: only sqlite-driver.ts requires it, on first use', () => {
    const loaders = ['src', 'sim', 'cli', 'oracle', 'api', 'contract'].flatMap(sources).filter((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .some(
          (line) => /from 'better-sqlite3'|require\('better-sqlite3'\)/.test(line) && !line.startsWith('import type '),
        ),
    );
    expect(loaders).toEqual([]);
    expect(readFileSync('src/registry/sqlite-driver.ts', 'utf8')).toContain(
      "export const SQLITE_DRIVER_MODULE = 'better-sqlite3';",
    );
  });
});

describe("a store on an in-memory connection (the simulator's host disk, F18)", () => {
  it('migrates a fresh connection, and a connection opened from its serialized image holds what was committed', () => {
    const first = new Database(':memory:');
    afterThisTest(() => first.close());
    const store = openSqliteStoreOn(first, 'disk:boot0');
    const one = generationAt(1, 3);
    expect(store.compareAndSet(STORE_KEY, 0, one, receiptOf(one))).toBe(true);
    const [lease] = leases(1);
    store.recordLease(lease!);
    expect(first.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const second = new Database(first.serialize());
    afterThisTest(() => second.close());
    const reopened = openSqliteStoreOn(second, 'disk:boot1');
    expect(reopened.active(STORE_KEY)?.snapshotDigest).toBe(one.snapshotDigest);
    expect(reopened.catalogReceipts(STORE_KEY).map((receipt) => receipt.catalogGeneration)).toEqual([1]);
    expect(reopened.issuedLeaseCount()).toBe(1);
  });

  it("refuses a connection that is not in memory, and another application's image, naming the store", () => {
    const path = freshPath();
    const file = new Database(path);
    afterThisTest(() => file.close());
    expect(() => openSqliteStoreOn(file, 'disk:file')).toThrow(
      'registry store disk:file: prepareMemoryDatabase needs an open in-memory connection',
    );
    const foreign = new Database(':memory:');
    afterThisTest(() => foreign.close());
    foreign.exec('CREATE TABLE notes (body TEXT)');
    expect(() => openSqliteStoreOn(foreign, 'disk:foreign')).toThrow(RegistryStoreError);
  });
});
