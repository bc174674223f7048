/**
 * Equivocation (trait `EQUIV`, a scenario-level fault: `"equivocation": true` turns it on for
 * every server of every round): the server reports the same revision for different content, so
 * the revision stops being a proof. A core must detect the same (key, revision) with two sets of
 * descriptor digests across complete scans and quarantine the key (SPEC section 3); equivocating
 * servers owe no liveness.
 *
 * Models SPEC section 3's equivocation rule (a lying server, the one failure the revision
 * extension cannot prevent, only detect).
 *
 * How often: on every server of an equivocation scenario; each of its content changes keeps the
 * previous revision number with probability one half.
 */
import type { RevisionStep, RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { fraction } from './rates.ts';
import { boolean } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** Equivocation (dedicated scenario): some changes keep the revision number (a lying server). */
    equivocates: boolean;
  }
}

/** How often EQUIV acts (scenario `faultRates.EQUIV`), with its defaults. */
export const RATES = {
  serverFraction: fraction(1, 'Share of the servers of an equivocation scenario that equivocate.'),
  sameRevisionFraction: fraction(0.5, 'Chance that a content change keeps the previous revision number.'),
};

/** Equivocation. */
export const EQUIVOCATION: FaultDefinition<'EQUIV', typeof RATES> = {
  id: 'EQUIV',
  rates: RATES,
  plan: { server: { equivocates: { schema: boolean, healthy: false } } },
  title: 'equivocation: the same revision reported for different content (scenario "equivocation": true)',
  lifetime: 'trait',
  probes: ['equivocation-detected'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.equivocates),
  switchedOnBy: (scenario) => scenario.equivocation === true,
  generate: {
    // After the history is built: a change that keeps the previous revision number lies about it
    // (F4's internal changes always move it, so the revision alone still moves).
    history(draft, rng, rates) {
      const steps = draft.server.history;
      draft.server.equivocates = true;
      for (let k = 1; k < steps.length; k += 1) {
        const step = steps[k] as RevisionStep;
        const previous = (steps[k - 1] as RevisionStep).revision;
        const keep = step.cause !== 'F4' && rng.chance(rates.sameRevisionFraction);
        steps[k] = { ...step, revision: keep ? previous : previous + 1 };
      }
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.equivocates),
  traits: (server) => (server.equivocates ? ['EQUIV'] : []),
  disqualifies: (server) => server.equivocates,
};
