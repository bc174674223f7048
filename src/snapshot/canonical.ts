/**
 * RFC 8785 (JSON Canonicalization Scheme) and the domain-separated sha256 digests built on it.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

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
