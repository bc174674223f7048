/**
 * Opening the SQLite database of a registry store: connect, refuse what is not ours, set the
 * durability pragmas, take the exclusive lock, migrate, check the tables. Every failure is a
 * {@link RegistryStoreError} naming the path and the cause, and the connection is closed; a
 * database that cannot be read is never replaced by an empty registry.
 *
 * This file and sqlite-store.ts are the store port's real I/O: the core touches the file system
 * only through better-sqlite3 (sqlite-driver.ts), and only here. They read no clock and draw no
 * randomness.
 */
import type Database from 'better-sqlite3';
import { sqliteDriver, type SqliteDriver } from './sqlite-driver.ts';
import {
  APPLICATION_ID,
  checkMigrations,
  freshShape,
  latestVersion,
  migrate,
  MigrationStepError,
  schemaMismatch,
  schemaShape,
  type Migration,
} from './sqlite-schema.ts';
import { RegistryStoreError } from './store-error.ts';

/** How long opening waits for another connection's lock before it fails with LOCKED, ms. */
export const DEFAULT_BUSY_TIMEOUT_MS = 100;

/** What the first read of a database finds. */
interface Header {
  applicationId: number;
  userVersion: number;
  /** Names of its tables, indexes, triggers and views, sqlite_% left out. */
  objects: string[];
}

/**
 * Opens `path` (created when absent) as a registry database at the latest version of
 * `migrations`, holding its lock until the connection is closed.
 * @throws RegistryStoreError (NOT_SQLITE, FOREIGN, NEWER_SCHEMA, LOCKED, CORRUPT,
 *   MIGRATION_FAILED, NO_DRIVER, IO); Error for misnumbered `migrations` (before the file is touched).
 */
export function openRegistryDatabase(
  path: string,
  busyTimeoutMs: number,
  migrations: readonly Migration[],
): Database.Database {
  checkMigrations(migrations);
  const Driver = sqliteDriver(path);
  let db: Database.Database;
  try {
    db = new Driver(path, { timeout: busyTimeoutMs });
  } catch (error) {
    throw storeError(path, error, busyTimeoutMs);
  }
  try {
    prepareDatabase(db, path, migrations, Driver);
    return db;
  } catch (error) {
    db.close();
    throw storeError(path, error, busyTimeoutMs);
  }
}

/**
 * Prepares a connection the caller opened in memory (`new Database(':memory:')` or from a
 * serialized image, `new Database(buffer)`) as a registry database, as {@link openRegistryDatabase}
 * does a file: refuse what is not ours, lock, migrate, check the tables. The connection stays open
 * whatever happens (the caller owns it). An in-memory database has no journal on disk, so the
 * write-ahead-log pragmas of a file do not apply: its durability is the caller's (the simulator
 * keeps the image of what was committed across a simulated host restart, sim/host/host-disk.ts).
 * @throws RegistryStoreError as {@link openRegistryDatabase} (never LOCKED or NO_DRIVER here);
 *   TypeError when `db` is not an open in-memory connection.
 */
export function prepareMemoryDatabase(db: Database.Database, name: string, migrations: readonly Migration[]): void {
  if (!db.open || !db.memory)
    throw new TypeError(`registry store ${name}: prepareMemoryDatabase needs an open in-memory connection`);
  checkMigrations(migrations);
  try {
    prepareDatabase(db, name, migrations, db.constructor as SqliteDriver);
  } catch (error) {
    throw storeError(name, error, 0);
  }
}

function prepareDatabase(
  db: Database.Database,
  path: string,
  migrations: readonly Migration[],
  Driver: SqliteDriver,
): void {
  // One writer per database, for the life of the connection: the first read takes the lock and
  // keeps it, so a second host on the same file fails here, fast, instead of interleaving its
  // writes and lease numbers with ours. It also lets the store cache what it read (nobody else
  // can change the file), and keeps the WAL index in memory (no -shm file).
  db.pragma('locking_mode = EXCLUSIVE');
  const latest = latestVersion(migrations);
  const refusal = refusalOf(path, readHeader(db), latest);
  if (refusal !== undefined) throw refusal;
  setDurability(db, path);
  db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version < latest) migrateOrRefuse(db, path, version, migrations);
    const mismatch = schemaMismatch(schemaShape(db), freshShape(migrations, Driver));
    if (mismatch !== undefined)
      throw new RegistryStoreError(
        path,
        'CORRUPT',
        `its tables are not those of schema version ${latest}: ${mismatch}`,
      );
  }).exclusive();
}

