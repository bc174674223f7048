/**
 * The durable registry store: the {@link RegistryStore} port on an embedded SQLite database
 * (better-sqlite3 12: see sqlite-driver.ts), the default store of a host that embeds the core.
 *
 * Usage: `new CatalogHost(ports, { ...config, storePath: '/var/lib/myhost/catalog.db' })` opens it
 * and closes it in `host.stop()`; a host that owns the store opens it itself,
 * `const store = openSqliteStore({ path })`, passes `new CatalogHost({ ...ports, store }, config)`
 * and calls `store.close()` after `host.stop()`. A new process opening the same path finds every generation, active pointer,
 * catalog receipt, DISABLED mark, lease (consumed or not) and call receipt that was committed.
 *
 * Transactions (each one SQLite transaction, durable when the method returns; see sqlite-open.ts
 * for the pragmas):
 * - `compareAndSet`: read the pointer; insert the generation row (with its source revision and
 *   page root); insert or move the pointer; insert the catalog receipt; clear the DISABLED mark.
 *   A failure at any statement rolls back all of them;
 * - `disable`: the DISABLED mark;
 * - `recordLease`: the issued lease;
 * - `consumeLease`: mark the lease consumed (only if it was not) and insert the call receipt;
 * - `recordOutcome`: the outcome of a receipt (only if it had none).
 *
 * One connection owns the database (an exclusive lock, held until `close`): a second store on
 * the same file fails with LOCKED. So the store may cache what it read: active generations and
 * DISABLED marks are served from memory after their first read; other generations are read and
 * checked against their digest at each call. The store reads no clock and draws no randomness;
 * its only I/O is through better-sqlite3, which is the port's implementation itself.
 */
import type { CapabilityStore } from '../capability/capability-store.ts';
import { SqliteCapabilityStore } from '../capability/sqlite-capability-store.ts';
import type Database from 'better-sqlite3';
import type { CallOutcome } from '../admission/codes.ts';
import type { LEASE_SCHEMA, SignedLease } from '../admission/lease.ts';
import { digestOfSnapshot, type ToolCatalogSnapshot } from '../snapshot/snapshot.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, openRegistryDatabase, prepareMemoryDatabase } from './sqlite-open.ts';
import { MIGRATIONS, type Migration } from './sqlite-schema.ts';
import { RegistryStoreError } from './store-error.ts';
import {
  checkReceiptMatches,
  type CallReceipt,
  type CallReceiptRecord,
  type CatalogReceipt,
  type GenerationRecord,
  type GenerationStatus,
  type LeaseRecord,
  type RegistryStore,
} from './store.ts';

export { DEFAULT_BUSY_TIMEOUT_MS } from './sqlite-open.ts';

/** Where and how to open a SQLite registry store. */
export interface SqliteStoreOptions {
  /** The database file; created when absent (its directory must exist). */
  path: string;
  /**
   * How long opening waits for another connection's lock before failing with LOCKED, ms.
   * Default {@link DEFAULT_BUSY_TIMEOUT_MS} (100): a live host never releases its lock, so a
   * long wait would only delay the error.
   */
  busyTimeoutMs?: number;
}

/**
 * Opens (or creates) the registry database at `options.path`, migrated to the current schema.
 * @throws RegistryStoreError when the file is not a SQLite database (NOT_SQLITE), is another
 *   application's (FOREIGN), was written by a newer catsim (NEWER_SCHEMA), is held by another
 *   connection (LOCKED), is damaged (CORRUPT), cannot be migrated (MIGRATION_FAILED) or opened (IO),
 *   or better-sqlite3 is not installed (NO_DRIVER);
 *   RangeError for a `busyTimeoutMs` that is not an integer >= 0.
 */
export function openSqliteStore(options: SqliteStoreOptions): SqliteRegistryStore {
  return openSqliteStoreWith(options, MIGRATIONS);
}

/**
 * {@link openSqliteStore} with another migration list: for tests of the migration mechanism
 * only (a database migrated by a list the code does not ship is not one it can read).
 */
export function openSqliteStoreWith(
  options: SqliteStoreOptions,
  migrations: readonly Migration[],
): SqliteRegistryStore {
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0)
    throw new RangeError(`busyTimeoutMs must be an integer >= 0, got ${busyTimeoutMs}`);
  const db = openRegistryDatabase(options.path, busyTimeoutMs, migrations);
  return new SqliteRegistryStore(db, options.path);
}

