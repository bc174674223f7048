/**
 * The ajv instances of one owner (`SchemaCompiler`): one per dialect per trust configuration,
 * created on first use and reused (SPEC section 7). Each compile is isolated, because one ajv
 * instance otherwise carries state from one descriptor to the next:
 * - `addUsedSchema: false` keeps root `$id`s out of the instance (servers reuse `$id`s), but
 *   ajv still records every embedded `$id` in `ajv.refs` and keeps each compiled schema in its
 *   cache; both are rolled back after every compile, so a second descriptor declaring the same
 *   `$id` (or the id of a meta-schema) can neither see nor damage the first;
 * - ajv's code-generation scope only grows, so an instance is replaced after
 *   COMPILES_PER_INSTANCE compiles (validators already compiled keep working).
 * No instance has `loadSchema`, and only the synchronous `compile` is used: ajv cannot fetch a
 * remote `$ref`, it throws `MissingRefError` instead.
 *
 * The instances and the compile memo belong to a `SchemaCompiler` (a host's, through its
 * `ValidationMemos`), never to the module: two hosts of one process share nothing here.
 */
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DIALECT_URI, type Dialect } from '../dialect.ts';
import { validationDigest, type TrustConfig } from '../trust.ts';
import { LOCAL_BASE } from './schema-index.ts';
import { BoundedMemo } from '../../bounded-memo.ts';

/**
 * The options of every instance. `strict: false`: servers send unknown keywords, which JSON
 * Schema treats as annotations. `validateFormats: false`: `format` is an annotation (2020-12's
 * default format-annotation vocabulary; draft-07 lets validators choose) and catsim ships no
 * format implementations. `logger: false`: a server's schema must not write to the host's console.
 */
export const AJV_OPTIONS: Readonly<Options> = {
  strict: false,
  validateSchema: true,
  addUsedSchema: false,
  validateFormats: false,
  logger: false,
};

/** Compiles an instance performs before it is replaced. */
export const COMPILES_PER_INSTANCE = 1_000;
/** Pool keys (trust digest × dialect) kept before the pool is cleared. */
const POOL_KEYS_MAX = 64;

type AjvInstance = Ajv | Ajv2020;
interface PoolEntry {
  ajv: AjvInstance;
  compiles: number;
}

/** A compile's outcome as the memo keeps it: the validator, or what ajv threw. */
type CompileOutcome = { ok: true; validate: ValidateFunction } | { ok: false; error: unknown };

/**
 * Compiles pinned schemas with ajv, memoised. Workflow: construct once per owner (a host's
 * `ValidationMemos`), then `compilePinned` for every schema; `resize` bounds the memo anew.
 */
export class SchemaCompiler {
  readonly #pool = new Map<string, PoolEntry>();
  /**
   * Compiles (or their errors) by (validation digest, dialect, schema JSON text); at most twice
   * `entries` (two generations): a compiled validator is large (about 9 KB of heap).
   */
  readonly #compiled: BoundedMemo<CompileOutcome>;

  /**
   * `entries`: compiles memoised a generation (`MemoSizes.validatorEntries`).
   * @throws RangeError when it is not a positive safe integer.
   */
  constructor(entries: number) {
    this.#compiled = new BoundedMemo(entries);
  }

  /** Compiles memoised a generation. */
  get entries(): number {
    return this.#compiled.generationMax;
  }

  /** Sets the compiles memoised a generation. @throws RangeError when not a positive safe integer. */
  resize(entries: number): void {
    this.#compiled.resize(entries);
  }

  /** The current instance for (dialect, trust), created on first use (exported for tests and diagnostics). */
  ajvFor(dialect: Dialect, trust: TrustConfig): AjvInstance {
    return this.#poolEntry(dialect, trust).ajv;
  }

  /**
   * Compiles `schema` with the ajv class of `dialect`, on a shallow copy of its root that carries
   * the dialect's canonical `$schema` (ajv knows only that spelling) and, when the root has no
   * `$id`, the synthetic LOCAL_BASE: with `addUsedSchema: false` ajv cannot resolve `$ref: "#"`
   * (recursion to the root) in a schema without `$id`, and the synthetic id also makes ajv resolve
   * relative references the way the closure check does.
   * @throws whatever ajv throws: `Error` for an invalid schema, `MissingRefError` for a reference
   * it cannot resolve, `SyntaxError` for a bad `pattern`.
   */
  compilePinned(schema: Record<string, unknown>, dialect: Dialect, trust: TrustConfig): ValidateFunction {
    // Descriptors that differ only outside the schema (a rename, a new description, a tenant's
    // edition) share one compile: the memo is keyed by the schema's own JSON text. A failure is
    // remembered too, so a bad schema costs one compile, not one per descriptor that carries it.
    const key = `${validationDigest(trust)}:${dialect}:${JSON.stringify(schema)}`;
    const outcome = this.#compiled.get(key, () => {
      const entry = this.#poolEntry(dialect, trust);
      entry.compiles += 1;
      const $id = Object.hasOwn(schema, '$id') ? schema.$id : LOCAL_BASE;
      try {
        return {
          ok: true as const,
          validate: compileIsolated(entry.ajv, { ...schema, $schema: DIALECT_URI[dialect], $id }),
        };
      } catch (error) {
        return { ok: false as const, error };
      }
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.validate;
  }

  #poolEntry(dialect: Dialect, trust: TrustConfig): PoolEntry {
    const key = `${validationDigest(trust)}:${dialect}`;
    let entry = this.#pool.get(key);
    if (entry === undefined || entry.compiles >= COMPILES_PER_INSTANCE) {
      if (entry === undefined && this.#pool.size >= POOL_KEYS_MAX) this.#pool.clear();
      entry = { ajv: dialect === '2020-12' ? new Ajv2020(AJV_OPTIONS) : new Ajv(AJV_OPTIONS), compiles: 0 };
      this.#pool.set(key, entry);
    }
    return entry;
  }
}

/** Compiles, then rolls the instance's id registries and schema cache back to what they were. */
function compileIsolated(ajv: AjvInstance, schema: Record<string, unknown>): ValidateFunction {
  const refs = { ...ajv.refs };
  const schemas = { ...ajv.schemas };
  try {
    return ajv.compile(schema);
  } finally {
    forget(ajv, schema);
    restore(ajv.refs, refs);
    restore(ajv.schemas, schemas);
  }
}

/**
 * Drops the schema from ajv's cache. `removeSchema` deletes the cache entry first and then
 * throws on a non-string `$id` (which ajv had rejected before caching anything); the id
 * registries it may have touched are restored by the caller.
 */
function forget(ajv: AjvInstance, schema: Record<string, unknown>): void {
  try {
    ajv.removeSchema(schema);
  } catch {
    // The cache entry is gone or never existed; see above.
  }
}

function restore<T>(target: Record<string, T>, saved: Record<string, T>): void {
  for (const key of Object.keys(target)) if (!Object.hasOwn(saved, key)) delete target[key];
  Object.assign(target, saved);
}
