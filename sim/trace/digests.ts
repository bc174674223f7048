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

/** Descriptor digests by identity (placed descriptors are never mutated). */
const descriptorDigests = new WeakMap<object, string>();

/** sha256("catsim.descriptor.v1\n" + JCS(tool)). */
export function worldDescriptorDigest(tool: unknown): string {
  if (typeof tool !== 'object' || tool === null) return sha256(`catsim.descriptor.v1\n${canonical(tool)}`);
  let digest = descriptorDigests.get(tool);
  if (digest === undefined) descriptorDigests.set(tool, (digest = sha256(`catsim.descriptor.v1\n${canonical(tool)}`)));
  return digest;
}

/** Descriptor sizes by identity (placed descriptors are never mutated). */
const descriptorBytes = new WeakMap<object, number>();

/**
 * The UTF-8 length of the descriptor's compact JSON as the server sends it (`JSON.stringify`,
 * key order kept), bytes: SPEC section 5's measure of a catalog, written into `revision` views
 * so the oracle can judge the whole-catalog byte limit (I27) with the world's own numbers.
 */
export function worldDescriptorBytes(tool: unknown): number {
  if (typeof tool !== 'object' || tool === null) return Buffer.byteLength(JSON.stringify(tool) ?? 'null', 'utf8');
  let bytes = descriptorBytes.get(tool);
  if (bytes === undefined)
    descriptorBytes.set(tool, (bytes = Buffer.byteLength(JSON.stringify(tool) ?? 'null', 'utf8')));
  return bytes;
}

/**
 * Page digests by (cursors, revision, tool digests); bounded at {@link PAGE_DIGESTS_MAX}. A
 * round adds about 30 pages never seen before and rereads its own, so the bound only has to
 * hold a round's pages; a larger one swings the heap by megabytes between clears.
 */
const pageDigests = new Map<string, string>();
const PAGE_DIGESTS_MAX = 2048;

/**
 * sha256("catsim.page.v1\n" + JCS({cursorIn, cursorOut, revision, tools})); the four keys are
 * written in JCS order, each tool in its canonical form.
 */
export function worldPageDigest(
  cursorIn: string | null,
  cursorOut: string | null,
  revision: number | null,
  tools: readonly unknown[],
): string {
  const key = `${JSON.stringify([cursorIn, cursorOut, revision])}${tools.map(worldDescriptorDigest).join(',')}`;
  let digest = pageDigests.get(key);
  if (digest === undefined) {
    if (pageDigests.size >= PAGE_DIGESTS_MAX) pageDigests.clear();
    pageDigests.set(key, (digest = pageDigestOf(cursorIn, cursorOut, revision, tools)));
  }
  return digest;
}

function pageDigestOf(
  cursorIn: string | null,
  cursorOut: string | null,
  revision: number | null,
  tools: readonly unknown[],
): string {
  const body = `{"cursorIn":${canonicalize(cursorIn)},"cursorOut":${canonicalize(cursorOut)},"revision":${canonicalize(revision)},"tools":[${tools.map(canonical).join(',')}]}`;
  return sha256(`catsim.page.v1\n${body}`);
}