/**
 * A store on a connection the caller opened in memory (a better-sqlite3 `Database` from
 * `':memory:'` or from a serialized image), migrated and checked as {@link openSqliteStore} does a
 * file. The caller owns the connection and its durability: this is how the simulator runs the
 * real store under a simulated host restart (sim/host/host-disk.ts), keeping the committed image
 * of the database across boots. `name` stands for the path in errors.
 * @throws RegistryStoreError (FOREIGN, NEWER_SCHEMA, CORRUPT, MIGRATION_FAILED, IO) as
 *   {@link openSqliteStore}; TypeError when `db` is not an open in-memory connection.
 */
export function openSqliteStoreOn(db: Database.Database, name: string): SqliteRegistryStore {
  prepareMemoryDatabase(db, name, MIGRATIONS);
  return new SqliteRegistryStore(db, name);
}

interface GenerationRow {
  key: string;
  generation: number;
  status: GenerationStatus;
  source_revision: number | null;
  page_root: string;
  snapshot_digest: string;
  snapshot: string;
  published_at: number;
  rolled_back_from: number | null;
}

interface CatalogReceiptRow {
  key: string;
  generation: number;
  previous_generation: number;
  scan_id: string;
  source_revision: number | null;
  page_root: string;
  snapshot_digest: string;
  published_at: number;
  rolled_back_from: number | null;
  reason: string | null;
}

interface LeaseRow {
  lease_id: string;
  schema: string;
  key: string;
  principal: string;
  session: string;
  tool: string;
  resource_scope: string;
  generation: number;
  descriptor_digest: string;
  policy_epoch: number;
  issued_at: number;
  not_after: number;
  mac: string;
  consumed_at: number | null;
}

interface CallReceiptRow {
  lease_id: string;
  call_id: string;
  key: string;
  tool: string;
  generation: number;
  descriptor_digest: string;
  policy_epoch: number;
  disclosure_generation: number | null;
  disclosure_snapshot_digest: string | null;
  pin: number | null;
  written_at: number;
  outcome: CallOutcome | null;
  outcome_at: number | null;
}

/** The SQL of every statement the store runs, prepared once per connection. */
const SQL = {
  pointer: 'SELECT generation FROM pointers WHERE key = ?',
  generation: 'SELECT * FROM generations WHERE key = ? AND generation = ?',
  insertGeneration: `INSERT INTO generations (key, generation, status, source_revision, page_root, snapshot_digest, snapshot, published_at, rolled_back_from)
    VALUES (@key, @generation, @status, @source_revision, @page_root, @snapshot_digest, @snapshot, @published_at, @rolled_back_from)`,
  movePointer:
    'INSERT INTO pointers (key, generation) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET generation = excluded.generation',
  insertCatalogReceipt: `INSERT INTO catalog_receipts (key, generation, previous_generation, scan_id, source_revision, page_root, snapshot_digest, published_at, rolled_back_from, reason)
    VALUES (@key, @generation, @previous_generation, @scan_id, @source_revision, @page_root, @snapshot_digest, @published_at, @rolled_back_from, @reason)`,
  catalogReceipts: 'SELECT * FROM catalog_receipts WHERE key = ? ORDER BY generation',
  disabled: 'SELECT reason FROM disabled_keys WHERE key = ?',
  disable:
    'INSERT INTO disabled_keys (key, reason) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET reason = excluded.reason',
  enable: 'DELETE FROM disabled_keys WHERE key = ?',
  insertLease: `INSERT INTO leases (lease_id, schema, key, principal, session, tool, resource_scope, generation, descriptor_digest, policy_epoch, issued_at, not_after, mac)
    VALUES (@lease_id, @schema, @key, @principal, @session, @tool, @resource_scope, @generation, @descriptor_digest, @policy_epoch, @issued_at, @not_after, @mac)
    ON CONFLICT (lease_id) DO NOTHING`,
  lease: 'SELECT * FROM leases WHERE lease_id = ?',
  leases: 'SELECT * FROM leases ORDER BY seq',
  leaseCount: 'SELECT count(*) FROM leases',
  consume: 'UPDATE leases SET consumed_at = ? WHERE lease_id = ? AND consumed_at IS NULL',
  insertCallReceipt: `INSERT INTO call_receipts (lease_id, call_id, key, tool, generation, descriptor_digest, policy_epoch, disclosure_generation, disclosure_snapshot_digest, pin, written_at)
    VALUES (@lease_id, @call_id, @key, @tool, @generation, @descriptor_digest, @policy_epoch, @disclosure_generation, @disclosure_snapshot_digest, @pin, @written_at)`,
  outcome: 'UPDATE call_receipts SET outcome = ?, outcome_at = ? WHERE lease_id = ? AND outcome IS NULL',
  callReceipt: 'SELECT * FROM call_receipts WHERE lease_id = ?',
  callReceipts: 'SELECT * FROM call_receipts ORDER BY seq',
} as const;

