/**
 * Ground-truth digests, computed by the simulator with its own code (not the core's), so that a
 * digest bug in the core cannot hide behind the same bug in the world. Formulas: SPEC section 4.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Canonical texts of descriptors, by identity: the world never mutates a placed descriptor. */
const canonicalTexts = new WeakMap<object, string>();

function canonical(value: unknown): string {
  if (typeof value !== 'object' || value === null) return canonicalize(value) ?? 'null';
  let text = canonicalTexts.get(value);
  if (text === undefined) canonicalTexts.set(value, (text = canonicalize(value) ?? 'null'));
  return text;
}

/** sha256("catsim.descriptor.v1\n" + JCS(tool)). */
export function worldDescriptorDigest(tool: unknown): string {
  return sha256(`catsim.descriptor.v1\n${canonical(tool)}`);
}

/**
 * sha256("catsim.page.v1\n" + JCS({cursorIn, cursorOut, revision, tools})); the four keys are
 * written in JCS order, each tool in its canonical form.
 */
export function worldPageDigest(cursorIn: string | null, cursorOut: string | null, revision: number | null, tools: readonly unknown[]): string {
  const body = `{"cursorIn":${canonicalize(cursorIn)},"cursorOut":${canonicalize(cursorOut)},"revision":${canonicalize(revision)},"tools":[${tools.map(canonical).join(',')}]}`;
  return sha256(`catsim.page.v1\n${body}`);
}
