/**
 * The `toolCatalogSnapshot.v1` artifact (SPEC section 4): immutable, canonical JSON, built from
 * one complete scan. The registry wraps it with a generation and a status; the artifact itself
 * never holds either, so its digest is stable.
 */
import type { PageRecord } from '../discovery/scan.ts';
import type { CatalogKey } from '../keys.ts';
import { checkTools, toolName, type ContentChecks, type ToolVerdict } from '../validation/content-checks.ts';
import { effectClassOf, trustDigest, type EffectClass, type TrustConfig } from '../validation/trust.ts';
import type { BoundedMemo } from '../bounded-memo.ts';
import type { ValidationMemos } from '../validation/validation-memos.ts';
import {
  descriptorDigest,
  descriptorDigestOfText,
  pageRoot,
  schemaDigest,
  snapshotDigest,
  type DigestMemos,
} from './digests.ts';
import { rememberFrozenText } from './canonical.ts';

/**
 * One tool of a snapshot. `source` is the descriptor exactly as the server sent it: the object
 * the SDK parsed from the wire (already a private copy), frozen with the snapshot.
 */
export interface SnapshotTool {
  name: string;
  descriptorDigest: string;
  inputSchemaDigest: string | null;
  outputSchemaDigest: string | null;
  /** From trusted policy, never from annotations (SPEC section 4). */
  effectClass: EffectClass;
  /** The server's annotations, recorded as untrusted hints. */
  annotations: Record<string, unknown> | null;
  /** A derived short description (first sentence, at most 120 characters); never overrides `source`. */
  shortDescription: string;
  source: unknown;
  verdict: ToolVerdict;
}

/** One page of the walk as bound into the snapshot. */
export interface SnapshotPage {
  cursorIn: string | null;
  cursorOut: string | null;
  digest: string;
}

/** How the scan that produced the snapshot ended. */
export type DiscoveryState = 'SNAPSHOT_PROVEN' | 'UNVERSIONED_OBSERVATION';

/** `toolCatalogSnapshot.v1`. Times are ms on the host clock. */
export interface ToolCatalogSnapshot {
  schema: 'toolCatalogSnapshot.v1';
  serverIdentity: string;
  endpointDigest: string;
  protocolVersion: string;
  tenant: string;
  role: string;
  scanId: string;
  discoveryState: DiscoveryState;
  discoveryStartedAt: number;
  policyEpoch: number;
  trustConfigDigest: string;
  sourceRevision: number | null;
  pageRoot: string;
  pages: SnapshotPage[];
  /**
   * The `cacheScope` every page of the walk carried (a modern-era source, MCP 2026-07-28), kept as
   * provenance; absent for a legacy source. The reference core never widens who may see a
   * snapshot because of it: the catalog key alone decides.
   */
  cacheScope?: 'public' | 'private';
  expiresAt: number;
  tools: SnapshotTool[];
}

/** Everything a snapshot binds besides the pages. */
export interface SnapshotInput {
  key: CatalogKey;
  endpointDigest: string;
  protocolVersion: string;
  scanId: string;
  discoveryState: DiscoveryState;
  discoveryStartedAt: number;
  policyEpoch: number;
  sourceRevision: number | null;
  /** How long the snapshot may serve after discovery started, in ms. */
  generationTtlMs: number;
  trust: TrustConfig;
  pages: readonly PageRecord[];
  /** The walk's one `cacheScope` (modern era); absent for a legacy source. */
  cacheScope?: 'public' | 'private';
}

/**
 * What building a snapshot memoises (a host's `CoreMemos`, src/memos.ts): the digests, the
 * (input, output) schema digests by descriptor text, and the content checks' verdicts and compiles.
 */
export interface SnapshotMemos extends DigestMemos {
  /**
   * The (input, output) schema digests by the descriptor's JSON text: equal text means equal
   * schemas, and servers resend the same descriptors every scan, so neither schema is stringified
   * or hashed again.
   */
  readonly schemaDigests: BoundedMemo<readonly [string | null, string | null]>;
  readonly validation: ValidationMemos;
}

