/**
 * The JSON Schema rules of diff classification (SPEC section 9; seed 004: "自动检查 required、type、
 * enum、additionalProperties 和 error codes"). Each rule says whether the new schema accepts fewer
 * values than the old one (`narrower`), more (`wider`), a set neither contains (`changed`), only
 * words a model reads (`text`), or the same values written another way (`rewritten`); what that
 * means for a caller depends on the side ({@link schemaChangeClass}): a narrower input refuses calls
 * that worked (breaking), a wider output returns what a consumer never saw (breaking).
 *
 * Keywords with a rule: `properties`, `required`, `type` (with `integer` inside `number`), `enum`,
 * `const`, `additionalProperties`, `items` (an object schema), the numeric bounds (`minimum`,
 * `exclusiveMinimum`, `minLength`, `minItems`, `minProperties` and their `max` pairs), `pattern`,
 * `format`, `multipleOf`, `uniqueItems`, and the text keywords (`description`, `title`,
 * `examples`, `default`, `$comment`). Every other keyword that differs (`anyOf`, `$ref`, `$defs`,
 * `$schema`, ...) is `unclassified`, which is breaking on either side: no rule can show it is safe.
 */
import { jcs } from '../snapshot/canonical.ts';

/** What a schema change does to the set of values the schema accepts. */
export type SchemaEffect = 'narrower' | 'wider' | 'changed' | 'text' | 'rewritten' | 'unclassified';

/**
 * The rule a schema change matched. `PROPERTY_ADDED_OPTIONAL` is compatible on both sides, as the
 * seed has it ("新增 optional 输出字段通常向后兼容"), and `PROPERTY_REMOVED` breaking on both.
 */
export type SchemaRule =
  | 'PROPERTY_ADDED_REQUIRED'
  | 'PROPERTY_ADDED_OPTIONAL'
  | 'PROPERTY_REMOVED'
  | 'REQUIRED_ADDED'
  | 'REQUIRED_REMOVED'
  | 'TYPE_NARROWED'
  | 'TYPE_WIDENED'
  | 'TYPE_CHANGED'
  | 'ENUM_NARROWED'
  | 'ENUM_WIDENED'
  | 'ENUM_CHANGED'
  | 'ADDITIONAL_PROPERTIES_CLOSED'
  | 'ADDITIONAL_PROPERTIES_OPENED'
  | 'BOUND_TIGHTENED'
  | 'BOUND_LOOSENED'
  | 'CONSTRAINT_ADDED'
  | 'CONSTRAINT_REMOVED'
  | 'CONSTRAINT_CHANGED'
  | 'SCHEMA_ADDED'
  | 'SCHEMA_REMOVED'
  | 'TEXT_CHANGED'
  | 'REWRITTEN'
  | 'UNCLASSIFIED';

/** One schema change: where (`inputSchema.properties.jobId.type`), which rule, and its effect. */
export interface SchemaChange {
  path: string;
  rule: SchemaRule;
  effect: SchemaEffect;
}

/** Which side of a call a schema describes: what the caller sends, or what it gets back. */
export type SchemaSide = 'input' | 'output';

/** The class of one schema change on `side` (see the file header). */
export function schemaChangeClass(change: SchemaChange, side: SchemaSide): 'compatible' | 'behavioural' | 'breaking' {
  switch (change.rule) {
    case 'PROPERTY_ADDED_OPTIONAL':
      return 'compatible';
    case 'PROPERTY_REMOVED':
      return 'breaking';
    default:
      break;
  }
  switch (change.effect) {
    case 'text':
    case 'rewritten':
      return 'behavioural';
    case 'narrower':
      return side === 'input' ? 'breaking' : 'compatible';
    case 'wider':
      return side === 'input' ? 'compatible' : 'breaking';
    default:
      return 'breaking';
  }
}

const TEXT_KEYWORDS: ReadonlySet<string> = new Set(['description', 'title', 'examples', 'default', '$comment']);
const LOWER_BOUNDS: ReadonlySet<string> = new Set([
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
]);
const UPPER_BOUNDS: ReadonlySet<string> = new Set([
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
]);
const CONSTRAINTS: ReadonlySet<string> = new Set(['const', 'pattern', 'format', 'multipleOf', 'uniqueItems']);

/**
 * The changes from schema `before` to schema `after` (either may be undefined: no schema), each
 * path starting with `path`, in a fixed order (keywords sorted, properties sorted). Equal schemas
 * (equal canonical JSON) give none; any two that differ give at least one.
 */
export function diffSchemas(before: unknown, after: unknown, path: string): SchemaChange[] {
  const changes: SchemaChange[] = [];
  compare(before, after, path, changes);
  return changes;
}

