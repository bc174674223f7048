/**
 * F25: a modern-era server (MCP 2026-07-28) marks its `tools/list` pages `public` although what
 * it lists varies by credential (its audiences see different tools). A cache that believed the
 * claim and keyed the list by server alone would serve one tenant's tools to another; a core must
 * share nothing beyond its catalog key whatever a server says (judged by I4: every snapshot is
 * used only for its own key, and no descriptor the server only ever served another audience is
 * shown). The reference core never reads the scope as leave to share.
 *
 * Models issue 29's "a list marked `public` whose content in fact varies by credential (a shared
 * cache then serves one tenant's tools to another)" and the caching page of 2026-07-28: "private
 * caches MUST NOT be shared across authorization contexts", while the tool set "MAY vary by the
 * authorization presented on the request".
 *
 * How often: on 1 server in 2 of a round that enables F25, for the whole round (a trait that needs
 * no liveness exemption). It acts only on a modern server (a legacy page has no scope).
 */
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { fraction } from './rates.ts';
import { boolean } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F25: a modern server marks every page `public`, whatever its views; absent: its own scope. */
    falselyPublic?: boolean;
  }
}

/** How often F25 acts (scenario `faultRates.F25`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.5, 'Share of the servers of a round that enables F25 that mark every page public.'),
};

function rules(server: ServerPlan): ServerRule[] {
  if (server.falselyPublic !== true || server.era !== 'modern') return [];
  return [{ onPage: (request, serve) => ({ ...serve(request), cacheScope: 'public' }) }];
}

/** F25: a `public` claim on a list that varies by credential. */
export const F25: FaultDefinition<'F25', typeof RATES> = {
  id: 'F25',
  rates: RATES,
  plan: { server: { falselyPublic: { schema: boolean } } },
  title: 'a modern server marks its tools/list pages `public` although its audiences see different tools',
  lifetime: 'trait',
  probes: ['public-varies-served'],
  presentIn: (plan: RoundPlan) =>
    plan.servers.some((server) => server.era === 'modern' && server.falselyPublic === true),
  generate: {
    shape(draft) {
      draft.server.falselyPublic = true;
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.falselyPublic === true),
  traits: (server) => (server.era === 'modern' && server.falselyPublic === true ? ['F25'] : []),
  serverRules: rules,
  serverReductions: (server) =>
    server.falselyPublic === true ? [{ name: 'no public claim', server: { ...server, falselyPublic: false } }] : [],
};
