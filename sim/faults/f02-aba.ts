/**
 * F2: A-B-A. A change and its revert, between scans or inside one: the content at the end equals
 * the content at the start, under a newer revision. Two identical scans prove nothing (the
 * catalog-admission report: "two consecutive identical results can still have gone through an
 * A-B-A change"), so a core that takes two equal scans as complete is caught (I1, I2).
 *
 * How often: on every server of a round that enables F2 (serverFraction 1), 1 to 3 edit-and-revert
 * pairs at seeded times in [1, T_heal - 100), each revert 5 to 80 ms after its edit.
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { stepTimes } from './internal/fragments.ts';
import { counts, fraction, msRange } from './rates.ts';

/** How often F2 acts (scenario `faultRates.F2`), with its defaults. */
export const RATES = {
  serverFraction: fraction(1, 'Share of the servers of a round that enables F2 whose history gets A-B-A pairs.'),
  pairsPerServer: counts(1, 3, 'Edit-and-revert pairs per server, each edit at a seeded time in [1, T_heal - 100).'),
  revertDelayMs: msRange(5, 80, 'How long after its edit each revert comes, ms.'),
};

/** F2: A-B-A changes. */
export const F2: FaultDefinition<'F2', typeof RATES> = {
  id: 'F2',
  rates: RATES,
  title: 'A-B-A: a change and its revert between or within scans',
  lifetime: 'episode',
  probes: ['aba-inside-walk', 'aba-served-inside-walk'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.history.some((step) => step.cause === 'F2')),
  generate: {
    episodes(draft, rng, rates) {
      for (const atMs of distinctTimes(rng, drawIn(rng, rates.pairsPerServer), draft.scenario.tHealMs - 100)) {
        draft.changes.push(
          { atMs, cause: 'F2', kind: 'edit', rng },
          { atMs: atMs + drawIn(rng, rates.revertDelayMs), cause: 'F2', kind: 'revert', of: atMs },
        );
      }
    },
  },
  fragment: (plan) => stepTimes(plan, 'F2'),
};