function compare(before: unknown, after: unknown, path: string, out: SchemaChange[]): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) return void out.push({ path, rule: 'SCHEMA_ADDED', effect: 'narrower' });
  if (after === undefined) return void out.push({ path, rule: 'SCHEMA_REMOVED', effect: 'wider' });
  if (jcs(before) === jcs(after)) return;
  if (!isRecord(before) || !isRecord(after)) return void out.push(booleanSchemaChange(before, after, path));
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const start = out.length;
  for (const key of keys) {
    if (
      jcs(before[key] ?? null) === jcs(after[key] ?? null) &&
      Object.hasOwn(before, key) === Object.hasOwn(after, key)
    )
      continue;
    compareKeyword(key, before, after, `${path}.${key}`, out);
  }
  // Any two different schemas give a change: what no rule named is a rewrite of the same values.
  if (out.length === start) out.push({ path, rule: 'REWRITTEN', effect: 'rewritten' });
}

function booleanSchemaChange(before: unknown, after: unknown, path: string): SchemaChange {
  // `true` accepts everything, `false` nothing; an object schema lies between.
  const rank = (schema: unknown): number | undefined =>
    schema === true ? 2 : schema === false ? 0 : isRecord(schema) ? 1 : undefined;
  const [a, b] = [rank(before), rank(after)];
  if (a === undefined || b === undefined) return { path, rule: 'UNCLASSIFIED', effect: 'unclassified' };
  return b < a ? { path, rule: 'TYPE_NARROWED', effect: 'narrower' } : { path, rule: 'TYPE_WIDENED', effect: 'wider' };
}

function compareKeyword(
  key: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  path: string,
  out: SchemaChange[],
): void {
  const [a, b] = [before[key], after[key]];
  if (TEXT_KEYWORDS.has(key)) return void out.push({ path, rule: 'TEXT_CHANGED', effect: 'text' });
  if (key === 'properties') return compareProperties(before, after, path, out);
  if (key === 'required') return compareRequired(before, after, path, out);
  if (key === 'type') return void out.push(typeChange(a, b, path));
  if (key === 'enum') return void out.push(setChange(a, b, path, 'ENUM'));
  if (key === 'additionalProperties') return compareAdditional(a, b, path, out);
  if (key === 'items' && isRecord(a) && isRecord(b)) return compare(a, b, path, out);
  if (LOWER_BOUNDS.has(key) || UPPER_BOUNDS.has(key)) return void out.push(boundChange(key, a, b, path));
  if (CONSTRAINTS.has(key)) return void out.push(constraintChange(a, b, path));
  out.push({ path, rule: 'UNCLASSIFIED', effect: 'unclassified' });
}

function compareProperties(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  path: string,
  out: SchemaChange[],
): void {
  const [a, b] = [before.properties ?? {}, after.properties ?? {}];
  if (!isRecord(a) || !isRecord(b)) return void out.push({ path, rule: 'UNCLASSIFIED', effect: 'unclassified' });
  const required = requiredOf(after);
  for (const name of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const at = `${path}.${name}`;
    if (!Object.hasOwn(b, name)) out.push({ path: at, rule: 'PROPERTY_REMOVED', effect: 'changed' });
    else if (!Object.hasOwn(a, name))
      out.push(
        required.has(name)
          ? { path: at, rule: 'PROPERTY_ADDED_REQUIRED', effect: 'narrower' }
          : { path: at, rule: 'PROPERTY_ADDED_OPTIONAL', effect: 'narrower' },
      );
    else compare(a[name], b[name], at, out);
  }
}

function compareRequired(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  path: string,
  out: SchemaChange[],
): void {
  if (!isStringArray(before.required ?? []) || !isStringArray(after.required ?? []))
    return void out.push({ path, rule: 'UNCLASSIFIED', effect: 'unclassified' });
  const [a, b] = [requiredOf(before), requiredOf(after)];
  const [propsA, propsB] = [propertyNames(before), propertyNames(after)];
  // A property added or removed with its requiredness is judged by the property rules alone.
  const judged = (name: string): boolean => propsA.has(name) !== propsB.has(name);
  const added = [...b].filter((name) => !a.has(name) && !judged(name)).sort();
  const removed = [...a].filter((name) => !b.has(name) && !judged(name)).sort();
  for (const name of added) out.push({ path: `${path}.${name}`, rule: 'REQUIRED_ADDED', effect: 'narrower' });
  for (const name of removed) out.push({ path: `${path}.${name}`, rule: 'REQUIRED_REMOVED', effect: 'wider' });
}

