/**
 * Sample arguments for a tool, derived from its input schema alone: the smallest deterministic
 * value that fills every required property (optional ones are left out). Used for the probe
 * calls of tools that come from a captured catalog, whose servers ship no example arguments.
 *
 * Per schema: `const` wins, then the first `enum` value; `anyOf`/`oneOf` take their first branch,
 * `allOf` its branches merged; a local `$ref` (`#/...`) is followed. Per type: string → `"x"`
 * (repeated up to `minLength`) or a value of its `format` (email, date-time, date, time, uri,
 * uuid, hostname, ipv4); number and integer → `minimum` (or just above `exclusiveMinimum`), else 1,
 * clamped to `maximum`; boolean → true; array → `minItems` copies of its item sample, else [];
 * object → its required properties, recursively. A schema it cannot satisfy this way (a
 * `pattern`, `uniqueItems` with copies, `not`) gets the same value anyway: the result is a best
 * effort for such schemas, and exact for the shapes real servers send (see sample-args.test.ts).
 */

type Schema = Record<string, unknown>;

/** Nesting beyond this depth (a recursive `$ref`) yields null instead of recursing further. */
const DEPTH_MAX = 16;

const FORMAT_SAMPLES: Record<string, string> = {
  email: 'a@example.com',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
};

/**
 * Arguments that satisfy `inputSchema` (an object schema) for the shapes described above; `{}`
 * when the schema is not an object schema. Pure and total: never throws, same input same output.
 */
export function sampleArgs(inputSchema: unknown): Record<string, unknown> {
  const value = isSchema(inputSchema) ? sampleValue(inputSchema, inputSchema, 0) : undefined;
  return isSchema(value) ? value : {};
}

function sampleValue(schema: unknown, root: Schema, depth: number): unknown {
  const s = resolve(schema, root);
  if (s === undefined || depth > DEPTH_MAX) return null;
  if ('const' in s) return structuredClone(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return structuredClone(s.enum[0]);
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) return sampleValue(branches[0], root, depth + 1);
  if (Array.isArray(s.allOf)) return sampleValue(mergeAll(s, root), root, depth + 1);
  switch (typeOf(s)) {
    case 'string':
      return sampleString(s);
    case 'number':
      return sampleNumber(s, false);
    case 'integer':
      return sampleNumber(s, true);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return sampleArray(s, root, depth);
    case 'object':
      return sampleObject(s, root, depth);
    default:
      return 'x';
  }
}

/** The schema itself, or what its local `$ref` points to; undefined when neither is an object. */
function resolve(schema: unknown, root: Schema): Schema | undefined {
  if (!isSchema(schema)) return undefined;
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#')) return schema;
  let target: unknown = root;
  for (const part of ref
    .slice(1)
    .split('/')
    .filter((p) => p !== '')) {
    target = isSchema(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return isSchema(target) ? target : undefined;
}

/** The first non-null type named, or the type implied by the keywords present. */
function typeOf(s: Schema): string | undefined {
  const types = Array.isArray(s.type) ? (s.type as unknown[]) : [s.type];
  const named = types.find((t) => typeof t === 'string' && t !== 'null') ?? types.find((t) => t === 'null');
  if (typeof named === 'string') return named;
  if ('properties' in s || 'required' in s) return 'object';
  if ('items' in s) return 'array';
  return undefined;
}

function sampleString(s: Schema): string {
  const format = typeof s.format === 'string' ? FORMAT_SAMPLES[s.format] : undefined;
  if (format !== undefined) return format;
  const length = Math.max(1, typeof s.minLength === 'number' ? s.minLength : 1);
  return 'x'.repeat(typeof s.maxLength === 'number' ? Math.min(length, s.maxLength) : length);
}

function sampleNumber(s: Schema, integer: boolean): number {
  let value =
    typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
  if (typeof s.maximum === 'number' && value > s.maximum) value = s.maximum;
  if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) value = s.exclusiveMaximum - 1;
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0) value = Math.ceil(value / s.multipleOf) * s.multipleOf;
  return integer ? Math.ceil(value) : value;
}

function sampleArray(s: Schema, root: Schema, depth: number): unknown[] {
  const count = typeof s.minItems === 'number' ? s.minItems : 0;
  const items = s.items;
  if (Array.isArray(items))
    return Array.from({ length: count }, (_, i) => sampleValue(items[i] ?? s.additionalItems ?? {}, root, depth + 1));
  return Array.from({ length: count }, () => sampleValue(items ?? {}, root, depth + 1));
}

function sampleObject(s: Schema, root: Schema, depth: number): Record<string, unknown> {
  const properties = isSchema(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required)
    ? s.required.filter((name): name is string => typeof name === 'string')
    : [];
  const out: Record<string, unknown> = {};
  for (const name of required) out[name] = name in properties ? sampleValue(properties[name], root, depth + 1) : 'x';
  return out;
}

/** `allOf` folded into one schema: its own keywords, then each branch's, with properties and required lists merged. */
function mergeAll(s: Schema, root: Schema): Schema {
  const { allOf, ...own } = s;
  const merged: Schema = { ...own };
  for (const branch of (allOf as unknown[]).map((b) => resolve(b, root) ?? {})) {
    const properties = { ...(merged.properties as Schema | undefined), ...(branch.properties as Schema | undefined) };
    const required = [
      ...new Set([
        ...((merged.required as string[] | undefined) ?? []),
        ...((branch.required as string[] | undefined) ?? []),
      ]),
    ];
    Object.assign(merged, branch, { properties, required });
  }
  return merged;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
