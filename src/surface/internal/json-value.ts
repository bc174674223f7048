/**
 * JSON values as the tool surface handles them: a deep copy that shares nothing mutable, a deep
 * freeze, an equality in JSON semantics, and the JSON Pointer of the first difference.
 *
 * JSON semantics means what a wire would carry: objects compare by their own enumerable string
 * keys in any order, a member whose value is `undefined` counts as absent (JSON drops it), arrays
 * compare element by element, numbers by `===` (so `0` equals `-0`, `NaN` equals nothing).
 * Symbols, non-enumerable properties and prototypes are not part of a JSON value.
 */

/** A plain JSON object (an `inputSchema`, say). */
export type JsonObject = { [key: string]: unknown };

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * A deep copy of a JSON value: fresh arrays and plain objects all the way down, strings and
 * other primitives kept (they are immutable, so sharing them shares nothing mutable). Members
 * whose value is `undefined` are left out; a member named `__proto__` (JSON.parse makes it an
 * own property) stays an own property.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const copy: JsonObject = {};
  for (const key in value) {
    if (!hasOwn.call(value, key)) continue;
    const member = (value as JsonObject)[key];
    if (member === undefined) continue;
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: copyJson(member),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    else copy[key] = copyJson(member);
  }
  return copy as T;
}

/** Freezes a value and everything reachable from it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/** Whether two values are equal as JSON values (see the file header). Never throws. */
export function jsonEqual(expected: unknown, actual: unknown): boolean {
  try {
    return equal(expected, actual);
  } catch {
    // A getter or a proxy trap of the actual value threw: what cannot be read is not equal.
    return false;
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && equalArrays(a, b);
  if (Array.isArray(b)) return false;
  return equalInOrder(a as JsonObject, b as JsonObject) ?? equalObjects(a as JsonObject, b as JsonObject);
}

function equalArrays(a: readonly unknown[], b: readonly unknown[]): boolean {
  const length = a.length;
  if (length !== b.length) return false;
  for (let index = 0; index < length; index += 1) if (!equal(a[index], b[index])) return false;
  return true;
}

/**
 * The fast path for two objects whose keys come in the same order (a copy, a JSON round trip):
 * one `for-in` over `b` (V8 reads `b[key]` there from its enum cache), matched position by
 * position against `a`'s own keys. When `b`'s keys are exactly `a`'s own keys in order, the two
 * have the same members and this decides: equal iff every value is (a value that differs, with
 * the same key on both sides, differs as JSON too; two `undefined`s are one absent member).
 * Undefined (not decided) as soon as the keys differ in order or number, or a key is inherited:
 * {@link equalObjects} decides then.
 */
function equalInOrder(a: JsonObject, b: JsonObject): boolean | undefined {
  const keys = Object.keys(a);
  let index = 0;
  for (const key in b) {
    if (key !== keys[index] || !hasOwn.call(b, key)) return undefined;
    if (!equal(a[key], b[key])) return false;
    index += 1;
  }
  return index === keys.length ? true : undefined;
}

/** The general case: members in any order, `undefined` members absent. */
function equalObjects(a: JsonObject, b: JsonObject): boolean {
  let members = 0;
  for (const key in a) {
    if (!hasOwn.call(a, key)) continue;
    const member = a[key];
    if (member === undefined) continue;
    members += 1;
    if (!hasOwn.call(b, key) || !equal(member, b[key])) return false;
  }
  return members === memberCount(b);
}

/** Own enumerable string keys whose value is not `undefined`. */
function memberCount(value: JsonObject): number {
  let members = 0;
  for (const key in value) if (hasOwn.call(value, key) && value[key] !== undefined) members += 1;
  return members;
}

/**
 * The JSON Pointer (RFC 6901) of the first place where `actual` differs from `expected`, in
 * `expected`'s key order then `actual`'s extra keys; `''` for the roots themselves; undefined
 * when they are equal. An unreadable place (a throwing getter) is where they differ.
 */
export function firstDifference(expected: unknown, actual: unknown): string | undefined {
  try {
    return differenceAt(expected, actual, '');
  } catch {
    return '';
  }
}

function differenceAt(a: unknown, b: unknown, path: string): string | undefined {
  if (equal(a, b)) return undefined;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return path;
  if (Array.isArray(a)) return arrayDifference(a, b as unknown[], path);
  return objectDifference(a as JsonObject, b as JsonObject, path);
}

function arrayDifference(a: readonly unknown[], b: readonly unknown[], path: string): string {
  const shared = Math.min(a.length, b.length);
  for (let index = 0; index < shared; index += 1) {
    const inner = differenceAt(a[index], b[index], `${path}/${index}`);
    if (inner !== undefined) return inner;
  }
  return `${path}/${shared}`;
}

function objectDifference(a: JsonObject, b: JsonObject, path: string): string {
  for (const key of Object.keys(a)) {
    if (a[key] === undefined) continue;
    if (!hasOwn.call(b, key) || b[key] === undefined) return `${path}/${escapePointer(key)}`;
    const inner = differenceAt(a[key], b[key], `${path}/${escapePointer(key)}`);
    if (inner !== undefined) return inner;
  }
  const extra = Object.keys(b).find((key) => b[key] !== undefined && (!hasOwn.call(a, key) || a[key] === undefined));
  return extra === undefined ? path : `${path}/${escapePointer(extra)}`;
}

/** RFC 6901 section 3: `~` is written `~0`, `/` is written `~1`. */
function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The value at a JSON Pointer made by {@link firstDifference}, or undefined when there is none or it cannot be read. */
export function valueAt(root: unknown, pointer: string): unknown {
  try {
    let value = root;
    for (const token of pointer === '' ? [] : pointer.slice(1).split('/')) {
      if (typeof value !== 'object' || value === null) return undefined;
      const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
      value = Object.prototype.hasOwnProperty.call(value, key) ? (value as JsonObject)[key] : undefined;
    }
    return value;
  } catch {
    return undefined;
  }
}
