/**
 * The capability registry's store on the registry's SQLite database (SPEC sections 6 and 9): the
 * tables of schema version 2 (src/registry/sqlite-schema.ts), on the connection a
 * `SqliteRegistryStore` owns, so a host keeps one durable file, one lock and one backup for its
 * catalog and its capability registry. Get it from `SqliteRegistryStore.capabilities()`.
 *
 * Every `commit` is one IMMEDIATE transaction (all or none, durable as the registry store's
 * commits are: WAL with `synchronous = FULL` on a file). Records are stored as JSON text beside the
 * columns they are found by; what is read back is a fresh copy. It reads no clock and draws no
 * randomness.
 */
import type Database from 'better-sqlite3';
import type {
  AliasRecord,
  AuditRecord,
  BundleRecord,
  CapabilityReceipt,
  CapabilityStore,
  CapabilityWrite,
  LifecycleRecord,
  RunRecord,
  ToolVersion,
} from './capability-store.ts';

const SQL = {
  versionExists: 'SELECT 1 FROM capability_versions WHERE tool_id = ? AND version = ?',
  insertVersion: 'INSERT INTO capability_versions (tool_id, version, manifest_digest, record) VALUES (?, ?, ?, ?)',
  versions: 'SELECT record FROM capability_versions WHERE tool_id = ? ORDER BY version',
  version: 'SELECT record FROM capability_versions WHERE tool_id = ? AND version = ?',
  upsertLifecycle:
    'INSERT INTO capability_lifecycles (tool_id, version, record) VALUES (?, ?, ?) ON CONFLICT (tool_id, version) DO UPDATE SET record = excluded.record',
  lifecycle: 'SELECT record FROM capability_lifecycles WHERE tool_id = ? AND version = ?',
  upsertAlias:
    'INSERT INTO capability_aliases (alias, record) VALUES (?, ?) ON CONFLICT (alias) DO UPDATE SET record = excluded.record',
  alias: 'SELECT record FROM capability_aliases WHERE alias = ?',
  aliases: 'SELECT record FROM capability_aliases ORDER BY seq',
  upsertBundle:
    'INSERT INTO capability_bundles (bundle_id, record) VALUES (?, ?) ON CONFLICT (bundle_id) DO UPDATE SET record = excluded.record',
  bundle: 'SELECT record FROM capability_bundles WHERE bundle_id = ?',
  bundles: 'SELECT record FROM capability_bundles ORDER BY seq',
  upsertRun:
    'INSERT INTO capability_runs (run_id, record) VALUES (?, ?) ON CONFLICT (run_id) DO UPDATE SET record = excluded.record',
  run: 'SELECT record FROM capability_runs WHERE run_id = ?',
  runs: 'SELECT record FROM capability_runs ORDER BY seq',
  lastReceipt: 'SELECT COALESCE(MAX(receipt_number), 0) FROM capability_receipts',
  insertReceipt: 'INSERT INTO capability_receipts (receipt_number, record) VALUES (?, ?)',
  receipts: 'SELECT record FROM capability_receipts ORDER BY receipt_number',
  lastAudit: 'SELECT COALESCE(MAX(seq), 0) FROM capability_audit',
  insertAudit: 'INSERT INTO capability_audit (seq, record) VALUES (?, ?)',
  audit: 'SELECT record FROM capability_audit ORDER BY seq',
} as const;

type Statements = { [name in keyof typeof SQL]: Database.Statement };

/** A {@link CapabilityStore} on a registry database's connection (see the file header). */
export class SqliteCapabilityStore implements CapabilityStore {
  readonly #sql: Statements;
  readonly #commit: Database.Transaction<(writes: readonly CapabilityWrite[]) => void>;

  /**
   * @param db an open connection to a registry database at schema version 2 or later, prepared by
   *   the registry store (which owns it: closing it closes this store too).
   */
  constructor(db: Database.Database) {
    this.#sql = Object.fromEntries(Object.entries(SQL).map(([name, text]) => [name, db.prepare(text)])) as Statements;
    this.#commit = db.transaction((writes) => {
      for (const write of writes) this.#write(write);
    });
  }

  commit(writes: readonly CapabilityWrite[]): void {
    this.#commit.immediate(writes);
  }

  #write(write: CapabilityWrite): void {
    const text = JSON.stringify(write.record);
    switch (write.kind) {
      case 'version': {
        const { toolId, version, manifestDigest } = write.record;
        if (this.#sql.versionExists.get(toolId, version) !== undefined)
          throw new Error(`version ${toolId}@${version} is already stored (versions are immutable)`);
        this.#sql.insertVersion.run(toolId, version, manifestDigest, text);
        return;
      }
      case 'lifecycle':
        this.#sql.upsertLifecycle.run(write.record.toolId, write.record.version, text);
        return;
      case 'alias':
        this.#sql.upsertAlias.run(write.record.alias, text);
        return;
      case 'bundle':
        this.#sql.upsertBundle.run(write.record.bundleId, text);
        return;
      case 'run':
        this.#sql.upsertRun.run(write.record.runId, text);
        return;
      case 'receipt': {
        const next = (this.#sql.lastReceipt.pluck().get() as number) + 1;
        if (write.record.receiptNumber !== next)
          throw new Error(`receipt ${write.record.receiptNumber} is not the next receipt (${next})`);
        this.#sql.insertReceipt.run(write.record.receiptNumber, text);
        return;
      }
      case 'audit': {
        const last = this.#sql.lastAudit.pluck().get() as number;
        if (write.record.seq <= last) throw new Error(`audit record ${write.record.seq} is not after ${last}`);
        this.#sql.insertAudit.run(write.record.seq, text);
        return;
      }
    }
  }

  versions(toolId: string): ToolVersion[] {
    return all<ToolVersion>(this.#sql.versions, toolId);
  }

  version(toolId: string, version: number): ToolVersion | undefined {
    return one<ToolVersion>(this.#sql.version, toolId, version);
  }

  lifecycle(toolId: string, version: number): LifecycleRecord | undefined {
    return one<LifecycleRecord>(this.#sql.lifecycle, toolId, version);
  }

  alias(alias: string): AliasRecord | undefined {
    return one<AliasRecord>(this.#sql.alias, alias);
  }

  aliases(): AliasRecord[] {
    return all<AliasRecord>(this.#sql.aliases);
  }

  bundle(bundleId: string): BundleRecord | undefined {
    return one<BundleRecord>(this.#sql.bundle, bundleId);
  }

  bundles(): BundleRecord[] {
    return all<BundleRecord>(this.#sql.bundles);
  }

  run(runId: string): RunRecord | undefined {
    return one<RunRecord>(this.#sql.run, runId);
  }

  runs(): RunRecord[] {
    return all<RunRecord>(this.#sql.runs);
  }

  receipts(): CapabilityReceipt[] {
    return all<CapabilityReceipt>(this.#sql.receipts);
  }

  receiptCount(): number {
    return this.#sql.lastReceipt.pluck().get() as number;
  }

  audit(): AuditRecord[] {
    return all<AuditRecord>(this.#sql.audit);
  }

  lastAuditSeq(): number {
    return this.#sql.lastAudit.pluck().get() as number;
  }
}

function one<T>(statement: Database.Statement, ...params: unknown[]): T | undefined {
  const text = statement.pluck().get(...params) as string | undefined;
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

function all<T>(statement: Database.Statement, ...params: unknown[]): T[] {
  return (statement.pluck().all(...params) as string[]).map((text) => JSON.parse(text) as T);
}
