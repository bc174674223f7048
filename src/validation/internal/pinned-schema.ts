/**
 * A schema together with its pinned dialect and its index: what both the content checks and the
 * argument validator need before compiling.
 */
import { dialectOf, type Dialect } from '../dialect.ts';
import type { TrustConfig } from '../trust.ts';
import { indexSchema, type SchemaIndex } from './schema-index.ts';

/** A schema whose dialect is accepted, throughout. */
export interface PinnedSchema {
  readonly schema: Record<string, unknown>;
  readonly dialect: Dialect;
  readonly index: SchemaIndex;
}

/**
 * Pins `schema` (a JSON object) to its dialect, or null when the root's `$schema` is not an
 * accepted dialect, or when an embedded resource declares a `$schema` of another (or no
 * accepted) dialect: one document is validated by one ajv class, and ajv ignores `$schema` below
 * the root, so a mixed document would silently be validated under the wrong rules.
 */
export function pinSchema(schema: Record<string, unknown>, trust: TrustConfig): PinnedSchema | null {
  const dialect = dialectOf(schema.$schema, trust);
  if (dialect === null) return null;
  const index = indexSchema(schema);
  const agrees = index.nestedDialects.every((uri) => dialectOf(uri, trust) === dialect);
  return agrees ? { schema, dialect, index } : null;
}