type Statements = { [name in keyof typeof SQL]: Database.Statement };

/**
 * A {@link RegistryStore} on one SQLite connection (see the file header). Construct it with
 * {@link openSqliteStore}; the constructor takes a connection that opening already prepared.
 */
export class SqliteRegistryStore implements RegistryStore {
  readonly #db: Database.Database;
  readonly #sql: Statements;
  /** Active generation per key, null for a key with nothing published; filled on first read. */
  readonly #active = new Map<string, GenerationRecord | null>();
  /** DISABLED reason per key, null while enabled; filled on first read. */
  readonly #disabled = new Map<string, string | null>();
  readonly #publish: Database.Transaction<
    (key: string, expected: number, next: GenerationRecord, receipt: CatalogReceipt) => boolean
  >;
  readonly #consume: Database.Transaction<(receipt: CallReceipt) => boolean>;
  #capabilities: SqliteCapabilityStore | undefined;

  constructor(
    db: Database.Database,
    readonly path: string,
  ) {
    this.#db = db;
    this.#sql = Object.fromEntries(Object.entries(SQL).map(([name, text]) => [name, db.prepare(text)])) as Statements;
    this.#publish = db.transaction((key, expected, next, receipt) => this.#writePublish(key, expected, next, receipt));
    this.#consume = db.transaction((receipt) => this.#writeConsume(receipt));
  }

  /**
   * The capability registry's store on this database (SPEC section 9; the tables of schema
   * version 2), sharing this store's connection, lock and file: one backup holds both. The same
   * object on every call; it is closed with this store.
   */
  capabilities(): CapabilityStore {
    this.#checkOpen();
    this.#capabilities ??= new SqliteCapabilityStore(this.#db);
    return this.#capabilities;
  }

  /** Whether the connection is still open. */
  get open(): boolean {
    return this.#db.open;
  }

  /**
   * Closes the connection and releases the lock; every method throws afterwards (also those
   * that would have answered from memory: a closed store serves nothing it read before).
   */
  close(): void {
    this.#db.close();
  }

  #checkOpen(): void {
    if (!this.#db.open) throw new TypeError(`registry store ${this.path} is closed`);
  }

