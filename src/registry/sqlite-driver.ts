/**
 * The SQLite driver of the durable registry store: better-sqlite3 12, loaded on first use. It is
 * an optional peer dependency of catsim (package.json): the simulator and the in-memory store do
 * not need it, and installing it compiles or downloads a native module; a host that embeds the
 * core with a database installs it beside catsim (`npm install better-sqlite3@^12.11.1`; version
 * 13 needs Node 22). Nothing else in catsim loads it.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { RegistryStoreError } from './store-error.ts';

/** The better-sqlite3 module: its Database constructor. */
export type SqliteDriver = typeof Database;

/** The module name of the driver. */
export const SQLITE_DRIVER_MODULE = 'better-sqlite3';

const requireHere = createRequire(import.meta.url);
const loaded = new Map<string, SqliteDriver>();

/**
 * The driver, loaded once per process.
 * @throws RegistryStoreError (NO_DRIVER) naming `path` when the module cannot be loaded.
 */
export function sqliteDriver(path: string, moduleName = SQLITE_DRIVER_MODULE): SqliteDriver {
  let driver = loaded.get(moduleName);
  if (driver === undefined) {
    try {
      driver = requireHere(moduleName) as SqliteDriver;
    } catch (error) {
      const why = (error as { code?: unknown }).code === 'MODULE_NOT_FOUND' ? 'is not installed' : `cannot be loaded (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
      throw new RegistryStoreError(path, 'NO_DRIVER', `${moduleName} ${why}; the SQLite store needs it: npm install better-sqlite3@^12.11.1 (13 needs Node 22)`);
    }
    loaded.set(moduleName, driver);
  }
  return driver;
}
