/**
 * F1: tools are added, removed or changed between the pages of a scan; every change bumps the
 * revision, so a core that stitches pages of two revisions together publishes a catalog that never
 * existed (I1, I2).
 *
 * Models the guessed-names report ("the MCP tool list grows mid-session") and the first timing
 * window of the catalog-admission report: the catalog moves while pagination has fetched only half
 * of it.
 *
 * How often: on every server of a round that enables F1 (serverFraction 1), 4 to 10 edits at
 * seeded times in [1, T_heal) (an added tool, a removed one, a schema edit or a rename, in one
 * audience's view).
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { stepTimes } from './internal/fragments.ts';
import { counts, fraction } from './rates.ts';

/** How often F1 acts (scenario `faultRates.F1`), with its defaults. */
export const RATES = {
  serverFraction: fraction(1, 'Share of the servers of a round that enables F1 whose history it edits.'),
  changesPerServer: counts(4, 10, 'F1 edits per server, at seeded times in [1, T_heal).'),
};

/** F1: changes between pages. */
export const F1: FaultDefinition<'F1', typeof RATES> = {
  id: 'F1',
  rates: RATES,
  title: 'tools added, removed or changed between pages of a scan (each change bumps the revision)',
  lifetime: 'episode',
  probes: ['revision-moved-mid-walk', 'recheck-caught-change', 'stale-pin-refused-by-server'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.history.some((step) => step.cause === 'F1')),
  generate: {
    episodes(draft, rng, rates) {
      for (const atMs of distinctTimes(rng, drawIn(rng, rates.changesPerServer), draft.scenario.tHealMs))
        draft.changes.push({ atMs, cause: 'F1', kind: 'edit', rng });
    },
  },
  fragment: (plan) => stepTimes(plan, 'F1'),
};
