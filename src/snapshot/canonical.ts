/**
 * RFC 8785 (JSON Canonicalization Scheme) and the domain-separated sha256 digests built on it.
 */
import { hash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { BoundedMemo } from '../bounded-memo.ts';

/**
 * The RFC 8785 canonical form of a JSON value, exactly as the `canonicalize` package writes it
 * (same text, same errors), with one extension: a lone UTF-16 surrogate in a string or key of
 * plain data (legal in JSON text as `\ud800`, refused by RFC 8785 and the package) is written as
 * its escape, as `JSON.stringify` does, so that a server sending one gets a digest and a tool
 * quarantined as MALFORMED_DESCRIPTOR (src/validation/content-checks.ts) instead of an exception.
 * Plain data is written by {@link fastJcs}, anything else by the package itself.
 * @throws TypeError when the value has no JSON form (e.g. `undefined` at the root); the package's
 *   Error for NaN, an infinity, a cycle, or a lone surrogate inside data that is not plain.
 */
export function jcs(value: unknown): string {
  const text = fastJcs(value) ?? canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** Thrown inside {@link fastJcsOf} when a value needs the package's own treatment. */
const NOT_PLAIN = Symbol('not plain JSON data');

/** Nesting past which {@link fastJcs} leaves the value to the package (which also finds cycles). */
const FAST_DEPTH_MAX = 512;

/**
 * The `canonicalize` package's text for plain JSON data, without its per-call `Set`, its
 * character loop over every string and key (a native `isWellFormed` instead) or its arrays of
 * parts; a lone surrogate is escaped (see {@link jcs}) where the package would throw; undefined
 * when the value holds anything the package treats specially or rejects (non-finite numbers,
 * `toJSON`, functions, bigints, class instances, holes, nesting past {@link FAST_DEPTH_MAX},
 * hence any cycle), so that the caller asks the package itself.
 * Objects: own keys sorted by UTF-16 code units (`Array.prototype.sort`), members whose value is
 * undefined or a symbol left out; arrays: undefined and symbol members become null.
 */
function fastJcs(value: unknown): string | undefined {
  try {
    return fastJcsOf(value, 0);
  } catch (error) {
    if (error === NOT_PLAIN) return undefined;
    throw error;
  }
}

function fastJcsOf(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return quoted(value as string);
    case 'number':
      // `JSON.stringify` of a finite number is its `ToString` (which also writes -0 as 0).
      if (!Number.isFinite(value)) throw NOT_PLAIN;
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (value === null) return 'null';
  if (depth >= FAST_DEPTH_MAX) throw NOT_PLAIN;
  if (Array.isArray(value)) {
    if (
      Object.getPrototypeOf(value) !== Array.prototype ||
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
    )
      throw NOT_PLAIN;
    let text = '[';
    for (let i = 0; i < value.length; i += 1) {
      // The package maps over the array, which skips a hole and joins it as an empty string.
      if (!(i in value)) throw NOT_PLAIN;
      const item: unknown = value[i];
      if (i > 0) text += ',';
      text += item === undefined || typeof item === 'symbol' ? 'null' : fastJcsOf(item, depth + 1);
    }
    return `${text}]`;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (
    (prototype !== Object.prototype && prototype !== null) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  )
    throw NOT_PLAIN;
  const record = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of sortedKeys(record)) {
    const member = record[key];
    if (member === undefined || typeof member === 'symbol') continue;
    text += `${first ? '' : ','}${quoted(key)}:${fastJcsOf(member, depth + 1)}`;
    first = false;
  }
  return `${text}}`;
}

/** What `JSON.stringify` escapes in a well-formed string: the quote, the backslash, controls. */
const JSON_ESCAPED = /["\\\u0000-\u001f]/;

/**
 * `JSON.stringify(text)`: the text between quotes when it holds nothing to escape, which saves
 * the call. A lone surrogate is written as its `\udXXX` escape, as `JSON.stringify` does.
 */
function quoted(text: string): string {
  return JSON_ESCAPED.test(text) || !(text as string & { isWellFormed(): boolean }).isWellFormed()
    ? JSON.stringify(text)
    : `"${text}"`;
}

/** Objects with at most this many keys are sorted by {@link sortedKeys}' insertion sort. */
const INSERTION_SORT_KEYS_MAX = 16;

/**
 * `Object.keys(record).sort()`: own enumerable string keys in UTF-16 code-unit order (what `<`
 * compares, as the builtin's default order does). The few keys of most objects are sorted in
 * place by insertion, which is faster than the builtin's general sort; more keys go to it.
 */
export function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length > INSERTION_SORT_KEYS_MAX) return keys.sort();
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j -= 1) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * Lowercase hex sha256 of a UTF-8 string. The one-shot `crypto.hash` (Node 20.12+) builds no
 * `Hash` object: about half a microsecond less per digest.
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** sha256(`${domain}\n` + JCS(value)), lowercase hex: the digest form of SPEC section 4. */
export function domainDigest(domain: string, value: unknown): string {
  return sha256Hex(`${domain}\n${jcs(value)}`);
}

/**
 * {@link jcs}, memoised in `memo` (canonical texts by `JSON.stringify` text: equal text means an
 * equal JSON value, hence an equal canonical form; a host's `CoreMemos.canonicalTexts`). Servers
 * resend the same descriptors on every scan, so this turns the recursive canonicalisation into one
 * native stringify and a map lookup. Without a memo it is {@link jcs}.
 */
export function jcsMemo(value: unknown, memo?: BoundedMemo<string>): string {
  if (memo === undefined) return jcs(value);
  const known = typeof value === 'object' && value !== null ? KNOWN_TEXTS.get(value) : undefined;
  return jcsMemoOfText(value, known ?? JSON.stringify(value), memo);
}

/**
 * `JSON.stringify` texts of frozen values, by identity (see {@link rememberFrozenText}): a
 * snapshot's descriptors, whose texts the page source kept, so that digesting the snapshot does
 * not stringify them again.
 */
const KNOWN_TEXTS = new WeakMap<object, string>();

/**
 * Records that `text` is `JSON.stringify(value)` for {@link jcsMemo}. Only for a value that is
 * frozen all the way down (or about to be, before anything else reads it: `buildSnapshot`
 * freezes its descriptors as it builds the snapshot), so the text can never go stale.
 */
export function rememberFrozenText(value: object, text: string): void {
  KNOWN_TEXTS.set(value, text);
}

/**
 * {@link jcsMemo} of `value` whose `JSON.stringify` text the caller already has (`text` must be
 * exactly that; undefined for a value with no JSON form): the stringify is saved.
 */
export function jcsMemoOfText(value: unknown, text: string | undefined, memo?: BoundedMemo<string>): string {
  if (memo === undefined || text === undefined || (text === 'null' && value !== null)) return jcs(value);
  return memo.get(text, () => jcs(value));
}