/**
 * Freezes a complete scan into a snapshot, running the per-tool content checks of SPEC section 5,
 * with the caller's `memos`. `contentChecks` is an internal seam (src/internal/seams.ts): the
 * reference `checkTools` unless a checker-validation mutant's host passes its own.
 */
export function buildSnapshot(
  input: SnapshotInput,
  memos: SnapshotMemos,
  contentChecks: ContentChecks = checkTools,
): ToolCatalogSnapshot {
  const sources = input.pages.flatMap((page) => page.tools);
  // The descriptors' texts as received, where the page source kept them: no stringify again.
  const texts: (string | undefined)[] = input.pages.flatMap(
    (page): readonly (string | undefined)[] => page.toolTexts ?? page.tools.map(() => undefined),
  );
  const digests = sources.map((source, index) => {
    const text = texts[index];
    return text === undefined ? descriptorDigest(source, memos) : descriptorDigestOfText(source, text, memos);
  });
  const verdicts = contentChecks(sources, digests, input.trust, memos.validation);
  // The descriptors are frozen with the snapshot below: their kept texts serve its digest.
  sources.forEach((source, index) => {
    const text = texts[index];
    if (typeof source === 'object' && source !== null && text !== undefined && text !== 'null')
      rememberFrozenText(source, text);
  });
  return deepFreeze({
    schema: 'toolCatalogSnapshot.v1',
    serverIdentity: input.key.identity,
    endpointDigest: input.endpointDigest,
    protocolVersion: input.protocolVersion,
    tenant: input.key.tenant,
    role: input.key.role,
    scanId: input.scanId,
    discoveryState: input.discoveryState,
    discoveryStartedAt: input.discoveryStartedAt,
    policyEpoch: input.policyEpoch,
    trustConfigDigest: trustDigest(input.trust),
    sourceRevision: input.sourceRevision,
    pageRoot: pageRoot(
      input.pages.map((page) => page.pageDigest),
      memos,
    ),
    pages: input.pages.map((page) => ({ cursorIn: page.cursorIn, cursorOut: page.cursorOut, digest: page.pageDigest })),
    ...(input.cacheScope === undefined ? {} : { cacheScope: input.cacheScope }),
    expiresAt: input.discoveryStartedAt + input.generationTtlMs,
    tools: sources.map((source, index) =>
      snapshotTool(source, digests[index] as string, verdicts[index] as ToolVerdict, input.trust, texts[index], memos),
    ),
  });
}

function snapshotTool(
  source: unknown,
  digest: string,
  verdict: ToolVerdict,
  trust: TrustConfig,
  text: string | undefined,
  memos: SnapshotMemos,
): SnapshotTool {
  const record = (typeof source === 'object' && source !== null ? source : {}) as Record<string, unknown>;
  const name = toolName(source);
  const [inputSchemaDigest, outputSchemaDigest] =
    text === undefined
      ? schemaDigestsOf(record, memos)
      : memos.schemaDigests.get(text, () => schemaDigestsOf(record, memos));
  return {
    name,
    descriptorDigest: digest,
    inputSchemaDigest,
    outputSchemaDigest,
    effectClass: effectClassOf(trust, name),
    annotations: isRecord(record.annotations) ? record.annotations : null,
    shortDescription: shortDescription(record.description),
    source,
    verdict,
  };
}

function schemaDigestsOf(record: Record<string, unknown>, memos: DigestMemos): readonly [string | null, string | null] {
  return [schemaDigest(record.inputSchema, memos), schemaDigest(record.outputSchema, memos)];
}

/** The end of a sentence: `.`, `!` or `?` (kept in the sentence) before whitespace. */
const SENTENCE_END = /[.!?]\s/;

/** The first sentence of a description, at most 120 characters. */
export function shortDescription(description: unknown): string {
  if (typeof description !== 'string') return '';
  const text = description.trim();
  const end = text.search(SENTENCE_END);
  const sentence = end < 0 ? text : text.slice(0, end + 1);
  return sentence.length <= 120 ? sentence : `${sentence.slice(0, 119)}…`;
}

/** The digest of a snapshot artifact (SPEC section 4); `memos` (a host's) only save work. */
export function digestOfSnapshot(snapshot: ToolCatalogSnapshot, memos?: DigestMemos): string {
  return snapshotDigest(snapshot, memos);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
