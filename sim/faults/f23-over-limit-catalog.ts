/**
 * F23 (trait): an over-limit catalog. One audience's view holds more tools than the round's
 * `toolCountMax`, or more bytes of descriptors than its `catalogBytesMax`, while every single
 * descriptor is valid and within the per-descriptor limits, and the walk stays within the page
 * and byte limits of a scan (unless its pages are very small): only the whole-catalog check of
 * SPEC section 5 stands between it and the catalog. A core must quarantine such a catalog and
 * never publish, show or admit from it (I27).
 *
 * Models SPEC section 5 ("Limits over the whole catalog quarantine the snapshot"; the default
 * trust caps a catalog at 10,000 tools and 8 MiB) and the report this entry came from: issue 14,
 * item 3, "a server with 12,000 tools on one page gives an ELIGIBLE-looking snapshot, exit 0".
 * The fault plants relative to the round's limits, so it is meant for scenarios with small ones
 * (the default scenario: 24 tools, 256 KiB); in a scenario with the 10,000-tool default it would
 * plant 10,001 tools.
 *
 * How often: on 1 server in 2 of a round that enables F23, in one audience's first view (placed
 * descriptors are protected from edits, so the view stays over the limit for the whole round):
 * with `bytesFraction` (one in two) enough descriptors of about 48 KiB each to pass
 * `catalogBytesMax`, otherwise `toolCountMax + 1` small copies of pool tools. The server is
 * labelled `F23:tools` or `F23:bytes` in `server_up.traits`, a disqualifying trait: a correct core
 * quarantines the whole key, so the server is owed no liveness (I12).
 */
import type { Rng } from '../random.ts';
import { DEFAULT_CATALOG_BYTES_MAX, DEFAULT_TOOL_COUNT_MAX } from '../plan/scenario-types.ts';
import type { PoolTool } from '../plan/tool-pool.ts';
import type { Bounds, RoundPlan, ServerPlan, ToolDescriptor } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { plantedCopy } from './internal/planted.ts';
import { fraction } from './rates.ts';

/** How an F23 catalog passes the whole-catalog limits: too many tools, or too many descriptor bytes. */
export type OverLimitCatalog = 'tools' | 'bytes';

declare module '../plan/types.ts' {
  interface ServerPlan {
    /**
     * F23: one audience's view is over the round's whole-catalog limits, by tool count (`tools`) or
     * by descriptor bytes (`bytes`); null on an honest server.
     */
    overLimitCatalog: OverLimitCatalog | null;
  }
}

/** How often F23 acts (scenario `faultRates.F23`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.5, 'Share of the servers of a round that enables F23 that serve an over-limit catalog.'),
  bytesFraction: fraction(
    0.5,
    'Chance that the catalog is over the byte limit (catalogBytesMax) rather than the tool count (toolCountMax).',
  ),
};

/**
 * Size of the padding of one byte-variant descriptor: 48 KiB, under the default 64 KiB limit of
 * one descriptor (SPEC section 5), so each tool passes its own checks and only the sum does not.
 */
const PADDING_CHARS = 48 * 1024;

/** The tag of F23's `index`-th planted tool on `serverId`: `<server>l<index>` (see `baseName`). */
const tagOf = (serverId: string, index: number): string => `${serverId}l${index}`;

/** The tools F23 plants on server `serverId` for `kind`, given the round's limits. */
export function plantF23(
  rng: Rng,
  pool: readonly PoolTool[],
  serverId: string,
  kind: OverLimitCatalog,
  limits: Pick<Bounds, 'toolCountMax' | 'catalogBytesMax'>,
): ToolDescriptor[] {
  if (kind === 'tools')
    return Array.from({ length: limits.toolCountMax + 1 }, (_, i) => plantedCopy(rng, pool, tagOf(serverId, i)));
  const tools: ToolDescriptor[] = [];
  let bytes = 0;
  while (bytes <= limits.catalogBytesMax) {
    const tool = plantedCopy(rng, pool, tagOf(serverId, tools.length));
    tool.description = `${String(tool.description)} ${'x'.repeat(PADDING_CHARS)}`;
    tools.push(tool);
    bytes += Buffer.byteLength(JSON.stringify(tool), 'utf8');
  }
  return tools;
}

/** Whether some view of the server's history is over the round's tool count or byte limit. */
export function overLimitIn(server: ServerPlan, limits: Pick<Bounds, 'toolCountMax' | 'catalogBytesMax'>): boolean {
  return server.history.some((step) =>
    Object.values(step.views).some((view) => {
      if (view.length > limits.toolCountMax) return true;
      let bytes = 0;
      for (const tool of view) bytes += Buffer.byteLength(JSON.stringify(tool), 'utf8');
      return bytes > limits.catalogBytesMax;
    }),
  );
}

/** Whether a tool name carries F23's plant suffix (`_s0l12`). */
const isF23Tool = (tool: ToolDescriptor): boolean => /_s\d+l\d+$/.test(String(tool.name));

/** The server without F23's planted tools and label (the shrink step that calms it). */
function withoutF23(server: ServerPlan): ServerPlan {
  const history = server.history.map((step) => ({
    ...step,
    views: Object.fromEntries(
      Object.entries(step.views).map(([audience, view]) => [audience, view.filter((tool) => !isF23Tool(tool))]),
    ),
  }));
  return { ...server, history, overLimitCatalog: null };
}

/** F23: an over-limit catalog. */
export const F23: FaultDefinition<'F23', typeof RATES> = {
  id: 'F23',
  rates: RATES,
  plan: {
    server: {
      overLimitCatalog: {
        schema: { title: 'null, "tools" or "bytes"', enum: [null, 'tools', 'bytes'] },
        healthy: null,
      },
    },
  },
  title:
    'a catalog over the whole-catalog limits (more tools than toolCountMax, more descriptor bytes than catalogBytesMax)',
  lifetime: 'trait',
  probes: ['catalog-limit-quarantined'],
  presentIn: (plan: RoundPlan) =>
    plan.servers.some((server) => server.overLimitCatalog !== null && overLimitIn(server, plan.bounds)),
  generate: {
    plant(draft, rng, rates) {
      const kind: OverLimitCatalog = rng.chance(rates.bytesFraction) ? 'bytes' : 'tools';
      const limits = {
        toolCountMax: draft.scenario.toolCountMax ?? DEFAULT_TOOL_COUNT_MAX,
        catalogBytesMax: draft.scenario.catalogBytesMax ?? DEFAULT_CATALOG_BYTES_MAX,
      };
      draft.server.overLimitCatalog = kind;
      draft.place(rng, plantF23(rng, draft.pool, draft.server.id, kind, limits));
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.overLimitCatalog),
  traits: (server) => (server.overLimitCatalog === null ? [] : [`F23:${server.overLimitCatalog}`]),
  disqualifies: (server) => server.overLimitCatalog !== null,
  serverReductions: (server) =>
    server.overLimitCatalog === null ? [] : [{ name: 'catalog within the limits', server: withoutF23(server) }],
};
