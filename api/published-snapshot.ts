/**
 * Builds the `published` observation (docs/TRACE.md) for a catalog a host now uses, from the
 * pages it read, and what `disclose` must then show: the oracle compares every disclosure with the
 * publish of its generation (I4), and every published page with the pages the world served to its
 * scan (I2), so both must be derived from the same pages, as here.
 */
import { domainDigest } from '../src/snapshot/canonical.ts';
import { descriptorDigest, pageDigest, pageRoot } from '../src/snapshot/digests.ts';
import type { CoreObservation, DisclosedTool } from '../contract/core-api.ts';
import type { WirePage } from './wire-watch.ts';

/** The `published` observation type. */
export type PublishedObservation = Extract<CoreObservation, { type: 'published' }>;

/** What `disclose` shows for a published generation (the `ok: true` fields of a DisclosureResult). */
export interface PublishedCatalog {
  key: string;
  generation: number;
  snapshotDigest: string;
  tools: DisclosedTool[];
}

/** Inputs of {@link publishedSnapshot}. */
export interface PublishedSnapshotInput {
  /** The catalog key `<identity>|<tenant>.<role>` (see `catalogKey`). */
  key: string;
  /** The scan id the pages were requested under (`WireWalk.scanId`). */
  scanId: string;
  /** 1 for the key's first publish, then + 1 each time (I10 wants a gap-free sequence). */
  generation: number;
  /** The pages in the order read, exactly as sent. */
  pages: readonly WirePage[];
  /** Virtual ms after which the host stops using the catalog; default never (`Number.MAX_SAFE_INTEGER`). */
  expiresAt?: number;
  /**
   * `"ok"` for a tool the host uses, or the content check that set it aside (a code of
   * docs/TRACE.md, "Codes"); default `"ok"` for all.
   */
  verdictOf?: (tool: unknown) => PublishedObservation['tools'][number]['verdict'];
  /**
   * For a rollback (the optional `rollback` of the core API): the earlier generation whose
   * catalog this publish brings back; pass that generation's `scanId` and `pages` with the next
   * `generation` number. Default null (an ordinary publish).
   */
  rolledBackFrom?: number;
}

/**
 * The observation of an unversioned catalog (status `UNVERSIONED_OBSERVATION`, `sourceRevision`
 * null: a host that binds no revision proves nothing, SPEC section 2), and the catalog to disclose.
 * Page digests cover the revision each page carried, as the world's do. The snapshot digest is
 * sha256 over `catsim.host-snapshot.v1` and the key, generation, page root and tools.
 */
export function publishedSnapshot(input: PublishedSnapshotInput): {
  observation: PublishedObservation;
  catalog: PublishedCatalog;
} {
  const pages = input.pages.map((page) => ({
    cursorIn: page.cursorIn,
    cursorOut: page.cursorOut,
    pageDigest: pageDigest(page),
  }));
  const root = pageRoot(pages.map((page) => page.pageDigest));
  const verdictOf = input.verdictOf ?? (() => 'ok' as const);
  const tools = input.pages
    .flatMap((page) => page.tools)
    .map((tool) => ({ name: nameOf(tool), descriptorDigest: descriptorDigest(tool), verdict: verdictOf(tool) }));
  const snapshotDigest = domainDigest('catsim.host-snapshot.v1', {
    key: input.key,
    generation: input.generation,
    pageRoot: root,
    tools,
  });
  const observation: PublishedObservation = {
    type: 'published',
    key: input.key,
    scanId: input.scanId,
    generation: input.generation,
    status: 'UNVERSIONED_OBSERVATION',
    sourceRevision: null,
    snapshotDigest,
    pageRoot: root,
    pages,
    tools,
    expiresAt: input.expiresAt ?? Number.MAX_SAFE_INTEGER,
    rolledBackFrom: input.rolledBackFrom ?? null,
  };
  const catalog = {
    key: input.key,
    generation: input.generation,
    snapshotDigest,
    tools: tools.map(({ name, descriptorDigest: digest }) => ({ name, descriptorDigest: digest })),
  };
  return { observation, catalog };
}

function nameOf(tool: unknown): string {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}
