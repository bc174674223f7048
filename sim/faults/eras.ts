/**
 * Protocol eras (trait `ERA:modern`, a scenario-level part of the world switched on by the
 * scenario's `eraMix`): which servers of a round speak MCP 2025-11-25 (the legacy era: an
 * `initialize` session, `list_changed` pushed unsolicited) and which speak 2026-07-28 (the modern
 * era: no `initialize`, every request carries its own `_meta` envelope, every `tools/list` page
 * carries `ttlMs` and `cacheScope`, and `list_changed` arrives only on a `subscriptions/listen`
 * stream, acknowledged first and stamped with its subscription id). A modern server is built on
 * the SDK v2 server package (`@modelcontextprotocol/server` 2.4.0, its `serveStdio` entry over the
 * world's link), modern-only: it answers a legacy `initialize` with -32022 (unsupported protocol
 * version), as the 2026-07-28 compatibility matrix says a modern-only server does.
 *
 * A third era, `gateway` (trait `ERA:gateway`), is a stateless modern server behind a gateway that
 * speaks 2025-11-25 to the host (seed 002's "stateless gateways in front of stateful servers"):
 * the host opens a legacy `initialize` session with the gateway, which forwards every request to
 * the modern server and passes its results through (`ttlMs` and `cacheScope` included, fields a
 * 2025-11-25 client may ignore). An honest gateway keeps one `subscriptions/listen` stream open to
 * the server and relays each change to its sessions as a legacy `notifications/tools/list_changed`;
 * F29 (sim/faults/f29-gateway-drops-notifications.ts) is the stateless one that relays nothing.
 *
 * Models issue 29 ("MCP 2026-07-28 under the campaign") and the fact sheet's section 0 (the
 * revision landscape) and section 4 (caching): TTL is "a freshness hint, not a guarantee", and
 * servers MUST use the same `cacheScope` on all pages of one list.
 *
 * This is not a fault: an honest modern server serves the same catalog as a legacy one, with an
 * honest `cacheScope` (`public` only when every revision shows every audience the same tools)
 * and a TTL drawn once per server. The faults of the new era (scope differing between pages, a
 * `public` list that varies by credential, ...) are separate files.
 *
 * A modern server is reached over stdio (the link) or, with `modernHttpFraction` above 0, over
 * Streamable HTTP with that probability (`transport: 'http'`, trait `TRANSPORT:http`: the package's
 * web handler behind the world's virtual `fetch`, sim/transport/http-link.ts).
 *
 * How often: each round draws its mix uniformly from the scenario's `eraMix` (`legacy`: every
 * server legacy; `modern`: every server modern; `mixed`: each server modern with probability
 * `modernFraction`, and with two servers or more at least one of each era; `gateway`: every
 * server a modern one behind a legacy-era gateway). A scenario without
 * `eraMix` draws nothing, so its rounds are all legacy and their plans and traces are unchanged.
 */
import type { RoundPlan, ServerPlan, ToolDescriptor } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { fraction, msRange } from './rates.ts';
import { ms } from '../plan/schema-parts.ts';
import type { Rng } from '../random.ts';

/**
 * The protocol eras a simulated server may speak to the host: `legacy` (2025-11-25), `modern`
 * (2026-07-28), `gateway` (a 2026-07-28 server behind a gateway that speaks 2025-11-25).
 */
export type ProtocolEra = 'legacy' | 'modern' | 'gateway';

/** The era mixes a scenario's `eraMix` may list: what one round's servers speak. */
export const ERA_MIXES = ['legacy', 'modern', 'mixed', 'gateway'] as const;
/** One era mix (see {@link ERA_MIXES}). */
export type EraMix = (typeof ERA_MIXES)[number];

/** The two values of `cacheScope` (2026-07-28 `CacheableResult`). */
export type CacheScope = 'public' | 'private';

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** The protocol era the server speaks; absent: legacy (2025-11-25). */
    era?: ProtocolEra;
    /** A modern (or gatewayed) server's `ttlMs` on every `tools/list` page, ms; absent on a legacy server. */
    cacheTtlMs?: number;
    /** A modern (or gatewayed) server's `cacheScope` on every `tools/list` page; absent on a legacy server. */
    cacheScope?: CacheScope;
    /**
     * How a modern server is reached: `stdio` (the v2 package's stdio entry over the in-process
     * link) or `http` (its Streamable HTTP handler, sim/transport/http-link.ts); absent: stdio.
     */
    transport?: ServerTransport;
  }
}

/** How the host reaches a modern server: its stdio entry or its Streamable HTTP handler. */
export type ServerTransport = 'stdio' | 'http';

/** How the eras are drawn (scenario `faultRates.ERA`), with their defaults. */
export const RATES = {
  modernFraction: fraction(0.5, 'In a mixed round, the chance that a server speaks the modern era (2026-07-28).'),
  ttlMs: msRange(0, 2000, "A modern server's `ttlMs` on every `tools/list` page, drawn once per server."),
  modernHttpFraction: fraction(
    0,
    'The chance that a modern server is reached over Streamable HTTP rather than stdio (0: never, and nothing is drawn).',
  ),
};

