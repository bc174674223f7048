/**
 * F7: the server's identity (its certificate's key fingerprint) rotates, mid-scan or between
 * scans; half the rotations bring a different catalog (a new deployment behind the new
 * certificate). A core must end a scan whose identity changed and rebuild the catalog under the
 * new identity's key (I12; I4 for a core that keeps serving the old key).
 *
 * Models the catalog-admission report ("Server identity certificate rotation").
 *
 * How often: on 3 servers in 4 of a round that enables F7, 1 or 2 rotations at seeded times in
 * [1, T_heal); each brings a new catalog with probability one half.
 */
import { distinctTimes, drawIn, hexDigits } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import { EPISODE_ORDER, type ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer, stepTimes } from './internal/fragments.ts';
import { fraction, counts } from './rates.ts';
import { arrayOf, ms, object, string } from '../plan/schema-parts.ts';

/** F7: from `atMs` on the server presents `identity` (certificate rotation). */
export interface IdentityRotation {
  atMs: number;
  identity: string;
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F7: the identities the server rotates to, in time order. */
    rotations: IdentityRotation[];
  }
}

/** How often F7 acts (scenario `faultRates.F7`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F7 that rotate their identity.'),
  rotationsPerServer: counts(1, 2, 'Rotations per such server, at seeded times in [1, T_heal).'),
  newCatalogFraction: fraction(0.5, 'Chance that a rotation brings a different catalog (a new deployment).'),
};

/** Each planned rotation, as an episode: the server presents its new identity from then on. */
function rules(server: ServerPlan): ServerRule[] {
  if (server.rotations.length === 0) return [];
  return [
    {
      episodes: () =>
        server.rotations.map((rotation) => ({
          atMs: rotation.atMs,
          order: EPISODE_ORDER.rotation,
          run: (control) => control.rotate(rotation.identity),
        })),
    },
  ];
}

/** F7: identity rotation. */
export const F7: FaultDefinition<'F7', typeof RATES> = {
  id: 'F7',
  rates: RATES,
  plan: {
    server: {
      rotations: { schema: arrayOf(object({ atMs: ms, identity: string }), 'an array of rotations'), healthy: [] },
    },
  },
  title: 'server identity (certificate) rotation, mid-scan and between scans; some rotations bring a different catalog',
  lifetime: 'episode',
  probes: ['identity-rotated-mid-walk'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.rotations.length > 0),
  generate: {
    episodes(draft, rng, rates) {
      for (const atMs of distinctTimes(rng, drawIn(rng, rates.rotationsPerServer), draft.scenario.tHealMs)) {
        draft.server.rotations.push({ atMs, identity: `fp:${hexDigits(rng, 16)}` });
        // Some rotations bring a different catalog (a new deployment behind the new certificate).
        if (rng.chance(rates.newCatalogFraction)) draft.changes.push({ atMs, cause: 'F7', kind: 'rotate', rng });
      }
    },
  },
  fragment: (plan) => [perServer(plan, (server) => server.rotations), stepTimes(plan, 'F7')],
  serverRules: rules,
  size: (plan) => plan.servers.reduce((sum, server) => sum + server.rotations.length, 0),
  serverReductions: (server) =>
    server.rotations.map((rotation) => ({
      name: `no rotation at ${rotation.atMs} ms`,
      server: { ...server, rotations: server.rotations.filter((r) => r.atMs !== rotation.atMs) },
    })),
};
