/**
 * The trust configuration: what the host decides about tools, independently of what servers
 * claim. Its digest is recorded at discovery start and must be unchanged at publish (SPEC 6).
 */
import { domainDigest } from '../snapshot/canonical.ts';

/** Effect classes, from trusted policy only (SPEC section 4). */
export type EffectClass = 'READ' | 'RESERVATION' | 'WRITE' | 'DESTRUCTIVE';

/**
 * The JSON Schema 2020-12 meta-schema URI: the dialect of a schema without `$schema` under
 * protocol 2025-11-25 (the MCP specification's "JSON Schema Usage", SEP-1613), validated with
 * `ajv/dist/2020`.
 */
export const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The JSON Schema draft-07 meta-schema URI, as the SDK's schema generator and the reference
 * servers emit it (see `scenarios/catalogs/*.json`); validated with ajv's default class.
 */
export const DIALECT_DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** What the host trusts. Sizes are bytes of compact UTF-8 JSON; depths count objects and arrays. */
export interface TrustConfig {
  /**
   * `$schema` URIs accepted for `inputSchema`/`outputSchema`; absent `$schema` means 2020-12.
   * Only dialects catsim can validate take effect (2020-12 and draft-07, see `dialect.ts`);
   * any other URI listed here matches nothing, so its schemas stay UNKNOWN_DIALECT.
   */
  acceptedDialects: string[];
  /** Effect class per tool name; a tool not listed counts as WRITE. */
  effectClasses: Record<string, EffectClass>;
  /** Largest descriptor (UTF-8 JSON of the tool as sent), in bytes. */
  descriptorBytesMax: number;
  /** Deepest nesting of `inputSchema` or `outputSchema` (objects and arrays; the root is 1). */
  schemaDepthMax: number;
  /** Most tools in one snapshot; more quarantines the whole snapshot. */
  toolCountMax: number;
  /** Most bytes of all descriptors of one snapshot together; more quarantines the snapshot. */
  catalogBytesMax: number;
}

/**
 * The default trust: 2020-12 plus draft-07 (SPEC 5), no classified tools, generous limits
 * (64 KiB per descriptor, schemas 32 deep, 10,000 tools, 8 MiB per catalog).
 */
export const DEFAULT_TRUST: TrustConfig = {
  acceptedDialects: [DIALECT_2020_12, DIALECT_DRAFT_07],
  effectClasses: {},
  descriptorBytesMax: 64 * 1024,
  schemaDepthMax: 32,
  toolCountMax: 10_000,
  catalogBytesMax: 8 * 1024 * 1024,
};

/** sha256 over the canonical trust configuration (lowercase hex). */
export function trustDigest(trust: TrustConfig): string {
  let digest = trustDigests.get(trust);
  if (digest === undefined) trustDigests.set(trust, (digest = domainDigest('catsim.trust.v1', trust)));
  return digest;
}

/** Trust configurations are treated as immutable once handed to the core. */
const trustDigests = new WeakMap<TrustConfig, string>();
const validationDigests = new WeakMap<TrustConfig, string>();

/**
 * sha256 over the part of the trust configuration that content checks and argument validation
 * depend on (dialects and limits; not the effect classes). Caches of verdicts, ajv instances and
 * compiled validators are keyed by it, so hosts whose trust differs only in effect classes share
 * them (a campaign builds a new host, with its own effect classes, every round).
 */
export function validationDigest(trust: TrustConfig): string {
  let digest = validationDigests.get(trust);
  if (digest === undefined) {
    const { acceptedDialects, descriptorBytesMax, schemaDepthMax, toolCountMax, catalogBytesMax } = trust;
    digest = domainDigest('catsim.validation.v1', {
      acceptedDialects,
      descriptorBytesMax,
      schemaDepthMax,
      toolCountMax,
      catalogBytesMax,
    });
    validationDigests.set(trust, digest);
  }
  return digest;
}

/** The effect class the trust configuration gives a tool (WRITE when unclassified). */
export function effectClassOf(trust: TrustConfig, toolName: string): EffectClass {
  return Object.hasOwn(trust.effectClasses, toolName) ? (trust.effectClasses[toolName] as EffectClass) : 'WRITE';
}
