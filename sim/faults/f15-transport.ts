/**
 * F15: the transport misbehaves until T_heal: later messages overtake earlier ones, a share of the
 * `list_changed` notifications is lost (1: a stateless gateway that drops them all), and sessions'
 * connections are cut (the core reconnects through its Connector). Requests and responses are
 * never dropped or duplicated; only a cut loses them in flight.
 *
 * Models the guessed-names report's "transport ambiguity": a stateless gateway in front of a
 * stateful server, where notifications are lost at the seam.
 *
 * How often: on 3 servers in 4 of a round that enables F15; each such server reorders 6 times in
 * 10, loses a fraction 0, 0.3, 0.7 or 1 (drawn uniformly) of its notifications, and cuts each of
 * its sessions 1 or 2 times with probability 0.6, at seeded times in [1, T_heal) (each session's
 * cuts on a stream of its own, `server/<id>/F15/<audience>`).
 */
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { RuleEnv, ServerRule } from '../server/rules.ts';
import type { LinkRule, SessionEpisode } from '../transport/link-rules.ts';
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { fraction, fractions, counts } from './rates.ts';
import { arrayOf, audience, boolean, fractionSchema, ms, object } from '../plan/schema-parts.ts';

/** F15: what goes wrong on this server's connections until T_heal. */
export interface LinkFaults {
  /** Later messages may overtake earlier ones. */
  reorder: boolean;
  /** Fraction of `list_changed` notifications lost (1: a stateless gateway that drops them all). */
  notificationLossFraction: number;
  /** Per audience, times at which that session's connection is cut (the core reconnects). */
  disconnectsAtMs: Record<string, number[]>;
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F15: what goes wrong on this server's connections until T_heal. */
    linkFaults: LinkFaults;
  }
}

/** How often F15 acts (scenario `faultRates.F15`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F15 whose links misbehave.'),
  reorderFraction: fraction(0.6, "Chance that such a server's links reorder messages until T_heal."),
  notificationLossFractions: fractions(
    [0, 0.3, 0.7, 1],
    'The share of its notifications lost before T_heal, one drawn per server (1: a stateless gateway).',
  ),
  cutSessionFraction: fraction(0.6, 'Chance that a session of such a server has its connection cut.'),
  cutsPerSession: counts(1, 2, 'Cuts per such session, at seeded times in [1, T_heal).'),
};

/** The link faults of a server without F15. */
export const CALM_LINKS: Readonly<LinkFaults> = { reorder: false, notificationLossFraction: 0, disconnectsAtMs: {} };

/** Whether a server's links are calm (no F15 fault planned). */
export function linksCalm(server: ServerPlan): boolean {
  const faults = server.linkFaults;
  return (
    !faults.reorder &&
    faults.notificationLossFraction === 0 &&
    Object.values(faults.disconnectsAtMs).every((times) => times.length === 0)
  );
}

/**
 * Until T_heal each notification is lost with the planned fraction, drawn from the server's
 * `notify` stream (1: a stateless gateway that drops them all).
 */
function rules(server: ServerPlan, env: RuleEnv): ServerRule[] {
  const fraction = server.linkFaults.notificationLossFraction;
  if (fraction === 0) return [];
  const rng = env.stream('notify');
  return [{ onNotification: () => (env.now() < env.tHealMs && rng.chance(fraction) ? 'drop' : 'deliver') }];
}

/** Until T_heal, every message of a reordering server's links leaves FIFO order (later ones may overtake it). */
function reorderRule(server: ServerPlan, env: RuleEnv): LinkRule[] {
  if (!server.linkFaults.reorder) return [];
  return [
    {
      onLinkMessage: (_message, verdict) =>
        verdict.kind === 'drop' || env.now() >= env.tHealMs ? verdict : { ...verdict, reorder: true },
    },
  ];
}

/** The planned cuts of one session's connection. */
function cuts(server: ServerPlan, audience: string): SessionEpisode[] {
  return (server.linkFaults.disconnectsAtMs[audience] ?? []).map((atMs) => ({
    atMs,
    run: (control) => control.disconnect(),
  }));
}

/** F15: transport faults. */
export const F15: FaultDefinition<'F15', typeof RATES> = {
  id: 'F15',
  rates: RATES,
  plan: {
    server: {
      linkFaults: {
        schema: object({
          reorder: boolean,
          notificationLossFraction: fractionSchema,
          disconnectsAtMs: {
            type: 'object',
            title: 'an object of times (ms) by audience',
            propertyNames: audience,
            additionalProperties: arrayOf(ms, 'an array of times (ms)'),
          },
        }),
        healthy: CALM_LINKS,
      },
    },
  },
  title: 'transport: delayed and reordered messages, notifications lost (stateless gateway), disconnects',
  lifetime: 'episode',
  probes: ['disconnected-mid-walk'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => !linksCalm(server)),
  generate: {
    shape(draft, rng, rates) {
      const reorder = rng.chance(rates.reorderFraction);
      const notificationLossFraction = rng.pick(rates.notificationLossFractions);
      // Each session draws its cuts from its own stream, so an audience more or less (F16) shifts no other's.
      const disconnectsAtMs: Record<string, number[]> = {};
      for (const audience of draft.server.audiences) {
        const cuts = draft.stream(`F15/${audience}`);
        disconnectsAtMs[audience] = cuts.chance(rates.cutSessionFraction)
          ? distinctTimes(cuts, drawIn(cuts, rates.cutsPerSession), draft.scenario.tHealMs)
          : [];
      }
      draft.server.linkFaults = { reorder, notificationLossFraction, disconnectsAtMs };
    },
  },
  fragment: (plan, audiences) =>
    perServer(plan, (server) => {
      const { reorder, notificationLossFraction, disconnectsAtMs } = server.linkFaults;
      return {
        reorder,
        notificationLossFraction,
        cuts: audiences(server.id).map((audience) => [audience, disconnectsAtMs[audience] ?? []]),
      };
    }),
  serverRules: rules,
  linkRules: reorderRule,
  sessionEpisodes: cuts,
  size: (plan) =>
    plan.servers.reduce(
      (sum, server) =>
        sum + Object.values(server.linkFaults.disconnectsAtMs).flat().length + (linksCalm(server) ? 0 : 1),
      0,
    ),
  serverReductions: (server) =>
    linksCalm(server)
      ? []
      : [{ name: 'calm links', server: { ...server, linkFaults: { ...CALM_LINKS, disconnectsAtMs: {} } } }],
};
