/**
 * Limits over a whole catalog (SPEC section 5: "Limits over the whole catalog quarantine the
 * snapshot"). Every scan applies them once its walk has read the last page (src/discovery/scan.ts,
 * `Walk.checkCatalogLimits`): a passed limit ends the scan QUARANTINED with the problem as its
 * reason, so nothing of that catalog is published. Per-tool limits are in `content-checks.ts`.
 */
import { measureJson } from './internal/json-measure.ts';
import type { TrustConfig } from './trust.ts';

/** The two whole-catalog limits of a trust configuration. */
export type CatalogLimits = Pick<TrustConfig, 'toolCountMax' | 'catalogBytesMax'>;

/** Which catalog limit a snapshot passes. */
export type CatalogLimitProblem = 'TOO_MANY_TOOLS' | 'CATALOG_TOO_LARGE';

/**
 * The first catalog limit `tools` passes, or null: more than `toolCountMax` tools, then more
 * than `catalogBytesMax` bytes, counted as the sum of each descriptor's compact UTF-8 JSON (the
 * same measure as `descriptorBytesMax`; the list's own brackets and commas are not counted).
 * Stops reading as soon as the byte budget is spent. A tool with no JSON form (possible only for
 * in-process callers; it is quarantined per tool as MALFORMED_DESCRIPTOR) counts 0 bytes when
 * its non-JSON value is met within the budget, and CATALOG_TOO_LARGE otherwise.
 */
export function catalogLimitProblem(tools: readonly unknown[], trust: CatalogLimits): CatalogLimitProblem | null {
  if (tools.length > trust.toolCountMax) return 'TOO_MANY_TOOLS';
  let bytesLeft = trust.catalogBytesMax;
  for (const tool of tools) {
    const size = measureJson(tool, bytesLeft);
    if (size.kind === 'over') return 'CATALOG_TOO_LARGE';
    if (size.kind === 'json') bytesLeft -= size.bytes;
  }
  return null;
}
