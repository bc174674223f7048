/**
 * The error a durable registry store raises when its database cannot be used as it is: never an
 * empty registry in place of one it could not read.
 */

/**
 * Why a store could not be used:
 * - `NOT_SQLITE`: the file is not a SQLite database;
 * - `FOREIGN`: a SQLite database, but not a catsim registry (another application's tables);
 * - `NEWER_SCHEMA`: written by a newer catsim, whose schema this one does not know;
 * - `LOCKED`: another writer (another host, or any connection) holds the database;
 * - `CORRUPT`: a catsim registry whose pages, tables or stored artifacts are damaged;
 * - `MIGRATION_FAILED`: a step of the schema migration failed (the database is left as it was);
 * - `NO_DRIVER`: better-sqlite3, the native module the store runs on, is missing or cannot be loaded (a broken install, or one built for another Node);
 * - `IO`: the file cannot be opened, read or written at all (missing directory, permissions).
 */
export type StoreFailure =
  | 'NOT_SQLITE'
  | 'FOREIGN'
  | 'NEWER_SCHEMA'
  | 'LOCKED'
  | 'CORRUPT'
  | 'MIGRATION_FAILED'
  | 'NO_DRIVER'
  | 'IO';

/**
 * A registry store at `path` cannot be used, for `failure`. The message is one line naming the
 * path and the cause, fit for a host's log or a command line's error output (exit code 2).
 */
export class RegistryStoreError extends Error {
  override readonly name = 'RegistryStoreError';

  constructor(
    /** The database file. */
    readonly path: string,
    readonly failure: StoreFailure,
    /** The cause, in words (the message without the path). */
    readonly detail: string,
  ) {
    super(`registry store ${path}: ${detail}`);
  }
}
