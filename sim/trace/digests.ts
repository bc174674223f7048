/**
 * Ground-truth digests, computed by the simulator with its own code (not the core's), so that a
 * digest bug in the core cannot hide behind the same bug in the world. Formulas: SPEC section 4.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

function digest(domain: string, value: unknown): string {
  return createHash('sha256').update(`${domain}\n${canonicalize(value) ?? 'null'}`, 'utf8').digest('hex');
}

/** sha256("catsim.descriptor.v1\n" + JCS(tool)). */
export function worldDescriptorDigest(tool: unknown): string {
  return digest('catsim.descriptor.v1', tool);
}

/** sha256("catsim.page.v1\n" + JCS({cursorIn, cursorOut, revision, tools})). */
export function worldPageDigest(cursorIn: string | null, cursorOut: string | null, revision: number | null, tools: readonly unknown[]): string {
  return digest('catsim.page.v1', { cursorIn, cursorOut, revision, tools });
}
