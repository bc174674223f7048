/**
 * F28: an invalid cursor after a stateless node swap. A modern-era server (MCP 2026-07-28) runs
 * as stateless nodes behind one address; at a planned time the node serving it is swapped for
 * one that does not know the cursors the last one issued. The swap happens mid-walk: armed at
 * its planned time, it takes effect right after the next page served with a next cursor, so the
 * request that brings that cursor back is refused with -32602 "Invalid cursor" (a cursor the new
 * node issues itself is good again, whatever its text). Unlike a restart (F11) the server does
 * not go down and the revision does not move: nothing but the cursor is lost. A core must
 * discard every page of the walk and re-fetch from page 1 (judged by I31).
 *
 * Models issue 29's "an invalid cursor after a stateless node swap" and the caching page of
 * 2026-07-28: "If a cursor becomes invalid ... the client SHOULD discard all cached pages and
 * re-fetch from the beginning"; pagination: "Invalid cursors SHOULD result in an error with code
 * -32602 (Invalid params)".
 *
 * How often: on 1 server in 2 of a round that enables F28, 1 to 3 swaps armed at seeded times in
 * [1, T_heal); a swap still armed at T_heal never happens. It acts only on a modern server: the
 * plan may hold swaps on a legacy server, which then serves as usual.
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { RuleEnv, ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { counts, fraction } from './rates.ts';
import { arrayOf, ms } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F28: times (ms) at which a node swap is armed on a modern server; absent: none. */
    nodeSwapsAtMs?: number[];
  }
}

/** How often F28 acts (scenario `faultRates.F28`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.5, 'Share of the servers of a round that enables F28 whose nodes are swapped.'),
  swapsPerServer: counts(1, 3, 'Node swaps per such server, armed at seeded times in [1, T_heal).', 1),
};

/**
 * A page rule that notes which node issued each cursor and performs an armed swap right after a
 * page with a next cursor, and a cursor rule that refuses a cursor an earlier node issued.
 */
function rules(server: ServerPlan, env: RuleEnv): ServerRule[] {
  const swaps = server.nodeSwapsAtMs ?? [];
  if (swaps.length === 0 || server.era !== 'modern') return [];
  const issuedBy = new Map<string, number>();
  let node = 0;
  const armed = (): boolean => env.now() < env.tHealMs && swaps.filter((atMs) => atMs <= env.now()).length > node;
  return [
    {
      onCursor: (cursor, position) =>
        cursor !== undefined && (issuedBy.get(cursor) ?? node) < node ? undefined : position,
    },
    {
      onPage: (request, serve) => {
        const page = serve(request);
        if (page.nextCursor === undefined) return page;
        issuedBy.set(page.nextCursor, node);
        if (armed()) node += 1;
        return page;
      },
    },
  ];
}

/** F28: an invalid cursor after a stateless node swap. */
export const F28: FaultDefinition<'F28', typeof RATES> = {
  id: 'F28',
  rates: RATES,
  plan: { server: { nodeSwapsAtMs: { schema: arrayOf(ms, 'an array of times (ms)') } } },
  title: 'a modern server swaps the stateless node behind it mid-walk: the next one refuses the cursor (-32602)',
  lifetime: 'episode',
  probes: ['cursor-invalidated'],
  presentIn: (plan: RoundPlan) =>
    plan.servers.some((server) => server.era === 'modern' && (server.nodeSwapsAtMs ?? []).length > 0),
  generate: {
    episodes(draft, rng, rates) {
      draft.server.nodeSwapsAtMs = distinctTimes(rng, drawIn(rng, rates.swapsPerServer), draft.scenario.tHealMs);
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.nodeSwapsAtMs ?? []),
  serverRules: rules,
  size: (plan) => plan.servers.reduce((sum, server) => sum + (server.nodeSwapsAtMs ?? []).length, 0),
  serverReductions: (server) =>
    (server.nodeSwapsAtMs ?? []).map((atMs) => ({
      name: `no node swap at ${atMs} ms`,
      server: { ...server, nodeSwapsAtMs: (server.nodeSwapsAtMs ?? []).filter((t) => t !== atMs) },
    })),
};
