/**
 * The digests of SPEC section 4 as the package exports them: one argument each, so they can be
 * handed to `map` (`tools.map(descriptorDigest)`), and computed afresh at every call. The
 * reference core's own versions (src/snapshot/digests.ts) take a host's memos as well.
 */
import * as digests from '../src/snapshot/digests.ts';

export type { PageDigestInput } from '../src/snapshot/digests.ts';

/** sha256("catsim.descriptor.v1\n" + JCS(tool exactly as sent, annotations and `_meta` included)), lowercase hex. */
export function descriptorDigest(tool: unknown): string {
  return digests.descriptorDigest(tool);
}

/** sha256("catsim.page.v1\n" + JCS({cursorIn, cursorOut, revision, tools})), lowercase hex. */
export function pageDigest(page: digests.PageDigestInput): string {
  return digests.pageDigest(page);
}

/**
 * Fold over page digests in cursor order: root = sha256(root ‖ pageDigest), over raw bytes,
 * starting from 32 zero bytes; lowercase hex.
 * @throws TypeError when a digest is not 64 hex characters.
 */
export function pageRoot(pageDigests: readonly string[]): string {
  return digests.pageRoot(pageDigests);
}
