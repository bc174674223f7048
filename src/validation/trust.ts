/**
 * The trust configuration: what the host decides about tools, independently of what servers
 * claim. Its digest is recorded at discovery start and must be unchanged at publish (SPEC 6).
 */
import { domainDigest } from '../snapshot/canonical.ts';

/** Effect classes, from trusted policy only (SPEC section 4). */
export type EffectClass = 'READ' | 'RESERVATION' | 'WRITE' | 'DESTRUCTIVE';

/** JSON Schema 2020-12 and draft-07 meta-schema URIs, the default accepted dialects (SPEC 5). */
export const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
export const DIALECT_DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** What the host trusts. */
export interface TrustConfig {
  /** `$schema` URIs accepted for `inputSchema`/`outputSchema`; absent `$schema` means 2020-12. */
  acceptedDialects: string[];
  /** Effect class per tool name; a tool not listed counts as WRITE. */
  effectClasses: Record<string, EffectClass>;
  /** Largest descriptor (UTF-8 JSON of the tool as sent), in bytes. */
  descriptorBytesMax: number;
  /** Deepest nesting of a descriptor's schemas (objects and arrays). */
  schemaDepthMax: number;
  /** Most tools in one snapshot; more quarantines the whole snapshot. */
  toolCountMax: number;
}

/** The default trust: 2020-12 plus draft-07, no classified tools, generous limits. */
export const DEFAULT_TRUST: TrustConfig = {
  acceptedDialects: [DIALECT_2020_12, DIALECT_DRAFT_07],
  effectClasses: {},
  descriptorBytesMax: 64 * 1024,
  schemaDepthMax: 32,
  toolCountMax: 10_000,
};

/** sha256 over the canonical trust configuration. */
export function trustDigest(trust: TrustConfig): string {
  let digest = trustDigests.get(trust);
  if (digest === undefined) trustDigests.set(trust, (digest = domainDigest('catsim.trust.v1', trust)));
  return digest;
}

/** Trust configurations are treated as immutable once handed to the core. */
const trustDigests = new WeakMap<TrustConfig, string>();

/** The effect class the trust configuration gives a tool (WRITE when unclassified). */
export function effectClassOf(trust: TrustConfig, toolName: string): EffectClass {
  return Object.hasOwn(trust.effectClasses, toolName) ? (trust.effectClasses[toolName] as EffectClass) : 'WRITE';
}
