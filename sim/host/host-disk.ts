/**
 * The durable disk of a simulated host (F18): one SQLite database per round, in memory, whose
 * committed image survives the host's restarts.
 *
 * Fault model: the host process dies at a seeded point (sim/host/host-process.ts decides when).
 * SQLite's own promise is what the disk models: a transaction is on the disk whole once it
 * committed and not at all before. Each boot gets its own connection, opened from the image the
 * previous boot left; the image is taken when the next boot starts, after SQLite rolled back
 * whatever transaction the crash cut. Two crash points are raised from inside SQLite, by TEMP
 * triggers that call the world's function `catsim_disk` (temp objects are not part of the image
 * or of the registry's schema): `in_publish` before a catalog receipt row is inserted (inside the
 * publish transaction of the reference store), `after_lease` before a lease is marked consumed
 * (the lease was issued, its call not yet dispatched). Every other write of a dead boot, to any
 * table of any schema and to the file itself, is refused by the connection the boot holds
 * (sim/host/fenced-connection.ts), so a process that died writes nothing (its promises may still
 * run in this one JavaScript thread; in a real crash they would not exist).
 *
 * The world reads the disk only with plain SQL on the tables, never through the store under test:
 * the pointers it holds (with their snapshot digests) and the lease ids of its call receipts are
 * ground truth for the oracle (`host_restarted`).
 */
import type Database from 'better-sqlite3';
import { sqliteDriver } from '../../src/registry/sqlite-driver.ts';
import { fencedConnection } from './fenced-connection.ts';
import { HostDown } from './host-down.ts';

export { HostDown };

/** What a trigger reports to the host process: a write that is a crash point, and its row. */
export interface DiskWrite {
  kind: 'catalog_receipt' | 'consume_lease';
  key: string;
  generation: number;
  snapshotDigest: string | null;
}

/** A pointer as the disk holds it. */
export interface DiskPointer {
  key: string;
  generation: number;
  snapshotDigest: string;
}

/** The catalog tables of the registry schema (src/registry/sqlite-schema.ts): present when a boot keeps its registry on the disk. */
const CATALOG_TABLES = [
  'generations',
  'pointers',
  'disabled_keys',
  'catalog_receipts',
  'leases',
  'call_receipts',
] as const;

/** The capability tables of schema version 2 (SPEC section 9): versions, lifecycles, aliases, bundles, runs, receipts, audit. */
const CAPABILITY_TABLES = [
  'capability_versions',
  'capability_lifecycles',
  'capability_aliases',
  'capability_bundles',
  'capability_runs',
  'capability_receipts',
  'capability_audit',
] as const;

/** Every table of the registry schema a dead boot must not write. */
const TABLES = [...CATALOG_TABLES, ...CAPABILITY_TABLES] as const;

/** The TEMP triggers of one connection: the fence on every write, and the two crash points. */
function triggerSql(): string {
  const fences = TABLES.flatMap((table) =>
    ['INSERT', 'UPDATE', 'DELETE'].map(
      (op) =>
        `CREATE TEMP TRIGGER catsim_fence_${table}_${op.toLowerCase()} BEFORE ${op} ON main.${table} BEGIN SELECT catsim_disk('write', NULL, NULL, NULL); END;`,
    ),
  );
  return [
    ...fences,
    "CREATE TEMP TRIGGER catsim_point_receipt BEFORE INSERT ON main.catalog_receipts BEGIN SELECT catsim_disk('catalog_receipt', NEW.key, NEW.generation, NEW.snapshot_digest); END;",
    "CREATE TEMP TRIGGER catsim_point_consume BEFORE UPDATE OF consumed_at ON main.leases WHEN NEW.consumed_at IS NOT NULL BEGIN SELECT catsim_disk('consume_lease', NEW.key, NEW.generation, NULL); END;",
  ].join('\n');
}

