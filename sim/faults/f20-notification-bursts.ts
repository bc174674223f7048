/**
 * F20: a server sends bursts of `notifications/tools/list_changed` with no change behind them,
 * closer together than the core's coalescing delay, for far longer than it. A refresher that
 * coalesces a burst into one scan at a fixed delay after its first notification refreshes on
 * time; one whose debounce resets on every notification never refreshes while the burst lasts
 * (and holds every call at the barrier meanwhile): I19 REFRESH_STARVED.
 *
 * Models the field report of issue 13 item 4 ("a debounce that resets on every notification
 * never refreshes") and DESIGN.md section 10's F3 line ("bursts"), here as a burst that outlasts
 * the delay rather than a few copies of one change.
 *
 * How often: on 1 server in 2 of a round that enables F20, 1 or 2 bursts starting at seeded times
 * in [1, T_heal - 1,500), each 600 to 1,500 ms long with one notification every 5 to 15 ms (under
 * the default coalescing delay of 20 ms); every burst ends before T_heal.
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import { EPISODE_ORDER, type ServerEpisode, type ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { counts, fraction, msRange } from './rates.ts';
import { arrayOf, ms, object, positive } from '../plan/schema-parts.ts';

/**
 * F20: from `atMs` on, `count` notifications `tools/list_changed` to every session of the server,
 * `everyMs` apart (virtual ms), with no change behind them.
 */
export interface NotificationBurst {
  atMs: number;
  everyMs: number;
  count: number;
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F20: bursts of `list_changed` without a change; absent: none. */
    notificationBursts?: NotificationBurst[];
  }
}

/** How often F20 acts (scenario `faultRates.F20`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.5, 'Share of the servers of a round that enables F20 that send notification bursts.'),
  burstsPerServer: counts(
    1,
    2,
    'Bursts per such server, starting at seeded times in [1, T_heal - the longest burst).',
    1,
  ),
  burstGapMs: msRange(
    5,
    15,
    'Time between two notifications of a burst, ms (under the coalescing delay, so a resetting debounce never fires).',
  ),
  burstLengthMs: msRange(600, 1500, 'How long one burst lasts, ms.'),
};

/** The episodes of one burst: one notification to every audience of the server per step. */
function burstEpisodes(server: ServerPlan, burst: NotificationBurst): ServerEpisode[] {
  return Array.from({ length: burst.count }, (_, i) => ({
    atMs: burst.atMs + i * burst.everyMs,
    // After a revision step or a rotation of the same instant: the burst announces nothing itself.
    order: EPISODE_ORDER.notification,
    run: (control) => {
      for (const audience of server.audiences) control.notifySoon(audience);
    },
  }));
}

function rules(server: ServerPlan): ServerRule[] {
  const bursts = server.notificationBursts ?? [];
  if (bursts.length === 0) return [];
  return [{ episodes: () => bursts.flatMap((burst) => burstEpisodes(server, burst)) }];
}

/** F20: notification bursts. */
export const F20: FaultDefinition<'F20', typeof RATES> = {
  id: 'F20',
  rates: RATES,
  plan: {
    server: {
      notificationBursts: {
        schema: arrayOf(object({ atMs: ms, everyMs: positive, count: positive }), 'an array of notification bursts'),
      },
    },
  },
  title: 'bursts of `list_changed` with no change, closer together than the coalescing delay and far longer than it',
  lifetime: 'episode',
  probes: ['refreshed-during-burst'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => (server.notificationBursts ?? []).length > 0),
  generate: {
    episodes(draft, rng, rates) {
      const latestStartMs = draft.scenario.tHealMs - rates.burstLengthMs.max;
      const starts = distinctTimes(rng, drawIn(rng, rates.burstsPerServer), latestStartMs);
      draft.server.notificationBursts = starts.map((atMs) => {
        const everyMs = drawIn(rng, rates.burstGapMs);
        return { atMs, everyMs, count: Math.floor(drawIn(rng, rates.burstLengthMs) / everyMs) + 1 };
      });
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.notificationBursts ?? []),
  serverRules: rules,
  serverReductions: (server) =>
    (server.notificationBursts ?? []).map((burst, i) => ({
      name: `no notification burst at ${burst.atMs} ms`,
      server: { ...server, notificationBursts: (server.notificationBursts ?? []).filter((_, j) => j !== i) },
    })),
};
