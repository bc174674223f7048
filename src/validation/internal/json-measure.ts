/**
 * Size and depth of JSON values without recursion, for the per-descriptor and per-catalog limits
 * of SPEC section 5. Descriptors are attacker-controlled: a 64 KiB
 * descriptor can nest 30,000 levels deep, which overflows the stack of `JSON.stringify` and of any
 * recursive walk. These walks keep their own stack and stop as soon as a limit is passed.
 */

/** The outcome of measuring a value against a byte limit. */
export type JsonMeasure =
  | { kind: 'json'; bytes: number }
  | { kind: 'over' }
  | { kind: 'not-json' };

/**
 * The UTF-8 byte length of `JSON.stringify(value)` (compact), or `over` as soon as it passes
 * `bytesMax`, or `not-json` for a value with no faithful JSON form (undefined, functions, bigint,
 * non-finite numbers, class instances). Values past the limit are not visited, so a non-JSON
 * value there is not reported.
 */
export function measureJson(value: unknown, bytesMax: number): JsonMeasure {
  const pending: unknown[] = [value];
  let bytes = 0;
  while (pending.length > 0) {
    const own = ownBytes(pending.pop());
    if (own === null) return { kind: 'not-json' };
    bytes += own.bytes;
    if (bytes > bytesMax) return { kind: 'over' };
    for (const child of own.children) pending.push(child);
  }
  return { kind: 'json', bytes };
}

/** The deepest nesting of objects and arrays in `value`: a scalar is 0, `{}` is 1. */
export function jsonDepth(value: unknown): number {
  const pending: [unknown, number][] = [[value, 1]];
  let deepest = 0;
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** One value's own bytes (punctuation, keys, scalars) and the children still to measure. */
interface OwnBytes {
  bytes: number;
  children: readonly unknown[];
}

const NO_CHILDREN: readonly unknown[] = [];

function ownBytes(item: unknown): OwnBytes | null {
  if (item === null) return { bytes: 4, children: NO_CHILDREN };
  switch (typeof item) {
    case 'string':
      return { bytes: utf8Bytes(JSON.stringify(item)), children: NO_CHILDREN };
    case 'number':
      return Number.isFinite(item) ? { bytes: JSON.stringify(item).length, children: NO_CHILDREN } : null;
    case 'boolean':
      return { bytes: item ? 4 : 5, children: NO_CHILDREN };
    case 'object':
      return Array.isArray(item) ? arrayBytes(item) : objectBytes(item);
    default:
      return null;
  }
}

/** Brackets and commas. A hole is visited as `undefined`, which is not JSON. */
function arrayBytes(items: unknown[]): OwnBytes {
  return { bytes: 2 + Math.max(0, items.length - 1), children: items };
}

/** Braces, commas, quoted keys and colons. Only plain objects are JSON as received. */
function objectBytes(item: object): OwnBytes | null {
  const prototype = Object.getPrototypeOf(item);
  if (prototype !== Object.prototype && prototype !== null) return null;
  const keys = Object.keys(item);
  let bytes = 2 + Math.max(0, keys.length - 1);
  for (const key of keys) bytes += utf8Bytes(JSON.stringify(key)) + 1;
  return { bytes, children: Object.values(item) };
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
