/**
 * F11: the server restarts mid-pagination: cursors of earlier boots become invalid (-32602), the
 * revision survives (it lives in the server's storage, SPEC section 2). A core must end the scan
 * INCOMPLETE and start again from page 1, never splice the pages of two boots.
 *
 * Models the catalog-admission report's first timing window ("the process restarts while
 * pagination has only fetched half the pages"), on the server's side (the host's side is F18).
 *
 * How often: on 3 servers in 4 of a round that enables F11, 1 to 3 restarts at seeded times in [1,
 * T_heal).
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import { EPISODE_ORDER, type ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { fraction, counts } from './rates.ts';
import { arrayOf, ms } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F11: the server restarts at these times (cursors become invalid, the revision survives). */
    restartsAtMs: number[];
  }
}

/** How often F11 acts (scenario `faultRates.F11`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F11 that restart.'),
  restartsPerServer: counts(1, 3, 'Restarts per such server, at seeded times in [1, T_heal).'),
};

/** Each planned restart, as an episode: the boot counts up, so earlier cursors become invalid. */
function rules(server: ServerPlan): ServerRule[] {
  if (server.restartsAtMs.length === 0) return [];
  return [
    {
      episodes: () =>
        server.restartsAtMs.map((atMs) => ({
          atMs,
          order: EPISODE_ORDER.restart,
          run: (control) => control.restart(),
        })),
    },
  ];
}

/** F11: server restarts. */
export const F11: FaultDefinition<'F11', typeof RATES> = {
  id: 'F11',
  rates: RATES,
  plan: { server: { restartsAtMs: { schema: arrayOf(ms, 'an array of times (ms)'), healthy: [] } } },
  title: 'server restart mid-pagination (cursors become invalid, -32602; the revision survives)',
  lifetime: 'episode',
  probes: ['cursor-invalidated'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.restartsAtMs.length > 0),
  generate: {
    episodes(draft, rng, rates) {
      draft.server.restartsAtMs = distinctTimes(rng, drawIn(rng, rates.restartsPerServer), draft.scenario.tHealMs);
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.restartsAtMs),
  serverRules: rules,
  size: (plan) => plan.servers.reduce((sum, server) => sum + server.restartsAtMs.length, 0),
  serverReductions: (server) =>
    server.restartsAtMs.map((atMs) => ({
      name: `no restart at ${atMs} ms`,
      server: { ...server, restartsAtMs: server.restartsAtMs.filter((t) => t !== atMs) },
    })),
};
