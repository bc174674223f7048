/**
 * Synthetic catalogs of any size for benchmarks, built from the simulator's descriptor pool
 * (realistic draft-07 schemas with enums, arrays, formats and a local `$ref`), and a paging
 * script for the scripted SDK server of `test/support/scripted-server.ts`.
 *
 * Tool `i` is pool entry `i mod 24` renamed `<name>_<i>`, with its own `inputSchema.title`, so that
 * every descriptor and every schema of a catalog is distinct, as in a real catalog (no two tools
 * share a content-check verdict or a compiled schema). A `tag` goes into every description and
 * every schema title: a new tag makes every descriptor and every schema new (a cold scan: no
 * memoised digest, verdict or compile applies).
 */
import { TOOL_POOL, type PoolTool } from '../../sim/plan/tool-pool.ts';
import type { Script } from '../../test/support/scripted-server.ts';

/** One tool of a bench catalog: the descriptor as served, and arguments its schema accepts. */
export interface BenchTool {
  descriptor: Record<string, unknown>;
  sampleArgs: Record<string, unknown>;
}

/** A mutable catalog a scripted server serves: what it lists now, at which revision. */
export interface ServedCatalog {
  tools: BenchTool[];
  revision: number;
}

/** `count` distinct tools; `tag` (default `v0`) goes into every description. */
export function benchTools(count: number, tag = 'v0'): BenchTool[] {
  return Array.from({ length: count }, (_, index) => benchTool(index, tag));
}

/** Tool `index` of a bench catalog (see the file header). */
export function benchTool(index: number, tag = 'v0'): BenchTool {
  const pooled = TOOL_POOL[index % TOOL_POOL.length] as PoolTool;
  const base = structuredClone(pooled.descriptor);
  const name = `${String(base.name)}_${index}`;
  const inputSchema = { ...(base.inputSchema as Record<string, unknown>), title: `${name} arguments (${tag})` };
  return {
    descriptor: { ...base, name, description: `${String(base.description)} (${tag})`, inputSchema },
    sampleArgs: structuredClone(pooled.sampleArgs),
  };
}

/**
 * A paging script: cursors are decimal offsets, `pageSize` tools per page, the catalog's revision
 * on every page. Each page is a fresh deep copy, as a real transport delivers fresh objects (the
 * SDK's InMemoryTransport passes the server's objects by reference, and the core freezes what it
 * snapshots).
 */
export function pagedScript(catalog: ServedCatalog, pageSize: number): Script {
  return (cursor) => {
    const start = cursor === undefined ? 0 : Number(cursor);
    const end = start + pageSize;
    const tools = structuredClone(catalog.tools.slice(start, end).map((tool) => tool.descriptor));
    return end < catalog.tools.length
      ? { tools, nextCursor: String(end), revision: catalog.revision }
      : { tools, revision: catalog.revision };
  };
}
