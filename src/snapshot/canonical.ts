/**
 * RFC 8785 (JSON Canonicalization Scheme) and the domain-separated sha256 digests built on it.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { descriptorMemo } from '../validation/internal/bounded-memo.ts';

/**
 * The RFC 8785 canonical form of a JSON value.
 * @throws TypeError when the value has no JSON form (e.g. `undefined` at the root).
 */
export function jcs(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** Lowercase hex sha256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** sha256(`${domain}\n` + JCS(value)), lowercase hex: the digest form of SPEC section 4. */
export function domainDigest(domain: string, value: unknown): string {
  return sha256Hex(`${domain}\n${jcs(value)}`);
}

/**
 * Canonical texts by `JSON.stringify` text (a generational memo: bounded-memo.ts), half the
 * descriptor memos' size: its values are as large as its keys, and a warm rescan needs it only
 * where a page or descriptor digest misses.
 */
const canonicalMemo = descriptorMemo<string>(0.5);

/**
 * {@link jcs}, memoised by the value's `JSON.stringify` text: equal text means an equal JSON
 * value, hence an equal canonical form. Servers resend the same descriptors on every scan, so
 * this turns the recursive canonicalisation into one native stringify and a map lookup.
 */
export function jcsMemo(value: unknown): string {
  return jcsMemoOfText(value, JSON.stringify(value));
}

/**
 * {@link jcsMemo} of `value` whose `JSON.stringify` text the caller already has (`text` must be
 * exactly that; undefined for a value with no JSON form): the stringify is saved.
 */
export function jcsMemoOfText(value: unknown, text: string | undefined): string {
  if (text === undefined || (text === 'null' && value !== null)) return jcs(value);
  return canonicalMemo.get(text, () => jcs(value));
}
