/**
 * The schema of the SQLite registry store, versioned and migrated.
 *
 * A catsim registry is recognised by `PRAGMA application_id` = {@link APPLICATION_ID}; its schema
 * version is `PRAGMA user_version`. A migration takes version N - 1 to N; {@link MIGRATIONS} lists
 * them all, from version 1 (the tables, created in an empty database) up. Opening a database runs
 * every pending migration in one exclusive transaction, so a database is either at its old
 * version, untouched, or at the new one; never in between. Migrations only ever append: version 1
 * stays what it is, a change is a new version with its own `ALTER`/copy statements, and a test
 * opens a database of the previous version written by the code of that version.
 *
 * Times are REAL (ms on the host clock, which need not be an integer); generations, revisions,
 * epochs and lease times are INTEGER (they are integers by contract). Tables are STRICT, so a
 * value of the wrong type is refused rather than stored.
 */
import type Database from 'better-sqlite3';
import type { SqliteDriver } from './sqlite-driver.ts';

/** `PRAGMA application_id` of a catsim registry: the ASCII bytes "cats". */
export const APPLICATION_ID = 0x63617473;

/** One schema step: from version `version - 1` to `version`. */
export interface Migration {
  /** The version this step produces. */
  readonly version: number;
  /** What it changes, in words. */
  readonly summary: string;
  /** Its statements; run inside the migration transaction, so a failure changes nothing. */
  readonly up: (db: Database.Database) => void;
}

/**
 * Version 1. Per catalog key: every generation (its source revision and page root as columns,
 * the snapshot artifact as JSON), the active pointer, one catalog receipt per pointer move, and
 * the DISABLED mark. The lease ledger (issue order, consumption) and one call receipt per
 * consumed lease, with its outcome.
 */
const SCHEMA_V1 = `
CREATE TABLE generations (
  key TEXT NOT NULL,
  generation INTEGER NOT NULL CHECK (generation >= 1),
  status TEXT NOT NULL CHECK (status IN ('ELIGIBLE', 'UNVERSIONED_OBSERVATION', 'RETIRED')),
  source_revision INTEGER,
  page_root TEXT NOT NULL,
  snapshot_digest TEXT NOT NULL,
  snapshot TEXT NOT NULL,
  published_at REAL NOT NULL,
  rolled_back_from INTEGER,
  PRIMARY KEY (key, generation)
) STRICT;

CREATE TABLE pointers (
  key TEXT PRIMARY KEY,
  generation INTEGER NOT NULL,
  FOREIGN KEY (key, generation) REFERENCES generations (key, generation)
) STRICT;

CREATE TABLE disabled_keys (
  key TEXT PRIMARY KEY,
  reason TEXT NOT NULL
) STRICT;

CREATE TABLE catalog_receipts (
  key TEXT NOT NULL,
  generation INTEGER NOT NULL,
  previous_generation INTEGER NOT NULL,
  scan_id TEXT NOT NULL,
  source_revision INTEGER,
  page_root TEXT NOT NULL,
  snapshot_digest TEXT NOT NULL,
  published_at REAL NOT NULL,
  rolled_back_from INTEGER,
  reason TEXT,
  PRIMARY KEY (key, generation),
  FOREIGN KEY (key, generation) REFERENCES generations (key, generation)
) STRICT;

CREATE TABLE leases (
  seq INTEGER PRIMARY KEY,
  lease_id TEXT NOT NULL UNIQUE,
  schema TEXT NOT NULL,
  key TEXT NOT NULL,
  principal TEXT NOT NULL,
  session TEXT NOT NULL,
  tool TEXT NOT NULL,
  resource_scope TEXT NOT NULL,
  generation INTEGER NOT NULL,
  descriptor_digest TEXT NOT NULL,
  policy_epoch INTEGER NOT NULL,
  issued_at INTEGER NOT NULL,
  not_after INTEGER NOT NULL,
  mac TEXT NOT NULL,
  consumed_at REAL
) STRICT;

CREATE TABLE call_receipts (
  seq INTEGER PRIMARY KEY,
  lease_id TEXT NOT NULL UNIQUE REFERENCES leases (lease_id),
  call_id TEXT NOT NULL,
  key TEXT NOT NULL,
  tool TEXT NOT NULL,
  generation INTEGER NOT NULL,
  descriptor_digest TEXT NOT NULL,
  policy_epoch INTEGER NOT NULL,
  disclosure_generation INTEGER,
  disclosure_snapshot_digest TEXT,
  pin INTEGER,
  written_at REAL NOT NULL,
  outcome TEXT CHECK (outcome IN ('ok', 'error', 'refused', 'unknown')),
  outcome_at REAL
) STRICT;
`;

/**
 * Version 2: the capability registry's records (SPEC section 9, src/capability/capability-store.ts),
 * each a JSON record beside the columns it is found by: tool versions (never rewritten), the
 * lifecycle of each version, aliases, bundles, runs (in creation order, updated in place),
 * execution receipts and audit records (append-only, numbered from 1).
 */
const SCHEMA_V2 = `
CREATE TABLE capability_versions (
  tool_id TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  manifest_digest TEXT NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (tool_id, version)
) STRICT;

CREATE TABLE capability_lifecycles (
  tool_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (tool_id, version),
  FOREIGN KEY (tool_id, version) REFERENCES capability_versions (tool_id, version)
) STRICT;

CREATE TABLE capability_aliases (
  seq INTEGER PRIMARY KEY,
  alias TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL
) STRICT;

CREATE TABLE capability_bundles (
  seq INTEGER PRIMARY KEY,
  bundle_id TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL
) STRICT;

CREATE TABLE capability_runs (
  seq INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE,
  record TEXT NOT NULL
) STRICT;

CREATE TABLE capability_receipts (
  receipt_number INTEGER PRIMARY KEY CHECK (receipt_number >= 1),
  record TEXT NOT NULL
) STRICT;

CREATE TABLE capability_audit (
  seq INTEGER PRIMARY KEY CHECK (seq >= 1),
  record TEXT NOT NULL
) STRICT;
`;

