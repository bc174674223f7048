/**
 * The fence of a dead boot on its disk connection (F18, issue 27 item 4): the connection a core
 * receives as `env.disk.sqlite()` is this wrapper of the world's own better-sqlite3 connection.
 * While the boot lives it passes every call through unchanged; once the boot died, everything
 * that could change the disk throws {@link HostDown}: any statement's `run` (INSERT, UPDATE,
 * DELETE, DDL, on catsim's tables or the core's own), `exec`, a `transaction` function, a
 * `pragma` that sets something, and every other connection method (`close`, `backup`,
 * `serialize`, `function`, `aggregate`, `table`, `loadExtension`, `unsafeMode`, ...). Reads
 * (`prepare`, and `get`, `all`, `iterate` of a statement that returns data) still work: a process
 * that died reads nothing either, but what it reads can reach nobody (its scheduler, sink and
 * connections are fenced by the host process), and refusing them would only turn its promises
 * into other errors.
 *
 * Fault model: none of its own. A real process that died cannot write at all; here its promises
 * may still run in the one JavaScript thread, and this fence (with the TEMP triggers of
 * host-disk.ts, which raise the crash points) is what makes "writes nothing" true for any schema.
 */
import type Database from 'better-sqlite3';
import { HostDown } from './host-down.ts';

/** Connection methods a dead boot may still call: they change nothing on the disk. */
const DB_READS = new Set(['prepare']);
/** Statement methods that only read, allowed on a statement that returns data. */
const STATEMENT_READS = new Set(['get', 'all', 'iterate', 'columns']);
/** Statement methods that only change how the statement returns rows; they return the statement. */
const STATEMENT_MODES = new Set(['pluck', 'expand', 'raw', 'safeIntegers', 'bind']);

/**
 * `db` for the code of boot `boot`: every write refused with {@link HostDown} once `alive()` is
 * false. The world keeps `db` itself, unfenced, to image the disk and read its ground truth.
 */
export function fencedConnection(db: Database.Database, boot: number, alive: () => boolean): Database.Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, target);
      // The class itself (`db.constructor`, which opening uses to build a scratch database) is no method.
      if (typeof value !== 'function' || property === 'constructor') return value;
      return (...args: unknown[]): unknown => {
        const name = String(property);
        if (!alive() && !DB_READS.has(name) && !(name === 'pragma' && isReadingPragma(args))) throw new HostDown(boot);
        const out: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (out === target) return receiver;
        if (name === 'prepare') return fencedStatement(out as Database.Statement, boot, alive);
        if (name === 'transaction') return fencedFunction(out as TransactionFunction, boot, alive);
        return out;
      };
    },
  });
}

/** A pragma call that only reads: `pragma('user_version')`, never `pragma('query_only = OFF')`. */
function isReadingPragma(args: readonly unknown[]): boolean {
  return typeof args[0] === 'string' && !args[0].includes('=');
}

function fencedStatement(statement: Database.Statement, boot: number, alive: () => boolean): Database.Statement {
  const proxy: Database.Statement = new Proxy(statement, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        const name = String(property);
        const reads = STATEMENT_MODES.has(name) || (STATEMENT_READS.has(name) && target.reader);
        if (!alive() && !reads) throw new HostDown(boot);
        const out: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        return out === target ? proxy : out;
      };
    },
  });
  return proxy;
}

/** The forms a `db.transaction(fn)` function carries besides itself (better-sqlite3). */
const TRANSACTION_FORMS = ['deferred', 'immediate', 'exclusive'] as const;

type TransactionFunction = ((...args: unknown[]) => unknown) &
  Partial<Record<(typeof TRANSACTION_FORMS)[number], (...args: unknown[]) => unknown>>;

/**
 * A `db.transaction(fn)` function: refused when called once the boot died, and so are its
 * deferred/immediate/exclusive forms. A new function, not a proxy: better-sqlite3 makes those forms
 * read-only, non-configurable properties, which a proxy must return as they are.
 */
function fencedFunction(transaction: TransactionFunction, boot: number, alive: () => boolean): TransactionFunction {
  const fence =
    (form: (...args: unknown[]) => unknown) =>
    (...args: unknown[]): unknown => {
      if (!alive()) throw new HostDown(boot);
      return form(...args);
    };
  const fenced: TransactionFunction = fence(transaction);
  for (const name of TRANSACTION_FORMS) {
    const form = transaction[name];
    if (typeof form === 'function') fenced[name] = fence(form);
  }
  return fenced;
}
