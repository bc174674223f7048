/**
 * Mutants of a host restart (F18, SPEC section 12): the reference core with exactly one of the
 * defences a restart needs removed.
 *
 * What survives a restart in these mutants and not in the reference core is kept in a map keyed
 * by the round's clock object (the same object for every boot of one round, a fresh one per
 * round), so a mutant's "memory across the crash" is per round and the traces stay deterministic
 * on any number of workers.
 */
import type Database from 'better-sqlite3';
import { Walk } from '../../src/discovery/scan.ts';
import type { CatalogKey } from '../../src/keys.ts';
import { CatalogRegistry, type PublishGuards, type PublishResult } from '../../src/registry/registry.ts';
import { openSqliteStoreOn, type SqliteRegistryStore } from '../../src/registry/sqlite-store.ts';
import type {
  CallReceipt,
  CallReceiptRecord,
  CatalogReceipt,
  GenerationRecord,
  LeaseRecord,
  RegistryStore,
} from '../../src/registry/store.ts';
import type { CallOutcome } from '../../src/admission/codes.ts';
import type { SignedLease } from '../../src/admission/lease.ts';
import type { ToolCatalogSnapshot } from '../../src/snapshot/snapshot.ts';

/**
 * A store whose publish is two transactions: the generation row and the pointer in one, the
 * catalog receipt in the next (seed 001 asks for one). A crash between them leaves a pointer on
 * the disk whose publish never finished. The pointer half reads the disk with plain SQL each time
 * (no cache); the lease ledger is the reference store's.
 */
export class TwoTransactionPublishStore implements RegistryStore {
  readonly #db: Database.Database;
  readonly #ledger: SqliteRegistryStore;

  constructor(db: Database.Database, name: string) {
    this.#ledger = openSqliteStoreOn(db, name);
    this.#db = db;
  }

  active(key: string): GenerationRecord | undefined {
    const generation = this.#db.prepare('SELECT generation FROM pointers WHERE key = ?').pluck().get(key) as
      | number
      | undefined;
    return generation === undefined ? undefined : this.generation(key, generation);
  }

  generation(key: string, catalogGeneration: number): GenerationRecord | undefined {
    const row = this.#db
      .prepare('SELECT * FROM generations WHERE key = ? AND generation = ?')
      .get(key, catalogGeneration) as
      | {
          key: string;
          generation: number;
          status: GenerationRecord['status'];
          snapshot: string;
          snapshot_digest: string;
          published_at: number;
          rolled_back_from: number | null;
        }
      | undefined;
    if (row === undefined) return undefined;
    return {
      key: row.key,
      catalogGeneration: row.generation,
      status: row.status,
      snapshot: JSON.parse(row.snapshot) as ToolCatalogSnapshot,
      snapshotDigest: row.snapshot_digest,
      publishedAt: row.published_at,
      rolledBackFrom: row.rolled_back_from,
    };
  }

