/**
 * The field-table language of `catsim.trace.v1`: one `Field<T>` per kind of value a trace carries
 * (strings, non-negative integers, digests, catalog keys, closed sets of codes, nested objects,
 * arrays), each holding three things that must never drift apart:
 * - `test(value)`: whether a value is of the kind. It allocates nothing, because the simulator's
 *   observation sink runs it on every observation of every campaign round;
 * - its words: `expected` finishes a validation error ("... must be **a string or null**") and
 *   `type` is the type column of docs/TRACE.md ("string or null");
 * - its TypeScript type `T`, which `Infer<F>` reads, so that the types of the format are inferred
 *   from the same tables that check it and document it.
 * When `test` fails, `problemOf` walks the value once more to name the first wrong field.
 *
 * Objects are strict: a field the contract does not list is refused, because the format is
 * versioned (a new field is an entry here, documented and judged, never a silent extra).
 */

/** One kind of value. `T` is its TypeScript type; `_type` only carries it (it is never set). */
export interface Field<T> {
  readonly test: (value: unknown) => boolean;
  /** Finishes "X must be ...", e.g. `a non-negative integer`. */
  readonly expected: string;
  /** The type column of docs/TRACE.md, e.g. `int ≥ 0`. */
  readonly type: string;
  /** What the field means, for the docs (never in errors). */
  readonly description?: string;
  /** Set on a field older traces may lack; when present it must still be of its kind. */
  readonly optional?: true;
  /** The fields of an object kind, in their written order. */
  readonly shape?: Shape;
  /** The kind inside an array (its items), a record (its values) or a nullable kind, and which. */
  readonly inner?: Field<unknown>;
  readonly container?: 'array' | 'record' | 'nullable';
  /** What a record's keys are (for the docs), e.g. `audience`. */
  readonly keyName?: string;
  /**
   * Names the first problem inside a composite value `test` refused (`at` names the value), or
   * null when the value is not even of the composite's container type.
   */
  readonly locate?: (value: unknown, at: string) => string | null;
  readonly _type?: T;
}

/** The fields of an object, by name, in their written order. */
export type Shape = Readonly<Record<string, Field<unknown>>>;

/** The TypeScript type of a field's values. */
export type Infer<F> = F extends Field<infer T> ? T : never;