/** Protocol eras. */
export const ERAS: FaultDefinition<'ERA', typeof RATES> = {
  id: 'ERA',
  rates: RATES,
  plan: {
    server: {
      era: { schema: { enum: ['legacy', 'modern', 'gateway'], title: 'one of legacy, modern, gateway' } },
      cacheTtlMs: { schema: ms },
      cacheScope: { schema: { enum: ['public', 'private'], title: 'one of public, private' } },
      transport: { schema: { enum: ['stdio', 'http'], title: 'one of stdio, http' } },
    },
  },
  title:
    'protocol eras: servers speaking MCP 2026-07-28 (stateless, cached lists, subscriptions/listen) beside 2025-11-25 ones (scenario "eraMix")',
  lifetime: 'trait',
  probes: [],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.era === 'modern' || server.era === 'gateway'),
  switchedOnBy: (scenario) => scenario.eraMix !== undefined && scenario.eraMix.length > 0,
  generateRound({ scenario, plan }, rng, rates) {
    const mixes = scenario.eraMix ?? [];
    const mix = mixes[rng.int(0, mixes.length - 1)] as EraMix;
    const eras = erasOf(mix, plan.servers.length, rng, rates.modernFraction);
    plan.servers.forEach((server, index) => {
      const era = eras[index] ?? 'legacy';
      if (era === 'legacy') return;
      server.era = era;
      server.cacheTtlMs = rng.int(rates.ttlMs.min, rates.ttlMs.max);
      server.cacheScope = sameForEveryAudience(server) ? 'public' : 'private';
    });
    // Drawn after every other draw of the round, and only when the scenario asks: a scenario
    // without `modernHttpFraction` keeps its plans byte-identical.
    if (rates.modernHttpFraction <= 0) return;
    for (const server of plan.servers) {
      if (server.era === 'modern' && rng.chance(rates.modernHttpFraction)) server.transport = 'http';
    }
  },
  fragment: (plan) =>
    perServer(plan, (server) => [server.era ?? 'legacy', server.cacheTtlMs ?? null, server.transport ?? 'stdio']),
  traits: (server) => [
    ...(server.era === 'modern' || server.era === 'gateway' ? [`ERA:${server.era}`] : []),
    ...(server.transport === 'http' ? ['TRANSPORT:http'] : []),
  ],
};

/** The era of each of `count` servers under `mix`. */
function erasOf(mix: EraMix, count: number, rng: Rng, modernFraction: number): ProtocolEra[] {
  if (mix !== 'mixed') return Array.from({ length: count }, (): ProtocolEra => mix);
  const eras = Array.from({ length: count }, (): ProtocolEra => (rng.chance(modernFraction) ? 'modern' : 'legacy'));
  // A mixed round with two servers or more holds both eras: the last server takes the missing one.
  if (count >= 2 && eras.every((era) => era === eras[0])) eras[count - 1] = eras[0] === 'modern' ? 'legacy' : 'modern';
  return eras;
}

/**
 * Whether every revision of the server shows every audience the same tools: only then may an
 * honest server call its list `public` (2026-07-28: a list that varies by authorization is `private`).
 */
function sameForEveryAudience(server: ServerPlan): boolean {
  return server.history.every((step) => {
    const views = Object.values(step.views).map((view) => JSON.stringify(view));
    return views.every((view) => view === views[0]);
  });
}

/**
 * The descriptor fields MCP 2026-07-28 deleted: the v2 server package's codec strips them from
 * every outbound `tools/list` result (`enforceDeletedFields`: a tool's `execution`), so no modern
 * server, nor the gateway in front of one, puts them on the wire. Captured 2025-11-25 catalogs
 * carry them (everything.json: `execution.taskSupport`).
 */
export const DELETED_TOOL_FIELDS = ['execution'] as const;

/**
 * The server as its era's wire carries its tools: for one that speaks 2026-07-28 (modern, or
 * behind a gateway), a copy whose history views and planted defects hold every descriptor without
 * the {@link DELETED_TOOL_FIELDS}; the server itself otherwise (a legacy one, or one with no such
 * field: the same object, so such plans run byte-identical). sim/round.ts runs every plan through
 * it, so the world records (`revision`, `page_served`, `call_executed`, `defect_planted`) the
 * descriptors the codec lets through; without it the core read pages the world never served
 * (I13, I2 PAGE_NOT_SERVED). A rewritten descriptor is shared wherever the original was
 * (descriptor digests are cached by identity). Does not change `server`.
 */
export function onTheWire(server: ServerPlan): ServerPlan {
  if (server.era !== 'modern' && server.era !== 'gateway') return server;
  const rewritten = new Map<ToolDescriptor, ToolDescriptor>();
  const project = (tool: ToolDescriptor): ToolDescriptor => {
    if (!DELETED_TOOL_FIELDS.some((field) => field in tool)) return tool;
    let copy = rewritten.get(tool);
    if (copy === undefined) {
      copy = { ...tool };
      for (const field of DELETED_TOOL_FIELDS) delete copy[field];
      rewritten.set(tool, copy);
    }
    return copy;
  };
  const history = server.history.map((step) => ({
    ...step,
    views: Object.fromEntries(Object.entries(step.views).map(([audience, view]) => [audience, view.map(project)])),
  }));
  if (rewritten.size === 0) return server;
  return {
    ...server,
    history,
    planted: server.planted.map((planted) => ({ ...planted, descriptor: project(planted.descriptor) })),
  };
}
