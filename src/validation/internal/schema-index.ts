/**
 * An index of one schema document: its resources (`$id`s), anchors and references, found by the
 * same walk ajv uses to collect `$id`s (json-schema-traverse with `allKeys`), extended with the
 * 2019-09/2020-12 applicators. Values of data keywords (`enum`, `const`, `default`, `examples`,
 * ...) are never walked: a `$ref` inside them is data, not a reference. Unknown keywords whose
 * value is an object are walked as schemas, as ajv does. Nothing is ever fetched.
 *
 * URIs are resolved with WHATWG `URL` against a synthetic base, `catsim-local:/descriptor`, when
 * the root has no `$id`: a relative reference then stays under that scheme, and only a reference
 * that names another scheme or a host leaves the descriptor.
 *
 * Sources: JSON Schema 2020-12 core section 8.2 (`$id`, `$anchor`, `$dynamicAnchor`) and 8.2.3
 * (`$ref`, `$dynamicRef`); draft-07 core section 8 (`$id` with a plain-name fragment).
 */

/** The base URI of a schema document without `$id`. */
export const LOCAL_BASE = 'catsim-local:/descriptor';

/** Everything a reference may resolve to, and every reference, of one schema document. */
export interface SchemaIndex {
  /** Schema resources by absolute URI without fragment: the root (always under LOCAL_BASE too) and every `$id`. */
  readonly resources: Map<string, unknown>;
  /** Plain-name fragments as `uri#name`: `$anchor`, `$dynamicAnchor`, draft-07 `$id: "#name"`. */
  readonly anchors: Set<string>;
  /** Every `$ref` and `$dynamicRef` value with the base URI it resolves against. */
  readonly references: { ref: string; base: string }[];
  /** Every `$schema` value below the root (embedded resources may declare their own). */
  readonly nestedDialects: unknown[];
}

/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAY_KEYWORDS: ReadonlySet<string> = new Set(['items', 'prefixItems', 'allOf', 'anyOf', 'oneOf']);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  '$defs',
  'definitions',
  'properties',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
]);
/**
 * Keywords whose value is data (json-schema-traverse's skip list plus `examples`). Every other
 * object value is walked as a schema: the one-subschema keywords (`not`, `if`, `items`,
 * `additionalProperties`, `contains`, `unevaluatedProperties`, ...) and, as in ajv, unknown
 * keywords.
 */
const DATA_KEYWORDS: ReadonlySet<string> = new Set([
  'default',
  'enum',
  'const',
  'examples',
  'required',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
]);
const REFERENCE_KEYWORDS = ['$ref', '$dynamicRef'] as const;

/** Indexes `root` (a JSON object). Iterative, so the depth of the document does not matter. */
export function indexSchema(root: Record<string, unknown>): SchemaIndex {
  const index: SchemaIndex = {
    resources: new Map([[LOCAL_BASE, root]]),
    anchors: new Set(),
    references: [],
    nestedDialects: [],
  };
  const pending: [Record<string, unknown>, string][] = [[root, LOCAL_BASE]];
  while (pending.length > 0) {
    const [node, parentBase] = pending.pop() as [Record<string, unknown>, string];
    const base = visit(node, parentBase, index);
    if (node !== root && node.$schema !== undefined) index.nestedDialects.push(node.$schema);
    for (const child of subschemas(node)) pending.push([child, base]);
  }
  return index;
}

/** Records the node's `$id`, anchors and references; returns the base URI for its children. */
function visit(node: Record<string, unknown>, parentBase: string, index: SchemaIndex): string {
  const base = declareResource(node, parentBase, index);
  for (const key of ['$anchor', '$dynamicAnchor']) {
    if (typeof node[key] === 'string') index.anchors.add(`${base}#${node[key]}`);
  }
  for (const key of REFERENCE_KEYWORDS) {
    if (typeof node[key] === 'string') index.references.push({ ref: node[key], base });
  }
  return base;
}

/** A `$id` opens a resource (and, in draft-07, may name a plain-name fragment). */
function declareResource(node: Record<string, unknown>, parentBase: string, index: SchemaIndex): string {
  const resolved = typeof node.$id === 'string' ? resolveUri(node.$id, parentBase) : null;
  if (resolved === null) return parentBase;
  if (resolved.fragment !== '') index.anchors.add(`${resolved.document}#${resolved.fragment}`);
  if ((node.$id as string).startsWith('#')) return parentBase;
  if (!index.resources.has(resolved.document)) index.resources.set(resolved.document, node);
  return resolved.document;
}

/** The subschemas of a schema object, by keyword kind (see the tables above). */
function subschemas(node: Record<string, unknown>): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (Array.isArray(value)) {
      if (SCHEMA_ARRAY_KEYWORDS.has(key)) found.push(...value.filter(isObject));
    } else if (SCHEMA_MAP_KEYWORDS.has(key)) {
      if (isObject(value)) found.push(...Object.values(value).filter(isObject));
    } else if (!DATA_KEYWORDS.has(key) && isObject(value)) {
      found.push(value);
    }
  }
  return found;
}

/** A URI reference resolved against a base: the document part and the decoded fragment. */
export interface ResolvedUri {
  document: string;
  fragment: string;
  /** The resolved URI leaves the descriptor: another scheme than LOCAL_BASE's, or a host. */
  foreign: boolean;
}

/** Resolves `reference` against `base` (RFC 3986 via WHATWG URL); null when it cannot be. */
export function resolveUri(reference: string, base: string): ResolvedUri | null {
  let url: URL;
  try {
    url = new URL(reference, base);
  } catch {
    return null;
  }
  const hashAt = url.href.indexOf('#');
  const document = hashAt < 0 ? url.href : url.href.slice(0, hashAt);
  const fragment = decodeFragment(hashAt < 0 ? '' : url.href.slice(hashAt + 1));
  if (fragment === null) return null;
  return { document, fragment, foreign: url.protocol !== 'catsim-local:' || url.host !== '' };
}

function decodeFragment(encoded: string): string | null {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