/** Every migration, in order; the last one's version is {@link SCHEMA_VERSION}. */
export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    summary: 'generations, pointers, catalog receipts, disabled keys, leases, call receipts',
    up: (db: Database.Database) => {
      db.exec(SCHEMA_V1);
    },
  },
  {
    version: 2,
    summary: 'the capability registry: versions, lifecycles, aliases, bundles, runs, receipts, audit',
    up: (db: Database.Database) => {
      db.exec(SCHEMA_V2);
    },
  },
]);

/** The schema version this code writes. */
export const SCHEMA_VERSION = latestVersion(MIGRATIONS);

/** The version the last of `migrations` produces (0 for none). */
export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.at(-1)?.version ?? 0;
}

/**
 * Throws unless `migrations` are numbered 1, 2, 3, ... (checked before a database is touched).
 * @throws Error naming the first misnumbered step.
 */
export function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1)
      throw new Error(`migration ${index} has version ${migration.version}, expected ${index + 1}`);
  });
}

/** A step of {@link migrate} failed; `cause` is what it threw. */
export class MigrationStepError extends Error {
  constructor(
    readonly step: Migration,
    readonly fromVersion: number,
    override readonly cause: unknown,
  ) {
    super(
      `migration to schema version ${step.version} (${step.summary}) failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

/**
 * Runs the migrations above `fromVersion`, in order, each followed by its `user_version`; a
 * database at version 0 (empty) also gets the catsim {@link APPLICATION_ID}. Call inside one
 * transaction (the store opens an exclusive one), so a failing step leaves nothing changed.
 * @throws Error for misnumbered `migrations`; MigrationStepError for a failing step.
 */
export function migrate(db: Database.Database, fromVersion: number, migrations: readonly Migration[]): void {
  checkMigrations(migrations);
  if (fromVersion === 0) db.pragma(`application_id = ${APPLICATION_ID}`);
  for (const step of migrations.slice(fromVersion)) {
    try {
      step.up(db);
    } catch (error) {
      throw new MigrationStepError(step, fromVersion, error);
    }
    db.pragma(`user_version = ${step.version}`);
  }
}

/** One column as `PRAGMA table_xinfo` gives it: name, declared type, NOT NULL, primary-key rank. */
type ColumnShape = string;

/** Table name → its columns, in order, with the indexes and foreign keys of the table. */
export type SchemaShape = Record<string, ColumnShape[]>;

/** The shape of every table of `db` (sqlite_% tables left out). */
export function schemaShape(db: Database.Database): SchemaShape {
  const tables = db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all();
  const shape: SchemaShape = {};
  for (const { name } of tables) shape[name] = tableShape(db, name);
  return shape;
}

function tableShape(db: Database.Database, table: string): ColumnShape[] {
  const quoted = `"${table.replaceAll('"', '""')}"`;
  const columns = db.pragma(`table_xinfo(${quoted})`) as { name: string; type: string; notnull: number; pk: number }[];
  const keys = db.pragma(`foreign_key_list(${quoted})`) as { table: string; from: string; to: string }[];
  const indexes = db.pragma(`index_list(${quoted})`) as { unique: number; origin: string }[];
  return [
    ...columns.map(
      (column) =>
        `${column.name} ${column.type}${column.notnull === 1 ? ' NOT NULL' : ''}${column.pk > 0 ? ` PK${column.pk}` : ''}`,
    ),
    ...keys.map((key) => `FK ${key.from} -> ${key.table}.${key.to}`),
    ...indexes.map((index) => `INDEX ${index.origin}${index.unique === 1 ? ' UNIQUE' : ''}`).sort(),
  ];
}

const FRESH_SHAPES = new WeakMap<readonly Migration[], SchemaShape>();

/**
 * The shape of an empty database migrated from 0 by `migrations` (built once per list, in
 * memory): what every database at their latest version must look like, migrated or fresh.
 */
export function freshShape(migrations: readonly Migration[], Driver: SqliteDriver): SchemaShape {
  let shape = FRESH_SHAPES.get(migrations);
  if (shape === undefined) {
    const db = new Driver(':memory:');
    try {
      db.transaction(() => migrate(db, 0, migrations))();
      shape = schemaShape(db);
    } finally {
      db.close();
    }
    FRESH_SHAPES.set(migrations, shape);
  }
  return shape;
}

/** Why `actual` is not `expected` (the first difference, in words), or undefined when it is. */
export function schemaMismatch(actual: SchemaShape, expected: SchemaShape): string | undefined {
  for (const [table, columns] of Object.entries(expected)) {
    const found = actual[table];
    if (found === undefined) return `table ${table} is missing`;
    const missing = columns.find((column) => !found.includes(column));
    if (missing !== undefined) return `table ${table} lacks ${missing}`;
    const extra = found.find((column) => !columns.includes(column));
    if (extra !== undefined) return `table ${table} has ${extra}, which the schema does not`;
  }
  const foreign = Object.keys(actual).find((table) => !(table in expected));
  return foreign === undefined ? undefined : `table ${foreign} is not part of the schema`;
}
