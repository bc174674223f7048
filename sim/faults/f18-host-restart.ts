/**
 * F18: the host process restarts. It dies at a seeded point — at a seeded instant (mid-walk
 * between pages, or while calls are in flight), inside the publish transaction, after a publish
 * committed but before its caller was told, after a lease was issued but before its call was
 * dispatched — and a new core instance starts from the same durable store. In-flight scans are
 * lost; no half scan may ever be published, every committed publish must survive, nothing
 * uncommitted may appear, no receipt may be lost and no lease may outlive the facts it was issued
 * for (I14-I17, oracle/invariants/host-restart.ts).
 *
 * Models the catalog-admission report's first timing window, on the host's side ("the process
 * restarts while pagination has only fetched half the pages"; the server's side is F11), and its
 * storage rule ("the source revision, page root, pointer, and catalog receipt are written in the
 * same transaction"). The store is the real SQLite one (src/registry/sqlite-store.ts) on one
 * in-memory database per round whose committed image survives the restart (sim/host/host-disk.ts);
 * the crash machinery is sim/host/host-process.ts.
 *
 * How often: a round that enables F18 restarts the host 1 or 2 times; each restart is armed at a
 * seeded time in [1, T_heal / 2) (when walks and publishes are dense), dies at a crash point drawn
 * uniformly from `points`, and the new boot starts 5 to 50 ms later. A point that does not occur
 * between its arming and T_heal never fires (the round then has fewer restarts). Enabled by
 * `scenarios/host-restart.json` (2 or 3 restarts per round), not by the default scenario: a
 * plug-in core that keeps nothing across boots and numbers its scans and leases from 1 again in
 * each boot is misread there (a reused scan id reads as a resumed scan, a reused lease id as a
 * replayed lease), so the default mix would bury a user's real findings under those.
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { HostCrashPoint, RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { choices, counts, msRange } from './rates.ts';
import { arrayOf, ms, object, positive } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface RoundPlan {
    /** F18: host restarts in time order (absent or empty: the host runs the whole round). */
    hostRestarts?: HostRestart[];
  }
}

/** How often F18 acts (scenario `faultRates.F18`), with its defaults. */
export const RATES = {
  restartsPerRound: counts(
    1,
    2,
    'Host restarts per round that enables F18, each armed at a seeded time in [1, T_heal / 2).',
    1,
  ),
  points: choices(
    ['at_time', 'in_publish', 'after_commit', 'after_lease'] as const satisfies readonly HostCrashPoint[],
    'The crash points drawn from, uniformly, one per restart.',
  ),
  downMs: msRange(5, 50, 'How long the host stays down before the new boot starts, ms.'),
};

/** F18: host restarts. */
export const F18: FaultDefinition<'F18', typeof RATES> = {
  id: 'F18',
  rates: RATES,
  plan: {
    round: {
      hostRestarts: {
        schema: arrayOf(
          object({
            atMs: ms,
            point: {
              title: 'one of "at_time", "in_publish", "after_commit", "after_lease"',
              enum: ['at_time', 'in_publish', 'after_commit', 'after_lease'],
            },
            downMs: positive,
          }),
          'an array of host restarts',
        ),
      },
    },
  },
  title:
    'host restart mid-scan, inside or right after a publish, or between lease and dispatch (the registry reloads from its durable store)',
  lifetime: 'episode',
  probes: [
    'host-restarted-mid-scan',
    'host-crashed-in-publish',
    'host-crashed-after-commit',
    'host-crashed-after-lease',
    'host-crashed-calls-in-flight',
  ],
  presentIn: (plan: RoundPlan) => (plan.hostRestarts ?? []).length > 0,
  generateRound({ plan }, rng, rates) {
    const times = distinctTimes(rng, drawIn(rng, rates.restartsPerRound), Math.floor(plan.bounds.tHealMs / 2));
    plan.hostRestarts = times.map((atMs) => ({
      atMs,
      point: rng.pick(rates.points),
      downMs: drawIn(rng, rates.downMs),
    }));
  },
  fragment: (plan) => plan.hostRestarts ?? [],
  reductions: (plan) =>
    (plan.hostRestarts ?? []).map((restart) => ({
      name: `no host restart at ${restart.atMs} ms (${restart.point})`,
      plan: { ...plan, hostRestarts: (plan.hostRestarts ?? []).filter((other) => other !== restart) },
    })),
};