  active(key: string): GenerationRecord | undefined {
    this.#checkOpen();
    let record = this.#active.get(key);
    if (record === undefined) {
      const generation = this.#sql.pointer.pluck().get(key) as number | undefined;
      record = generation === undefined ? null : (this.#readGeneration(key, generation) ?? null);
      this.#active.set(key, record);
    }
    return record ?? undefined;
  }

  generation(key: string, catalogGeneration: number): GenerationRecord | undefined {
    const active = this.active(key);
    if (active?.catalogGeneration === catalogGeneration) return active;
    return this.#readGeneration(key, catalogGeneration);
  }

  compareAndSet(key: string, expectedGeneration: number, next: GenerationRecord, receipt: CatalogReceipt): boolean {
    checkReceiptMatches(key, next, receipt);
    // IMMEDIATE: the pointer is read inside the write transaction, so the compare and the swap
    // are one step even for a connection that shared the file.
    const moved = this.#publish.immediate(key, expectedGeneration, next, receipt);
    if (moved) {
      this.#active.set(key, next);
      this.#disabled.set(key, null);
    }
    return moved;
  }

  /**
   * The statements of one publish, in this order, inside the caller's transaction: compare, the
   * generation, the pointer, the catalog receipt, the DISABLED mark.
   */
  #writePublish(key: string, expected: number, next: GenerationRecord, receipt: CatalogReceipt): boolean {
    const holds = (this.#sql.pointer.pluck().get(key) as number | undefined) ?? 0;
    if (holds !== expected || next.catalogGeneration !== expected + 1) return false;
    this.#sql.insertGeneration.run(generationRow(next));
    this.#sql.movePointer.run(key, next.catalogGeneration);
    this.#sql.insertCatalogReceipt.run(catalogReceiptRow(receipt));
    this.#sql.enable.run(key);
    return true;
  }

  catalogReceipts(key: string): CatalogReceipt[] {
    return (this.#sql.catalogReceipts.all(key) as CatalogReceiptRow[]).map(catalogReceiptFromRow);
  }

  disabledReason(key: string): string | undefined {
    this.#checkOpen();
    let reason = this.#disabled.get(key);
    if (reason === undefined) {
      reason = (this.#sql.disabled.pluck().get(key) as string | undefined) ?? null;
      this.#disabled.set(key, reason);
    }
    return reason ?? undefined;
  }

  disable(key: string, reason: string): void {
    this.#sql.disable.run(key, reason);
    this.#disabled.set(key, reason);
  }

  recordLease(lease: SignedLease): void {
    const inserted = this.#sql.insertLease.run(leaseRow(lease)).changes;
    if (inserted === 0) throw new Error(`lease ${lease.leaseId} is already in the ledger`);
  }

  lease(leaseId: string): LeaseRecord | undefined {
    const row = this.#sql.lease.get(leaseId) as LeaseRow | undefined;
    return row === undefined ? undefined : leaseFromRow(row);
  }

  leases(): LeaseRecord[] {
    return (this.#sql.leases.all() as LeaseRow[]).map(leaseFromRow);
  }

  issuedLeaseCount(): number {
    return this.#sql.leaseCount.pluck().get() as number;
  }

  consumeLease(receipt: CallReceipt): boolean {
    return this.#consume.immediate(receipt);
  }

  /** The statements of one consumption, inside the caller's transaction: the lease, then the receipt. */
  #writeConsume(receipt: CallReceipt): boolean {
    if (this.#sql.consume.run(receipt.writtenAt, receipt.leaseId).changes === 0) return false;
    this.#sql.insertCallReceipt.run(callReceiptRow(receipt));
    return true;
  }

  recordOutcome(leaseId: string, outcome: CallOutcome, at: number): boolean {
    return this.#sql.outcome.run(outcome, at, leaseId).changes === 1;
  }

  callReceipt(leaseId: string): CallReceiptRecord | undefined {
    const row = this.#sql.callReceipt.get(leaseId) as CallReceiptRow | undefined;
    return row === undefined ? undefined : callReceiptFromRow(row);
  }

  callReceipts(): CallReceiptRecord[] {
    return (this.#sql.callReceipts.all() as CallReceiptRow[]).map(callReceiptFromRow);
  }

  /** A stored generation, its snapshot parsed, frozen and checked against the stored digest. */
  #readGeneration(key: string, catalogGeneration: number): GenerationRecord | undefined {
    const row = this.#sql.generation.get(key, catalogGeneration) as GenerationRow | undefined;
    if (row === undefined) return undefined;
    const snapshot = deepFreeze(JSON.parse(row.snapshot) as ToolCatalogSnapshot);
    const damage = snapshotDamage(row, snapshot);
    if (damage !== undefined)
      throw new RegistryStoreError(this.path, 'CORRUPT', `generation ${catalogGeneration} of ${key}: ${damage}`);
    return {
      key: row.key,
      catalogGeneration: row.generation,
      status: row.status,
      snapshot,
      snapshotDigest: row.snapshot_digest,
      publishedAt: row.published_at,
      rolledBackFrom: row.rolled_back_from,
    };
  }
}

/** What is wrong with a stored snapshot, or undefined when it is what was published. */
function snapshotDamage(row: GenerationRow, snapshot: ToolCatalogSnapshot): string | undefined {
  if (snapshot.sourceRevision !== row.source_revision)
    return `the snapshot's source revision ${snapshot.sourceRevision} is not the row's ${row.source_revision}`;
  if (snapshot.pageRoot !== row.page_root) return "the snapshot's page root is not the row's";
  if (digestOfSnapshot(snapshot) !== row.snapshot_digest) return 'the stored snapshot does not match its digest';
  return undefined;
}

function generationRow(record: GenerationRecord): GenerationRow {
  return {
    key: record.key,
    generation: record.catalogGeneration,
    status: record.status,
    source_revision: record.snapshot.sourceRevision,
    page_root: record.snapshot.pageRoot,
    snapshot_digest: record.snapshotDigest,
    snapshot: JSON.stringify(record.snapshot),
    published_at: record.publishedAt,
    rolled_back_from: record.rolledBackFrom,
  };
}

function catalogReceiptRow(receipt: CatalogReceipt): CatalogReceiptRow {
  return {
    key: receipt.key,
    generation: receipt.catalogGeneration,
    previous_generation: receipt.previousGeneration,
    scan_id: receipt.scanId,
    source_revision: receipt.sourceRevision,
    page_root: receipt.pageRoot,
    snapshot_digest: receipt.snapshotDigest,
    published_at: receipt.publishedAt,
    rolled_back_from: receipt.rolledBackFrom,
    reason: receipt.reason,
  };
}

function catalogReceiptFromRow(row: CatalogReceiptRow): CatalogReceipt {
  return {
    key: row.key,
    catalogGeneration: row.generation,
    previousGeneration: row.previous_generation,
    scanId: row.scan_id,
    sourceRevision: row.source_revision,
    pageRoot: row.page_root,
    snapshotDigest: row.snapshot_digest,
    publishedAt: row.published_at,
    rolledBackFrom: row.rolled_back_from,
    reason: row.reason,
  };
}

function leaseRow(lease: SignedLease): Omit<LeaseRow, 'consumed_at'> {
  return {
    lease_id: lease.leaseId,
    schema: lease.schema,
    key: lease.key,
    principal: lease.principal,
    session: lease.session,
    tool: lease.tool,
    resource_scope: lease.resourceScope,
    generation: lease.generation,
    descriptor_digest: lease.descriptorDigest,
    policy_epoch: lease.policyEpoch,
    issued_at: lease.issuedAt,
    not_after: lease.notAfter,
    mac: lease.mac,
  };
}

function leaseFromRow(row: LeaseRow): LeaseRecord {
  const lease: SignedLease = {
    schema: row.schema as typeof LEASE_SCHEMA,
    leaseId: row.lease_id,
    key: row.key,
    principal: row.principal,
    session: row.session,
    tool: row.tool,
    resourceScope: row.resource_scope,
    generation: row.generation,
    descriptorDigest: row.descriptor_digest,
    policyEpoch: row.policy_epoch,
    issuedAt: row.issued_at,
    notAfter: row.not_after,
    mac: row.mac,
  };
  return { lease, consumedAt: row.consumed_at };
}

function callReceiptRow(receipt: CallReceipt): Omit<CallReceiptRow, 'outcome' | 'outcome_at'> {
  return {
    lease_id: receipt.leaseId,
    call_id: receipt.callId,
    key: receipt.key,
    tool: receipt.tool,
    generation: receipt.generation,
    descriptor_digest: receipt.descriptorDigest,
    policy_epoch: receipt.policyEpoch,
    disclosure_generation: receipt.disclosure?.generation ?? null,
    disclosure_snapshot_digest: receipt.disclosure?.snapshotDigest ?? null,
    pin: receipt.pin,
    written_at: receipt.writtenAt,
  };
}

function callReceiptFromRow(row: CallReceiptRow): CallReceiptRecord {
  const disclosure =
    row.disclosure_generation === null || row.disclosure_snapshot_digest === null
      ? null
      : { generation: row.disclosure_generation, snapshotDigest: row.disclosure_snapshot_digest };
  return {
    callId: row.call_id,
    leaseId: row.lease_id,
    key: row.key,
    tool: row.tool,
    generation: row.generation,
    descriptorDigest: row.descriptor_digest,
    policyEpoch: row.policy_epoch,
    disclosure,
    pin: row.pin,
    writtenAt: row.written_at,
    outcome: row.outcome,
    outcomeAt: row.outcome_at,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
