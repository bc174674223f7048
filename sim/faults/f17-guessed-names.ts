/**
 * F17: the planners guess real tool names that were never listed to their session (a model that
 * read them elsewhere, or guessed right). The core must refuse them locally as UNDISCLOSED_TOOL
 * and send nothing (reject-on-novel; I9): the server would execute them.
 *
 * Models the guessed-names report as a whole: "your agent called a tool it was never told about".
 *
 * How often: in a round that enables F17, 3 in 10 of the planners' calls guess a name; 7 in 10
 * guesses prefer a name the session's own audience gained since the last disclosure.
 */
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { fraction } from './rates.ts';

/** How often F17 acts (scenario `faultRates.F17`), with its defaults. */
export const RATES = {
  guessFraction: fraction(0.3, 'Share of the planned calls that guess a real tool name never listed to the session.'),
};

/**
 * Share of the guesses that pick a name the session's own audience gained since its last
 * disclosure (when there is one) rather than any unlisted name of the server; the planner
 * (sim/planner.ts) reads it at call time, so it is not a scenario rate.
 */
export const GUESS_OWN_AUDIENCE_FRACTION = 0.7;

/** F17: guessed names. */
export const F17: FaultDefinition<'F17', typeof RATES> = {
  id: 'F17',
  rates: RATES,
  title: 'calls to tool names that were never listed (a model guessing real names)',
  lifetime: 'episode',
  probes: ['undisclosed-refused'],
  presentIn: (plan: RoundPlan) => plan.calls.guessFraction > 0,
  generateRound({ plan }, _rng, rates) {
    plan.calls.guessFraction = rates.guessFraction;
  },
  fragment: (plan) => plan.calls.guessFraction,
  reductions: (plan) =>
    plan.calls.guessFraction > 0
      ? [{ name: 'no guessed names', plan: { ...plan, calls: { ...plan.calls, guessFraction: 0 } } }]
      : [],
};
