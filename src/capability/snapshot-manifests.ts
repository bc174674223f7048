/**
 * The manifests of a published snapshot's tools (SPEC sections 4 and 9): each tool's verbatim
 * descriptor, as the scan froze it, plus the operator's entry for it in the server's manifest
 * file. This is how a host turns what discovery proved into versions it can register.
 */
import type { ToolCatalogSnapshot } from '../snapshot/snapshot.ts';
import type { ToolVerdict } from '../validation/verdicts.ts';
import { buildManifest, type ToolManifest } from './manifest.ts';
import { operatorEntryOf, type ManifestFile } from './manifest-file.ts';

/** What {@link manifestsOfSnapshot} found. */
export interface SnapshotManifests {
  /** One manifest per tool that passed its content checks, in snapshot order. */
  manifests: ToolManifest[];
  /** The tools that failed a content check (SPEC section 5): they get no manifest. */
  withoutManifest: { name: string; verdict: ToolVerdict }[];
  /** Tool names the manifest file describes that the snapshot does not list (a typo, or a tool gone), sorted. */
  unmatchedEntries: string[];
}

/**
 * The manifests of `snapshot`'s tools served by the operator's server `server`, with the entries of
 * `file` (absent: every tool gets the safest defaults).
 * @throws TypeError when `file` describes another server than `server`.
 */
export function manifestsOfSnapshot(
  snapshot: ToolCatalogSnapshot,
  server: string,
  file?: ManifestFile,
): SnapshotManifests {
  if (file !== undefined && file.server !== server)
    throw new TypeError(`the manifest file describes server ${file.server}, not ${server}`);
  const listed = new Set(snapshot.tools.map((tool) => tool.name));
  return {
    manifests: snapshot.tools
      .filter((tool) => tool.verdict === 'ok')
      .map((tool) =>
        buildManifest(tool.source, server, file === undefined ? undefined : operatorEntryOf(file, tool.name)),
      ),
    withoutManifest: snapshot.tools
      .filter((tool) => tool.verdict !== 'ok')
      .map((tool) => ({ name: tool.name, verdict: tool.verdict })),
    unmatchedEntries: Object.keys(file?.tools ?? {})
      .filter((name) => !listed.has(name))
      .sort(),
  };
}
