/**
 * Size and depth of JSON values without recursion, for the per-descriptor and per-catalog limits
 * of SPEC section 5. Descriptors are attacker-controlled: a 64 KiB
 * descriptor can nest 30,000 levels deep, which overflows the stack of `JSON.stringify` and of any
 * recursive walk. These walks keep their own stack and stop as soon as a limit is passed.
 */

/** The outcome of measuring a value against a byte limit. */
export type JsonMeasure = { kind: 'json'; bytes: number } | { kind: 'over' } | { kind: 'not-json' };

/**
 * The UTF-8 byte length of `JSON.stringify(value)` (compact), or `over` as soon as it passes
 * `bytesMax`, or `not-json` for a value with no faithful JSON form (undefined, functions, bigint,
 * non-finite numbers, class instances, a string or key holding a lone UTF-16 surrogate). Values past the limit are not visited, so a non-JSON
 * value there is not reported. The walk allocates only its stack and each object's key list:
 * strings and keys that need no escaping are measured in place (see {@link jsonStringBytes}).
 */
export function measureJson(value: unknown, bytesMax: number): JsonMeasure {
  // Children are pushed in member order and popped last first, as before this walk kept no
  // per-value records: which of `over` and `not-json` comes first depends on that order.
  const pending: unknown[] = [value];
  let bytes = 0;
  while (pending.length > 0) {
    const item = pending.pop();
    if (item === null) bytes += 4;
    else {
      switch (typeof item) {
        case 'string':
          // A lone UTF-16 surrogate (legal in JSON text as `\ud800`) has no UTF-8 form.
          if (!(item as string & { isWellFormed(): boolean }).isWellFormed()) return { kind: 'not-json' };
          bytes += jsonStringBytes(item);
          break;
        case 'number':
          if (!Number.isFinite(item)) return { kind: 'not-json' };
          bytes += numberChars(item);
          break;
        case 'boolean':
          bytes += item ? 4 : 5;
          break;
        case 'object':
          if (Array.isArray(item)) {
            // Brackets and commas. A hole is visited as `undefined`, which is not JSON.
            bytes += 2 + Math.max(0, item.length - 1);
            for (let i = 0; i < item.length; i += 1) pending.push(item[i]);
          } else {
            // Braces, commas, quoted keys and colons. Only plain objects are JSON as received.
            const prototype = Object.getPrototypeOf(item);
            if (prototype !== Object.prototype && prototype !== null) return { kind: 'not-json' };
            const keys = Object.keys(item);
            bytes += 2 + Math.max(0, keys.length - 1);
            for (const key of keys) {
              if (!(key as string & { isWellFormed(): boolean }).isWellFormed()) return { kind: 'not-json' };
              bytes += jsonStringBytes(key) + 1;
              pending.push((item as Record<string, unknown>)[key]);
            }
          }
          break;
        default:
          return { kind: 'not-json' };
      }
    }
    if (bytes > bytesMax) return { kind: 'over' };
  }
  return { kind: 'json', bytes };
}

/** The deepest nesting of objects and arrays in `value`: a scalar is 0, `{}` is 1. */
export function jsonDepth(value: unknown): number {
  const pending: unknown[] = [value];
  const depths: number[] = [1];
  let deepest = 0;
  while (pending.length > 0) {
    const item = pending.pop();
    const depth = depths.pop() as number;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > deepest) deepest = depth;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i += 1) {
        pending.push(item[i]);
        depths.push(depth + 1);
      }
    } else {
      for (const key of Object.keys(item)) {
        pending.push((item as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}

/**
 * Characters that `JSON.stringify` escapes (quote, backslash, controls) or that need a closer
 * look (any UTF-16 surrogate: a lone one is escaped as `\uXXXX`, a pair is one 4-byte character).
 */
const NEEDS_ESCAPE_OR_SURROGATE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Printable ASCII but the quote and the backslash: one byte each, written as they are. */
const PLAIN_ASCII = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/;

/**
 * The UTF-8 bytes of `JSON.stringify(text)`: for printable ASCII with nothing to escape, its
 * length and two quotes; for other text with nothing to escape and no surrogate, its own UTF-8
 * length and two quotes, without building the quoted copy; otherwise measured on that copy.
 */
function jsonStringBytes(text: string): number {
  if (PLAIN_ASCII.test(text)) return text.length + 2;
  if (!NEEDS_ESCAPE_OR_SURROGATE.test(text)) return Buffer.byteLength(text, 'utf8') + 2;
  return Buffer.byteLength(JSON.stringify(text), 'utf8');
}

/** The length of `JSON.stringify(n)` for a finite number (ASCII, so its bytes); digits counted for safe integers. */
function numberChars(n: number): number {
  if (!Number.isSafeInteger(n)) return JSON.stringify(n).length;
  let chars = n < 0 ? 2 : 1;
  for (let rest = Math.abs(n); rest >= 10; rest = Math.floor(rest / 10)) chars += 1;
  return chars;
}
