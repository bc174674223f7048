/**
 * JSON Schema dialect pinning (SPEC section 5). A schema's dialect is its `$schema`, or 2020-12
 * when `$schema` is absent (the protocol default for 2025-11-25: the MCP specification's "JSON
 * Schema Usage", SEP-1613). A dialect is usable only when the trust configuration accepts it AND catsim has an
 * ajv class for it; everything else is refused, never guessed.
 *
 * URI equivalence. `$schema` is an identifier, compared as a string after two foldings only:
 * - a trailing empty fragment is dropped (`…/draft-07/schema#` = `…/draft-07/schema`): the
 *   `application/schema+json` media type defines that a URI with an empty fragment identifies
 *   the same resource as the URI without it (JSON Schema 2020-12 core, section 8.2.1), and ajv
 *   folds it the same way;
 * - for host `json-schema.org` only, `http:` and `https:` are the same: json-schema.org publishes
 *   every meta-schema under both schemes (one redirects to the other, same document), and
 *   validators in the field treat both spellings as the same dialect (draft-07 is published as
 *   `http:`, 2019-09 and later as `https:`, and servers write both).
 * Nothing else is folded: no case folding, no `www.`, no trailing `/`, no other host; the
 * unversioned `http://json-schema.org/schema` names no fixed dialect and is unknown.
 */
import { DIALECT_2020_12, DIALECT_DRAFT_07, type TrustConfig } from './trust.ts';

/** The dialects catsim can validate, each with its own ajv class. */
export type Dialect = '2020-12' | 'draft-07';

/** The meta-schema URI catsim hands to ajv for each dialect (ajv's own built-in ids). */
export const DIALECT_URI: Readonly<Record<Dialect, string>> = {
  '2020-12': DIALECT_2020_12,
  'draft-07': DIALECT_DRAFT_07,
};

/** A dialect URI in the folded form used for comparison (see the file header). */
export function normaliseDialectUri(uri: string): string {
  const withoutFragment = uri.endsWith('#') ? uri.slice(0, -1) : uri;
  const insecure = 'http://json-schema.org/';
  return withoutFragment.startsWith(insecure)
    ? `https://json-schema.org/${withoutFragment.slice(insecure.length)}`
    : withoutFragment;
}

const KNOWN_DIALECTS: ReadonlyMap<string, Dialect> = new Map<string, Dialect>([
  [normaliseDialectUri(DIALECT_2020_12), '2020-12'],
  [normaliseDialectUri(DIALECT_DRAFT_07), 'draft-07'],
]);

/**
 * The dialect a `$schema` value pins under `trust`: `undefined` (absent) means 2020-12; null
 * when the value is not a string, not accepted by the trust configuration, or not one catsim can
 * validate (draft-04, 2019-09, an unknown URI).
 */
export function dialectOf(schemaUri: unknown, trust: TrustConfig): Dialect | null {
  const uri = schemaUri === undefined ? DIALECT_2020_12 : schemaUri;
  if (typeof uri !== 'string') return null;
  const folded = normaliseDialectUri(uri);
  if (!trust.acceptedDialects.some((accepted) => normaliseDialectUri(accepted) === folded)) return null;
  return KNOWN_DIALECTS.get(folded) ?? null;
}
