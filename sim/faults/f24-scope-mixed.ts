/**
 * F24: for a while, a modern-era server (MCP 2026-07-28) says one `cacheScope` on page 1 of its
 * `tools/list` and the other on every later page of the same walk. Its pages are then not one
 * list: a core must not admit a catalog built from them (judged as I2 `SCOPE_MIXED`); the
 * reference core ends such a walk INCOMPLETE CACHE_SCOPE_MIXED and retries.
 *
 * Models issue 29's first new-era fault ("`cacheScope` that differs between pages of one list")
 * and the caching page of 2026-07-28: "Servers MUST use the same cacheScope on all pages of a
 * list" (a stateless deployment whose nodes disagree on the scope is the way it happens).
 *
 * How often: on 1 server in 2 of a round that enables F24, 1 or 2 windows of 200 to 1,200 ms,
 * starting at seeded times in [1, T_heal - 1,200); every window closes before T_heal, so liveness
 * is still owed in the quiet tail. It acts only on a modern server (a legacy page has no scope):
 * the plan may hold windows on a legacy server, which then serve as usual.
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { counts, fraction, msRange } from './rates.ts';
import { arrayOf, ms, object } from '../plan/schema-parts.ts';

/** F24: from `fromMs` until `toMs` (virtual ms), pages after page 1 say the other `cacheScope`. */
export interface ScopeWindow {
  fromMs: number;
  toMs: number;
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F24: windows in which a modern server's pages after page 1 say the other `cacheScope`; absent: none. */
    scopeMixed?: ScopeWindow[];
  }
}

/** How often F24 acts (scenario `faultRates.F24`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.5, 'Share of the servers of a round that enables F24 whose pages disagree on scope.'),
  windowsPerServer: counts(1, 2, 'Windows per such server.', 1),
  windowLengthMs: msRange(200, 1200, 'How long one window lasts, ms.'),
};

function rules(server: ServerPlan, env: { now(): number }): ServerRule[] {
  const windows = server.scopeMixed ?? [];
  if (windows.length === 0 || server.era !== 'modern') return [];
  const other = server.cacheScope === 'public' ? 'private' : 'public';
  const open = (): boolean => windows.some((window) => env.now() >= window.fromMs && env.now() < window.toMs);
  return [
    {
      onPage: (request, serve) =>
        request.cursor !== undefined && open() ? { ...serve(request), cacheScope: other } : serve(request),
    },
  ];
}

/** F24: pages of one list that disagree on `cacheScope`. */
export const F24: FaultDefinition<'F24', typeof RATES> = {
  id: 'F24',
  rates: RATES,
  plan: {
    server: {
      scopeMixed: { schema: arrayOf(object({ fromMs: ms, toMs: ms }), 'an array of scope windows') },
    },
  },
  title: 'a modern server says one `cacheScope` on page 1 and the other on later pages of the same list, for a while',
  lifetime: 'episode',
  probes: ['scope-mixed-served', 'scope-mixed-refused'],
  presentIn: (plan: RoundPlan) =>
    plan.servers.some((server) => server.era === 'modern' && (server.scopeMixed ?? []).length > 0),
  generate: {
    episodes(draft, rng, rates) {
      const starts = distinctTimes(
        rng,
        drawIn(rng, rates.windowsPerServer),
        draft.scenario.tHealMs - rates.windowLengthMs.max,
      );
      draft.server.scopeMixed = starts.map((fromMs) => ({ fromMs, toMs: fromMs + drawIn(rng, rates.windowLengthMs) }));
    },
  },
  fragment: (plan) => perServer(plan, (server) => (server.scopeMixed ?? []).map((w) => [w.fromMs, w.toMs])),
  serverRules: rules,
  serverReductions: (server) =>
    (server.scopeMixed ?? []).map((window, i) => ({
      name: `no scope window at ${window.fromMs} ms`,
      server: { ...server, scopeMixed: (server.scopeMixed ?? []).filter((_, j) => j !== i) },
    })),
};