/** `type`: absent accepts every type; `integer` lies inside `number`. */
function typeChange(a: unknown, b: unknown, path: string): SchemaChange {
  const [before, after] = [typesOf(a), typesOf(b)];
  if (before === null || after === null) return { path, rule: 'UNCLASSIFIED', effect: 'unclassified' };
  const covers = (set: ReadonlySet<string> | 'any', type: string): boolean =>
    set === 'any' || set.has(type) || (type === 'integer' && set.has('number'));
  const within = (inner: ReadonlySet<string> | 'any', outer: ReadonlySet<string> | 'any'): boolean =>
    outer === 'any' || (inner !== 'any' && [...inner].every((type) => covers(outer, type)));
  const [narrower, wider] = [within(after, before), within(before, after)];
  if (narrower && wider) return { path, rule: 'REWRITTEN', effect: 'rewritten' };
  if (narrower) return { path, rule: 'TYPE_NARROWED', effect: 'narrower' };
  if (wider) return { path, rule: 'TYPE_WIDENED', effect: 'wider' };
  return { path, rule: 'TYPE_CHANGED', effect: 'changed' };
}

function typesOf(type: unknown): ReadonlySet<string> | 'any' | null {
  if (type === undefined) return 'any';
  if (typeof type === 'string') return new Set([type]);
  return isStringArray(type) ? new Set(type) : null;
}

/** `enum`: absent accepts every value; values compared by canonical JSON. */
function setChange(a: unknown, b: unknown, path: string, prefix: 'ENUM'): SchemaChange {
  const valuesOf = (values: unknown): ReadonlySet<string> | 'any' | null =>
    values === undefined ? 'any' : Array.isArray(values) ? new Set(values.map((value) => jcs(value))) : null;
  const [before, after] = [valuesOf(a), valuesOf(b)];
  if (before === null || after === null) return { path, rule: 'UNCLASSIFIED', effect: 'unclassified' };
  const within = (inner: ReadonlySet<string> | 'any', outer: ReadonlySet<string> | 'any'): boolean =>
    outer === 'any' || (inner !== 'any' && [...inner].every((value) => outer.has(value)));
  const [narrower, wider] = [within(after, before), within(before, after)];
  if (narrower && wider) return { path, rule: 'REWRITTEN', effect: 'rewritten' };
  if (narrower) return { path, rule: `${prefix}_NARROWED`, effect: 'narrower' };
  if (wider) return { path, rule: `${prefix}_WIDENED`, effect: 'wider' };
  return { path, rule: `${prefix}_CHANGED`, effect: 'changed' };
}

/** `additionalProperties`: absent or `true` is open, a schema constrains, `false` is closed. */
function compareAdditional(a: unknown, b: unknown, path: string, out: SchemaChange[]): void {
  const rank = (value: unknown): number | undefined =>
    value === undefined || value === true ? 2 : value === false ? 0 : isRecord(value) ? 1 : undefined;
  const [before, after] = [rank(a), rank(b)];
  if (before === undefined || after === undefined)
    return void out.push({ path, rule: 'UNCLASSIFIED', effect: 'unclassified' });
  if (before === 1 && after === 1) return compare(a, b, path, out);
  if (before === after) return void out.push({ path, rule: 'REWRITTEN', effect: 'rewritten' });
  out.push(
    after < before
      ? { path, rule: 'ADDITIONAL_PROPERTIES_CLOSED', effect: 'narrower' }
      : { path, rule: 'ADDITIONAL_PROPERTIES_OPENED', effect: 'wider' },
  );
}

function boundChange(key: string, a: unknown, b: unknown, path: string): SchemaChange {
  const lower = LOWER_BOUNDS.has(key);
  const none = lower ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  const [before, after] = [a === undefined ? none : a, b === undefined ? none : b];
  if (typeof before !== 'number' || typeof after !== 'number')
    return { path, rule: 'UNCLASSIFIED', effect: 'unclassified' };
  if (before === after) return { path, rule: 'REWRITTEN', effect: 'rewritten' };
  return after > before === lower
    ? { path, rule: 'BOUND_TIGHTENED', effect: 'narrower' }
    : { path, rule: 'BOUND_LOOSENED', effect: 'wider' };
}

function constraintChange(a: unknown, b: unknown, path: string): SchemaChange {
  if (a === undefined) return { path, rule: 'CONSTRAINT_ADDED', effect: 'narrower' };
  if (b === undefined) return { path, rule: 'CONSTRAINT_REMOVED', effect: 'wider' };
  return { path, rule: 'CONSTRAINT_CHANGED', effect: 'changed' };
}

function requiredOf(schema: Record<string, unknown>): ReadonlySet<string> {
  return new Set(isStringArray(schema.required) ? schema.required : []);
}

function propertyNames(schema: Record<string, unknown>): ReadonlySet<string> {
  return new Set(isRecord(schema.properties) ? Object.keys(schema.properties) : []);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
