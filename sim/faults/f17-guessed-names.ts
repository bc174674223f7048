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
import type { RoundPlan, ToolDescriptor } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import type { DisclosedTool } from '../guard/adapter.ts';
import { CHOICE_ORDER, type CallChoice, type ToolChoiceRule } from '../planner-rules.ts';
import { worldDescriptorDigest } from '../trace/digests.ts';
import { fraction } from './rates.ts';
import { fractionSchema } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface CallsPlan {
    /** F17: fraction of plans that guess a real tool name never listed to the session. */
    guessFraction: number;
  }
}

/** How often F17 acts (scenario `faultRates.F17`), with its defaults. */
export const RATES = {
  guessFraction: fraction(0.3, 'Share of the planned calls that guess a real tool name never listed to the session.'),
};

/**
 * Share of the guesses that pick a name the session's own audience gained since its last
 * disclosure (when there is one) rather than any unlisted name of the server; the planner's rule
 * reads it at call time, so it is not a scenario rate.
 */
const GUESS_OWN_AUDIENCE_FRACTION = 0.7;

/**
 * A real tool name of the server that was not in the catalog last shown to the session:
 * preferably one its own audience gained since (a model that read it elsewhere, or guessed it
 * right), else one of another audience's view.
 */
function guess({ rng, audience, shown, currentViews }: CallChoice): DisclosedTool | undefined {
  const listed = new Set(shown.map((tool) => tool.name));
  const views = currentViews();
  const unlisted = (view: readonly ToolDescriptor[] | undefined) =>
    (view ?? []).filter((tool) => !listed.has(String(tool.name)));
  const own = unlisted(views[audience]);
  const others = Object.entries(views)
    .filter(([other]) => other !== audience)
    .flatMap(([, view]) => unlisted(view));
  const candidates = own.length > 0 && rng.chance(GUESS_OWN_AUDIENCE_FRACTION) ? own : [...own, ...others];
  if (candidates.length === 0) return undefined;
  const tool = rng.pick(candidates);
  return { name: String(tool.name), descriptorDigest: worldDescriptorDigest(tool) };
}

/** The planners' rule (sim/planner-rules.ts): with the plan's `guessFraction`, a guessed name. */
const GUESS: ToolChoiceRule = {
  order: CHOICE_ORDER.guess,
  choose(call) {
    if (!call.rng.chance(call.calls.guessFraction)) return undefined;
    const tool = guess(call);
    return tool === undefined ? undefined : { tool, guessed: true };
  },
};

/** F17: guessed names. */
export const F17: FaultDefinition<'F17', typeof RATES> = {
  id: 'F17',
  rates: RATES,
  plan: { calls: { guessFraction: { schema: fractionSchema, healthy: 0 } } },
  title: 'calls to tool names that were never listed (a model guessing real names)',
  lifetime: 'episode',
  probes: ['undisclosed-refused'],
  presentIn: (plan: RoundPlan) => plan.calls.guessFraction > 0,
  generateRound({ plan }, _rng, rates) {
    plan.calls.guessFraction = rates.guessFraction;
  },
  plannerRules: [GUESS],
  fragment: (plan) => plan.calls.guessFraction,
  reductions: (plan) =>
    plan.calls.guessFraction > 0
      ? [{ name: 'no guessed names', plan: { ...plan, calls: { ...plan.calls, guessFraction: 0 } } }]
      : [],
};