  compareAndSet(key: string, expectedGeneration: number, next: GenerationRecord, receipt: CatalogReceipt): boolean {
    const moved = this.#db
      .transaction(() => {
        const holds =
          (this.#db.prepare('SELECT generation FROM pointers WHERE key = ?').pluck().get(key) as number | undefined) ??
          0;
        if (holds !== expectedGeneration || next.catalogGeneration !== expectedGeneration + 1) return false;
        this.#db
          .prepare(`INSERT INTO generations (key, generation, status, source_revision, page_root, snapshot_digest, snapshot, published_at, rolled_back_from)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
          .run(
            key,
            next.catalogGeneration,
            next.status,
            next.snapshot.sourceRevision,
            next.snapshot.pageRoot,
            next.snapshotDigest,
            JSON.stringify(next.snapshot),
            next.publishedAt,
            next.rolledBackFrom,
          );
        this.#db
          .prepare(
            'INSERT INTO pointers (key, generation) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET generation = excluded.generation',
          )
          .run(key, next.catalogGeneration);
        this.#db.prepare('DELETE FROM disabled_keys WHERE key = ?').run(key);
        return true;
      })
      .immediate();
    if (!moved) return false;
    // The defect: the receipt is a second transaction.
    this.#db
      .transaction(() => {
        this.#db
          .prepare(`INSERT INTO catalog_receipts (key, generation, previous_generation, scan_id, source_revision, page_root, snapshot_digest, published_at, rolled_back_from, reason)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
          .run(
            receipt.key,
            receipt.catalogGeneration,
            receipt.previousGeneration,
            receipt.scanId,
            receipt.sourceRevision,
            receipt.pageRoot,
            receipt.snapshotDigest,
            receipt.publishedAt,
            receipt.rolledBackFrom,
            receipt.reason,
          );
      })
      .immediate();
    return true;
  }

  catalogReceipts(key: string): CatalogReceipt[] {
    return this.#ledger.catalogReceipts(key);
  }

  disabledReason(key: string): string | undefined {
    return (
      (this.#db.prepare('SELECT reason FROM disabled_keys WHERE key = ?').pluck().get(key) as string | undefined) ??
      undefined
    );
  }

  disable(key: string, reason: string): void {
    this.#db
      .prepare(
        'INSERT INTO disabled_keys (key, reason) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET reason = excluded.reason',
      )
      .run(key, reason);
  }

  recordLease(lease: SignedLease): void {
    this.#ledger.recordLease(lease);
  }

  lease(leaseId: string): LeaseRecord | undefined {
    return this.#ledger.lease(leaseId);
  }

  leases(): LeaseRecord[] {
    return this.#ledger.leases();
  }

  issuedLeaseCount(): number {
    return this.#ledger.issuedLeaseCount();
  }

  consumeLease(receipt: CallReceipt): boolean {
    return this.#ledger.consumeLease(receipt);
  }

  recordOutcome(leaseId: string, outcome: CallOutcome, at: number): boolean {
    return this.#ledger.recordOutcome(leaseId, outcome, at);
  }

  callReceipt(leaseId: string): CallReceiptRecord | undefined {
    return this.#ledger.callReceipt(leaseId);
  }

  callReceipts(): CallReceiptRecord[] {
    return this.#ledger.callReceipts();
  }
}

/** The active generations a registry was told of, per round (keyed by the round's clock). */
const REMEMBERED = new WeakMap<object, Map<string, GenerationRecord>>();

/**
 * A registry that trusts its pre-crash in-memory state: it answers `active` from what its
 * publishes returned (kept across the restart) before it asks the store. A publish that committed
 * but never returned (the host died in between) is missing from that memory, so the new boot
 * serves the generation before it.
 */
export class PreCrashMemoryRegistry extends CatalogRegistry {
  #memory(): Map<string, GenerationRecord> {
    const clock = (this as unknown as { clock: object }).clock;
    let memory = REMEMBERED.get(clock);
    if (memory === undefined) REMEMBERED.set(clock, (memory = new Map()));
    return memory;
  }

  override active(key: CatalogKey): GenerationRecord | undefined {
    return this.#memory().get(this.storeKey(key)) ?? super.active(key);
  }

  override publish(snapshot: ToolCatalogSnapshot, expectedGeneration: number, guards: PublishGuards): PublishResult {
    const result = super.publish(snapshot, expectedGeneration, guards);
    if (result.ok) this.#memory().set(result.record.key, result.record);
    return result;
  }

  override rollback(
    key: CatalogKey,
    reason: string,
    guards: PublishGuards,
    flaggedGeneration?: number,
  ): ReturnType<CatalogRegistry['rollback']> {
    const result = super.rollback(key, reason, guards, flaggedGeneration);
    const active = super.active(key);
    if (active !== undefined) this.#memory().set(this.storeKey(key), active);
    return result;
  }
}

/** A walk's saved position: the pages read so far, the bound revision, the next cursor, and whose walk it was. */
interface SavedWalk {
  owner: object;
  pages: Walk['pages'];
  revision: number | null | undefined;
  cursor: string;
}

const SAVED_WALKS = new WeakMap<object, Map<string, SavedWalk>>();

/**
 * A walk that saves its cursor after every page and, in a new process (another host's sink), resumes
 * a half-finished walk of the key from there with the pages the dead process had read, instead of
 * starting again from page 1.
 */
export class ResumeFromCursorWalk extends Walk {
  #saved(): Map<string, SavedWalk> {
    let saved = SAVED_WALKS.get(this.ctx.clock);
    if (saved === undefined) SAVED_WALKS.set(this.ctx.clock, (saved = new Map()));
    return saved;
  }

  override async run(): ReturnType<Walk['run']> {
    const saved = this.#saved().get(this.ctx.key);
    if (saved === undefined || saved.owner === this.ctx.sink) return this.#finish(await super.run());
    // The defect: the dead process's pages and cursor are taken over as this walk's own.
    this.#saved().delete(this.ctx.key);
    this.pages.push(...saved.pages);
    this.revision = saved.revision;
    let cursor: string | undefined = saved.cursor;
    do {
      cursor = this.advance(cursor, await this.read(cursor, false));
    } while (cursor !== undefined);
    if (this.revision === null) return this.#finish({ state: 'UNVERSIONED_OBSERVATION', reason: 'OK' });
    await this.finalRecheck();
    this.checkEquivocation();
    return this.#finish({ state: 'SNAPSHOT_PROVEN', reason: 'OK' });
  }

  #finish<T>(end: T): T {
    this.#saved().delete(this.ctx.key);
    return end;
  }

  protected override advance(cursorIn: string | undefined, read: Parameters<Walk['advance']>[1]): string | undefined {
    const cursorOut = super.advance(cursorIn, read);
    if (cursorOut !== undefined)
      this.#saved().set(this.ctx.key, {
        owner: this.ctx.sink,
        pages: [...this.pages],
        revision: this.revision,
        cursor: cursorOut,
      });
    return cursorOut;
  }
}