/** {@link migrate}, a failing step reported as MIGRATION_FAILED (the transaction undoes them all). */
function migrateOrRefuse(db: Database.Database, path: string, version: number, migrations: readonly Migration[]): void {
  try {
    migrate(db, version, migrations);
  } catch (error) {
    if (!(error instanceof MigrationStepError)) throw error;
    throw new RegistryStoreError(
      path,
      'MIGRATION_FAILED',
      `${error.message}; the database stays at version ${version}`,
    );
  }
}

/**
 * Durability of a committed publish across power loss. Write-ahead logging with
 * `synchronous = FULL`: every commit appends to the WAL and fsyncs it before the commit returns,
 * so a publish (its generation, pointer and catalog receipt) that returned true is on stable
 * storage, and a crash or power cut at any instant leaves each transaction either whole or
 * absent (the WAL is replayed or ignored at the next open). `synchronous = NORMAL` would not do:
 * in WAL mode it skips that fsync, and the last commits before a power cut can roll back. A
 * rollback journal with FULL is as durable but fsyncs the journal and the database on every
 * commit (about three syncs instead of one), for the small, frequent writes a registry makes.
 * `fullfsync` makes macOS flush the drive's cache too (plain fsync does not there; other systems
 * ignore it). Foreign keys are enforced: no pointer, receipt or call receipt without its row.
 */
function setDurability(db: Database.Database, path: string): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (db.memory && mode === 'memory') {
    db.pragma('foreign_keys = ON');
    return;
  }
  if (mode !== 'wal')
    throw new RegistryStoreError(path, 'IO', `cannot use write-ahead logging (journal_mode stays ${String(mode)})`);
  db.pragma('synchronous = FULL');
  db.pragma('fullfsync = ON');
  db.pragma('checkpoint_fullfsync = ON');
  db.pragma('foreign_keys = ON');
}

function readHeader(db: Database.Database): Header {
  return {
    applicationId: db.pragma('application_id', { simple: true }) as number,
    userVersion: db.pragma('user_version', { simple: true }) as number,
    objects: db
      .prepare("SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[],
  };
}

/** The error for a database that is not a catsim registry this code can open, if it is one. */
function refusalOf(path: string, header: Header, latest: number): RegistryStoreError | undefined {
  const empty = header.applicationId === 0 && header.userVersion === 0 && header.objects.length === 0;
  if (empty) return undefined;
  if (header.applicationId !== APPLICATION_ID) {
    return new RegistryStoreError(
      path,
      'FOREIGN',
      `a SQLite database, but not a catsim registry (application_id ${header.applicationId}; ${objectList(header.objects)})`,
    );
  }
  if (header.userVersion > latest) {
    return new RegistryStoreError(
      path,
      'NEWER_SCHEMA',
      `schema version ${header.userVersion} is newer than this catsim's ${latest}; open it with the catsim that wrote it`,
    );
  }
  if (header.userVersion === 0 && header.objects.length > 0) {
    return new RegistryStoreError(
      path,
      'CORRUPT',
      `a catsim registry without a schema version (${objectList(header.objects)})`,
    );
  }
  return undefined;
}

/** `tables: a, b, c` (at most five names), or `no tables`. */
function objectList(names: readonly string[]): string {
  if (names.length === 0) return 'no tables';
  const shown = names.slice(0, 5).join(', ');
  return `tables: ${shown}${names.length > 5 ? `, and ${names.length - 5} more` : ''}`;
}

/** The {@link RegistryStoreError} for what opening threw. */
export function storeError(path: string, error: unknown, busyTimeoutMs: number): RegistryStoreError {
  if (error instanceof RegistryStoreError) return error;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code !== 'string') return new RegistryStoreError(path, 'IO', `cannot be opened (${message})`);
  if (code === 'SQLITE_NOTADB')
    return new RegistryStoreError(path, 'NOT_SQLITE', 'not a SQLite database (SQLITE_NOTADB)');
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new RegistryStoreError(
      path,
      'LOCKED',
      `locked by another writer (still ${code} after ${busyTimeoutMs} ms); is another host using it?`,
    );
  }
  if (code.startsWith('SQLITE_CORRUPT'))
    return new RegistryStoreError(path, 'CORRUPT', `corrupt (${code}: ${message})`);
  return new RegistryStoreError(path, 'IO', `cannot be opened (${code}: ${message})`);
}
