/**
 * The SQLite driver of the durable registry store: better-sqlite3 12 (a dependency of catsim,
 * package.json; version 13 needs Node 22 and crashes on 20), loaded on first use, so a process
 * that never opens a SQLite store (the simulator's rounds without F18, the in-memory store's
 * tests) never loads the native module. Loading can still fail where the native build is missing
 * or was built for another Node: that is the NO_DRIVER error below, never a silent fallback.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { RegistryStoreError } from './store-error.ts';

/** The better-sqlite3 module: its Database constructor. */
export type SqliteDriver = typeof Database;

/** The module name of the driver. */
export const SQLITE_DRIVER_MODULE = 'better-sqlite3';

const requireHere = createRequire(import.meta.url);

/**
 * The driver, loaded once per process by Node's own module cache (`require` returns the loaded
 * module on every later call; this file keeps no state of its own).
 * @throws RegistryStoreError (NO_DRIVER) naming `path` when the module cannot be loaded.
 */
export function sqliteDriver(path: string, moduleName = SQLITE_DRIVER_MODULE): SqliteDriver {
  try {
    return requireHere(moduleName) as SqliteDriver;
  } catch (error) {
    const why =
      (error as { code?: unknown }).code === 'MODULE_NOT_FOUND'
        ? 'is not installed'
        : `cannot be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
    throw new RegistryStoreError(
      path,
      'NO_DRIVER',
      `${moduleName} ${why}; the SQLite store needs it: npm install better-sqlite3@^12.11.1 (13 needs Node 22)`,
    );
  }
}