/**
 * The disk of one round. Order of calls: `connect(boot, onWrite)` for boot 0 and `arm()` once the
 * boot's core opened its store; at a crash `kill()`; `connect` for the next boot (which images the
 * dead connection); `close()` at the end of the round.
 */
export class HostDisk {
  #image: Buffer | null = null;
  #connections: Database.Database[] = [];
  #current: Database.Database | undefined;
  #alive = false;

  /**
   * A fresh connection for `boot`, holding what earlier boots committed, as the boot's code gets
   * it: fenced (sim/host/fenced-connection.ts), so that once the boot died nothing it does writes
   * to the disk, whatever tables it keeps there. `onWrite` is called
   * (inside SQLite, synchronously) before each crash-point write of this boot; it returns whether
   * the boot dies there (the write then throws {@link HostDown} and its transaction rolls back).
   */
  connect(boot: number, onWrite: (write: DiskWrite) => boolean): Database.Database {
    if (this.#current !== undefined) this.#image = this.#current.serialize();
    // Where better-sqlite3 cannot be loaded (a broken install) this throws one line naming the install command.
    const Driver = sqliteDriver('the simulated host disk of F18');
    const db = this.#image === null ? new Driver(':memory:') : new Driver(this.#image);
    let alive = true;
    db.function(
      'catsim_disk',
      { deterministic: false, varargs: false },
      (kind: unknown, key: unknown, generation: unknown, digest: unknown) => {
        if (!alive) throw new HostDown(boot);
        if (kind === 'write') return 0;
        const write: DiskWrite = {
          kind: kind as DiskWrite['kind'],
          key: String(key),
          generation: Number(generation),
          snapshotDigest: digest === null ? null : String(digest),
        };
        if (onWrite(write)) {
          alive = false;
          throw new HostDown(boot);
        }
        return 0;
      },
    );
    this.#current = db;
    this.#alive = true;
    this.#connections.push(db);
    this.#fence = () => {
      alive = false;
    };
    return fencedConnection(db, boot, () => alive);
  }

  #fence: () => void = () => undefined;

  /**
   * Installs this boot's triggers once its core created the registry tables (the core migrates
   * on open); a core that keeps no registry on the disk gets none (nothing to fence or cut).
   */
  arm(): void {
    const db = this.#current;
    if (db === undefined || !this.#alive) return;
    const present = db
      .prepare(
        `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN (${TABLES.map((table) => `'${table}'`).join(', ')})`,
      )
      .pluck()
      .get() as number;
    if (present === TABLES.length) db.exec(triggerSql());
  }

  /** The current boot died: every later write of its connection throws. */
  kill(): void {
    this.#alive = false;
    this.#fence();
  }

  /** Every active pointer the disk holds, by key (plain SQL: the world's reading, not the store's). */
  pointers(): DiskPointer[] {
    const db = this.#current;
    if (db === undefined || !this.#hasTables(db)) return [];
    return db
      .prepare(
        'SELECT p.key AS key, p.generation AS generation, g.snapshot_digest AS snapshotDigest FROM pointers p JOIN generations g ON g.key = p.key AND g.generation = p.generation ORDER BY p.key',
      )
      .all() as DiskPointer[];
  }

  /** The lease ids of every call receipt the disk holds, in write order. */
  receiptLeaseIds(): string[] {
    const db = this.#current;
    if (db === undefined || !this.#hasTables(db)) return [];
    return db.prepare('SELECT lease_id FROM call_receipts ORDER BY seq').pluck().all() as string[];
  }

  #hasTables(db: Database.Database): boolean {
    return (
      (db
        .prepare(
          "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN ('pointers', 'generations', 'call_receipts')",
        )
        .pluck()
        .get() as number) === 3
    );
  }

  /** Closes every connection of the round (end of round). */
  close(): void {
    for (const db of this.#connections) if (db.open) db.close();
    this.#connections = [];
    this.#current = undefined;
  }
}
