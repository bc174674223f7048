/**
 * F30: a modern-era server's `ttlMs` says nothing true about when its list changes. Three kinds,
 * one per server: `zero` (every page says `ttlMs: 0`, stale at once), `short` (a TTL shorter than
 * one walk, so page 1 has expired before the last page is read) and `long` (a TTL longer than the
 * whole round); and in each case the server changes its list while the pages say they are fresh
 * (1 or 2 extra edits of one audience's view, at seeded times in [1, T_heal), notified as any
 * change is). A core that treats the TTL as proof of freshness skips the rescan a change, or the
 * poll, calls for (judged by I19 when the change was notified, by I33 when nothing pushed it, and
 * by I12 when the catalog is still old at the end); a core that polls on a TTL of 0 polls without
 * pause (2026-07-28: "Clients SHOULD NOT poll on the TTL").
 *
 * Models issue 29's fault "`ttlMs` expiring mid-walk and `ttlMs: 0`", and the caching page of
 * 2026-07-28 (fact sheet section 4): a TTL is "a freshness hint, not a guarantee", 0 means stale
 * at once, and "Servers MAY change the underlying data before the TTL expires".
 *
 * How often: on 1 server in 2 of a round that enables F30, a kind drawn uniformly from `kinds`, a
 * short TTL of 1 to 30 ms, a long one of 30 s to 1 h, and 1 or 2 edits. The TTL acts only on a
 * server whose pages carry cache fields (modern, or behind a gateway); the edits act on any server.
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { choices, counts, fraction, msRange } from './rates.ts';
import { ms, object } from '../plan/schema-parts.ts';

/** The kinds of F30's TTL. */
export const TTL_KINDS = ['zero', 'short', 'long'] as const;
/** One kind of {@link TTL_KINDS}. */
export type TtlKind = (typeof TTL_KINDS)[number];

/** F30: the TTL every page of the server says, and what kind of lie it is. */
export interface TtlPlan {
  kind: TtlKind;
  /** The `ttlMs` on every page, ms (0 for `zero`). */
  ttlMs: number;
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F30: the `ttlMs` every page says instead of `cacheTtlMs`; absent: the server's own. */
    ttl?: TtlPlan;
  }
}

/** How often F30 acts (scenario `faultRates.F30`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.5, 'Share of the servers of a round that enables F30 whose TTL misleads.'),
  kinds: choices(
    TTL_KINDS,
    'The kinds drawn from, uniformly, one per server: ttlMs 0, shorter than a walk, longer than the round.',
  ),
  shortTtlMs: msRange(1, 30, 'A `short` TTL, ms: shorter than a walk of two pages or more.'),
  longTtlMs: msRange(30_000, 3_600_000, 'A `long` TTL, ms: longer than the round.'),
  changesPerServer: counts(
    1,
    2,
    'Edits of one view per such server, at seeded times in [1, T_heal), while its pages say they are fresh.',
    1,
  ),
};

/** Every page says the plan's TTL, on a server whose pages carry cache fields. */
function rules(server: ServerPlan): ServerRule[] {
  const ttl = server.ttl;
  if (ttl === undefined || (server.era !== 'modern' && server.era !== 'gateway')) return [];
  return [{ onPage: (request, serve) => ({ ...serve(request), ttlMs: ttl.ttlMs }) }];
}

/** F30: TTLs that expire mid-walk, are 0, or outlast changes. */
export const F30: FaultDefinition<'F30', typeof RATES> = {
  id: 'F30',
  rates: RATES,
  plan: {
    server: {
      ttl: {
        schema: object({ kind: { enum: [...TTL_KINDS], title: 'one of zero, short, long' }, ttlMs: ms }),
      },
    },
  },
  title: '`ttlMs` of 0, shorter than a walk, or longer than the round, while the server changes its list anyway',
  lifetime: 'trait',
  probes: ['changed-within-ttl'],
  presentIn: (plan: RoundPlan) =>
    plan.servers.some((server) => server.ttl !== undefined && (server.era === 'modern' || server.era === 'gateway')),
  generate: {
    episodes(draft, rng, rates) {
      const kind = rng.pick(rates.kinds);
      const ttlMs = kind === 'zero' ? 0 : drawIn(rng, kind === 'short' ? rates.shortTtlMs : rates.longTtlMs);
      draft.server.ttl = { kind, ttlMs };
      for (const atMs of distinctTimes(rng, drawIn(rng, rates.changesPerServer), draft.scenario.tHealMs))
        draft.changes.push({ atMs, cause: 'F30', kind: 'edit', rng });
    },
  },
  fragment: (plan) =>
    perServer(plan, (server) => [
      server.ttl?.kind ?? null,
      server.ttl?.ttlMs ?? null,
      server.history.filter((step) => step.cause === 'F30').map((step) => step.atMs),
    ]),
  serverRules: rules,
  serverReductions: (server) => {
    const { ttl: _ttl, ...honest } = server;
    return server.ttl === undefined ? [] : [{ name: 'the server’s own TTL', server: honest }];
  },
};