/** Flattens an intersection for readable types. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { readonly optional: true } ? K : never }[keyof S];

/** The read-only object type of a shape: optional fields may be absent. */
export type ObjectOf<S extends Shape> = Simplify<
  { readonly [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { readonly [K in OptionalKeys<S>]?: Infer<S[K]> }
>;

/** The sentence for the first problem of `value` as a `field`, or null when it is of its kind. */
export function problemOf(field: Field<unknown>, value: unknown, at: string): string | null {
  if (field.test(value)) return null;
  return field.locate?.(value, at) ?? `${at} must be ${field.expected}`;
}

function kind<T>(test: (value: unknown) => boolean, expected: string, type: string): Field<T> {
  return { test, expected, type };
}

/** Any string (names, ids, identities, cursors). */
export const str: Field<string> = kind((v) => typeof v === 'string', 'a string', 'string');

/** A non-negative safe integer: counts, revisions, generations, epochs, virtual ms. */
export const nat: Field<number> = kind(
  (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  'a non-negative integer',
  'int ≥ 0',
);

/** A safe integer of any sign (a JSON-RPC error code). */
export const int: Field<number> = kind((v) => Number.isSafeInteger(v), 'an integer', 'int');

/** true or false. */
export const bool: Field<boolean> = kind((v) => typeof v === 'boolean', 'a boolean', 'bool');

/** Whether `value` is 64 lowercase hex digits (a loop: several times faster than a regex here). */
function isHexDigest(value: string): boolean {
  if (value.length !== 64) return false;
  for (let i = 0; i < 64; i += 1) {
    const code = value.charCodeAt(i);
    if (!((code >= 48 && code <= 57) || (code >= 97 && code <= 102))) return false; // 0-9, a-f
  }
  return true;
}

/** A digest: lowercase hex sha256, 64 digits (SPEC section 4). */
export const digest: Field<string> = kind(
  (v) => typeof v === 'string' && isHexDigest(v),
  '64 lowercase hex digits',
  'digest',
);

/**
 * A catalog key `"<identity>|<tenant>.<role>"` (SPEC section 1): a non-empty identity and audience
 * around the last `|` (an identity may itself contain `|`, an audience never does).
 */
export const catalogKey: Field<string> = kind(
  (v) => typeof v === 'string' && v.lastIndexOf('|') > 0 && !v.endsWith('|'),
  'a catalog key "<identity>|<tenant>.<role>"',
  'catalog key',
);

/** Any JSON value: for a field an invariant judges itself (a receipt's binding fields, I6). */
export const anyJson: Field<unknown> = kind(() => true, 'any JSON value', 'any');

/** Exactly `value` (the header's `type` and `schema`). */
export function literal<const V extends string>(value: V): Field<V> {
  return kind((v) => v === value, `"${value}"`, `\`"${value}"\``);
}

/** `"a" or "b"` for two items, `one of "a", "b", "c"` for more. */
function listOf(items: readonly string[]): string {
  return items.length === 2 ? `${items[0]} or ${items[1]}` : `one of ${items.join(', ')}`;
}

/**
 * One of a closed set of codes. The set is part of the contract: a code outside it is refused
 * (a new code is a change to codes.ts, documented with the others). `type` replaces the list in
 * the docs' type column when the codes have a table of their own there.
 */
export function oneOf<const T extends readonly string[]>(values: T, type?: string): Field<T[number]> {
  const allowed: ReadonlySet<unknown> = new Set(values);
  return kind(
    (v) => allowed.has(v),
    listOf(values.map((value) => `"${value}"`)),
    type ?? listOf(values.map((value) => `\`${value}\``)),
  );
}

/** A kind, or null (a cursor of the first page, an unversioned revision). */
export function nullable<T>(of: Field<T>): Field<T | null> {
  return {
    ...bare(of),
    test: (v) => v === null || of.test(v),
    expected: `${of.expected} or null`,
    type: `${of.type} or null`,
    inner: of,
    container: 'nullable',
    locate: (v, at) => of.locate?.(v, at) ?? null,
  };
}

/** A field older traces lack; when present it must be of its kind. */
export function optional<T>(of: Field<T>): Field<T> & { readonly optional: true } {
  return { ...of, optional: true };
}

/** A field with what it means, for the docs. */
export function field<F extends Field<unknown>>(of: F, description: string): F {
  return { ...of, description };
}

/** A kind without a field's own description or optionality (for wrapping it). */
function bare<T>(of: Field<T>): Field<T> {
  const { description: _description, optional: _optional, ...rest } = of;
  return rest;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The test of a strict object: every field of `shape` is of its kind (an optional one may be
 * absent), and the value has no other field. A member whose value is `undefined` counts as absent,
 * as it is once written as JSON. Built once per shape; one call reads each field once and counts
 * the value's keys, with no allocation.
 */
function shapeTest(shape: Shape): (value: Readonly<Record<string, unknown>>) => boolean {
  const names = Object.keys(shape);
  const members = names.map((name) => shape[name] as Field<unknown>);
  return (value) => {
    let present = 0;
    for (let i = 0; i < names.length; i += 1) {
      const name = names[i] as string;
      const member = members[i] as Field<unknown>;
      const memberValue = value[name];
      if (memberValue === undefined) {
        if (member.optional !== true) return false;
        if (Object.hasOwn(value, name)) present += 1;
      } else {
        if (!member.test(memberValue)) return false;
        present += 1;
      }
    }
    let keys = 0;
    for (const _name in value) keys += 1;
    return keys === present;
  };
}

/** The first problem of an object its shape test refused: a missing, a wrong, then an unknown field. */
function shapeProblem(shape: Shape, value: Readonly<Record<string, unknown>>, at: string): string {
  for (const [name, member] of Object.entries(shape)) {
    if (value[name] === undefined) {
      if (member.optional === true) continue;
      return `${at} has no field ${JSON.stringify(name)}`;
    }
    const problem = problemOf(member, value[name], `${at}.${name}`);
    if (problem !== null) return problem;
  }
  const unknown = Object.keys(value).find((name) => !Object.hasOwn(shape, name)) ?? '';
  return `${at} has an unknown field ${JSON.stringify(unknown)}`;
}

/** A strict object of the given fields, in their written order. */
export function objectOf<const S extends Shape>(shape: S): Field<ObjectOf<S>> & { readonly shape: S } {
  const holds = shapeTest(shape);
  return {
    test: (v) => isPlainObject(v) && holds(v),
    expected: 'an object',
    type: `{${Object.keys(shape)
      .map((name) => `"${name}"`)
      .join(', ')}}`,
    shape,
    locate: (v, at) => (isPlainObject(v) ? shapeProblem(shape, v, at) : null),
  };
}

/** An array of one kind of item; `type` is how the docs show it. */
export function arrayOf<T>(item: Field<T>, type: string, expected = 'an array'): Field<readonly T[]> {
  return {
    test: (v) => {
      if (!Array.isArray(v)) return false;
      for (const element of v) if (!item.test(element)) return false;
      return true;
    },
    expected,
    type,
    inner: item,
    container: 'array',
    locate: (v, at) => {
      if (!Array.isArray(v)) return null;
      const index = v.findIndex((element) => !item.test(element));
      return problemOf(item, v[index], `${at}[${index}]`);
    },
  };
}

/** An object whose keys are free (`keyName`: audiences, tool names) and whose values are of one kind. */
export function recordOf<T>(value: Field<T>, type: string, keyName: string): Field<Readonly<Record<string, T>>> {
  return {
    test: (v) => {
      if (!isPlainObject(v)) return false;
      for (const name in v) if (!value.test(v[name])) return false;
      return true;
    },
    expected: 'an object',
    type,
    inner: value,
    container: 'record',
    keyName,
    locate: (v, at) => {
      if (!isPlainObject(v)) return null;
      const name = Object.keys(v).find((key) => !value.test(v[key])) ?? '';
      return problemOf(value, v[name], `${at}[${JSON.stringify(name)}]`);
    },
  };
}

/** An array of strings. */
export const strings = arrayOf(str, 'string[]', 'an array of strings');

/** An array of digests. */
export const digests = arrayOf(digest, 'digest[]', 'an array of digests');

/** A string or null. */
export const strOrNull = nullable(str);

/** A non-negative integer or null. */
export const natOrNull = nullable(nat);

/** A boolean or null. */
export const boolOrNull = nullable(bool);

/** A digest or null. */
export const digestOrNull = nullable(digest);
