/**
 * F12 (trait): an unversioned server: its pages carry no revision at all (plain MCP) and it
 * ignores revision pins. Its catalog can only be an UNVERSIONED_OBSERVATION, and the gate must not
 * admit a non-READ tool from it without a human confirmation (SPEC section 2; I3).
 *
 * Models the catalog-admission report ("a source with only plain MCP pagination can only be marked
 * UNVERSIONED_OBSERVATION ... cannot grant eligibility to autonomous write calls").
 *
 * How often: on 3 servers in 4 of a round that enables F12, for the whole round.
 */
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { fraction } from './rates.ts';
import { boolean } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F12 false: pages carry no revision. */
    versioned: boolean;
  }
}

/** How often F12 acts (scenario `faultRates.F12`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F12 that carry no revision.'),
};

/**
 * Pages carry no revision; pins are ignored (a server without revisions has nothing to compare a
 * pin against, so it never refuses one).
 */
function rules(server: ServerPlan): ServerRule[] {
  if (server.versioned) return [];
  return [{ onPage: (request, serve) => ({ ...serve(request), reported: null }) }, { onPin: () => null }];
}

/** F12: no revision. */
export const F12: FaultDefinition<'F12', typeof RATES> = {
  id: 'F12',
  rates: RATES,
  plan: { server: { versioned: { schema: boolean, healthy: true } } },
  title: 'unversioned server (no revision at all)',
  lifetime: 'trait',
  probes: ['unversioned-published', 'unversioned-write-refused'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => !server.versioned),
  generate: {
    shape(draft) {
      draft.server.versioned = false;
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.versioned),
  traits: (server) => (server.versioned ? [] : ['F12']),
  serverReductions: (server) =>
    server.versioned ? [] : [{ name: 'versioned pages', server: { ...server, versioned: true } }],
  serverRules: rules,
};
