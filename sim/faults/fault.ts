/**
 * The shape of one fault of the fault menu (SPEC section 10): what a file under `sim/faults/`
 * exports. A fault keeps everything about itself in its own file, laid out as TigerBeetle's
 * `src/testing/` and fast-check keep generation, running and reporting apart:
 *
 * - generation: its rates (named scenario fields with defaults) and its plan generator, which
 *   draws only from the fault's own named random stream;
 * - running: its behaviour as small rules (turmoil-style, one method each) that the registry
 *   installs on the simulated servers and links of a round;
 * - reporting and shrinking: the coverage probes (in `oracle/probes/`) that show its defence was
 *   exercised, its shrink reductions, and `presentIn`, which says whether a plan still holds it.
 *
 * The field reports fault headers quote: the catalog-admission report (paginated discovery,
 * generation freezing and call admission: the fault suite and gates this design grew from), and
 * the guessed-names report (an incident review: an agent called a tool it was never told about,
 * because `list_changed` was lost or never sent and the model guessed a real name).
 *
 * Order of calls for one round (the registry, `sim/faults/index.ts`, drives them):
 * 1. scenario load: `rates` give the defaults of `faultRates.<id>` and its part of the scenario
 *    schema;
 * 2. plan generation (`sim/plan/generate.ts`): the `swarm` stream draws once per fault of the
 *    menu, in menu order, whether to enable it (if the scenario lists it; a scenario-level fault
 *    is on when `switchedOnBy` says so); then, for each server and each enabled fault with
 *    `generate` hooks, one draw of its `serverFraction` on the stream `server/<server id>/<fault
 *    id>` decides whether it acts on that server, and its hooks run phase by phase
 *    (sim/faults/draft.ts) on that same stream; after every server, each enabled fault's
 *    `generateRound` runs on the stream `round/<fault id>`. A fault never draws from another's
 *    stream, so enabling one never shifts the draws of another;
 * 3. running (`sim/round.ts`): `serverRules`, `serverTraits`, `linkRules` and `sessionEpisodes`
 *    are read from the plan (never from the `faults` label, so a hand-built plan runs the same);
 * 4. checking: the oracle judges the trace; the campaign counts the probes named in `probes`;
 * 5. shrinking: `reductions` after the generic ones; `presentIn` relabels the shrunk plan.
 *
 * Its part of the plan's data is its `plan` slice: the fields it adds to a server plan, a round
 * plan, its policy or its calls, each with its schema fragment and its healthy value. The plan
 * schema (sim/plan/plan-schema.ts) and the healthy plan the generator starts from are assembled
 * from the slices of the registry; the TypeScript fields are declared beside them, by augmenting
 * the plan interfaces of sim/plan/types.ts (`declare module '../plan/types.ts'`).
 */
import type { Rng } from '../random.ts';
import type { Scenario } from '../plan/scenario-types.ts';
import type { PolicyPlan, RoundPlan, ServerPlan } from '../plan/types.ts';
import type { RoundDraft, ServerDraft } from './draft.ts';
import type { RuleEnv, ServerRule } from '../server/rules.ts';
import type { LinkRule, SessionEpisode } from '../transport/link-rules.ts';
import type { Reduction, ServerReduction } from '../shrink/reduction.ts';
import type { RateSpecs, RatesOf } from './rates.ts';
import type { SchemaFragment } from '../plan/schema-parts.ts';
import type { TurnRules } from '../turns/turn-rules.ts';
import type { PolicyEnv, PolicyRule } from '../policy/policy-rules.ts';
import type { PlannerRule } from '../planner-rules.ts';

/**
 * One field a fault adds to a part of the plan: its JSON Schema fragment (sim/plan/schema-parts.ts),
 * and its healthy value, which every generated plan starts with (copied). A field without one is
 * optional: a healthy plan leaves it out, and plan files written before it existed stay valid.
 */
export interface SliceField {
  readonly schema: SchemaFragment;
  readonly healthy?: unknown;
}

/** The fields of one part of the plan, by name, in the order they are written. */
export type SliceFields = Readonly<Record<string, SliceField>>;

/** The parts of a plan a fault adds fields to (`RoundPlan`, `ServerPlan`, `PolicyPlan`, `CallsPlan`). */
export type PlanPart = 'round' | 'server' | 'policy' | 'calls';

/** A fault's slice of the plan: the fields it adds, by part of the plan. */
export type PlanSlice = Readonly<Partial<Record<PlanPart, SliceFields>>>;

/** Whether a fault lasts the whole round (a server trait) or acts in [0, T_heal) (an episode). */
export type FaultLifetime = 'trait' | 'episode';

/**
 * One fault: its identity, how a plan shows it, and its optional hooks (see the header for the
 * order of calls). A fault file exports it annotated with its id,
 * `export const F9: FaultDefinition<'F9', typeof RATES> = { id: 'F9', rates: RATES, ... }`: the
 * annotation lets the registry derive the `FaultId` union from the definitions without evaluating
 * their hooks (whose types mention plans, whose `faults` field is typed by that union).
 */
export interface FaultDefinition<Id extends string = string, R extends RateSpecs = RateSpecs> {
  /** The fault's id in the fault menu, `F1` .. `F18`, or `EQUIV` for equivocation. */
  readonly id: Id;
  /** What goes wrong, in one line (the fault menu's entry), for `catsim run --help` and docs. */
  readonly title: string;
  readonly lifetime: FaultLifetime;
  /**
   * How often it acts: named rates with their defaults, the fields of `faultRates.<id>` in a
   * scenario (sim/faults/rates.ts). A server-level fault has `serverFraction`, the share of a
   * round's servers it acts on when the round enables it.
   */
  readonly rates: R;
  /** The plan fields it owns (see `PlanSlice`); none when it only acts through fields of others or of the base plan. */
  readonly plan?: PlanSlice;
  /**
   * For a scenario-level fault (not in the menu): whether `scenario` switches it on for every
   * round, e.g. `"equivocation": true`.
   */
  switchedOnBy?(scenario: Scenario): boolean;
  /** Its part of one server's plan, phase by phase, on the stream `server/<server id>/<fault id>`. */
  readonly generate?: ServerGeneration<R>;
  /** Its round-level part of the plan (policy changes, calls, refreshers), on the stream `round/<fault id>`. */
  generateRound?(draft: RoundDraft, rng: Rng, rates: RatesOf<R>): void;
  /**
   * The part of a plan this fault's generator decides from its own stream alone: what the
   * independence test (sim/faults/independence.test.ts) compares with the fault toggled. It leaves
   * out what the fault picks among other faults' data (which tool a change edits, which audience a
   * defect lands in); `audiences` are the audiences of the server both compared plans serve.
   */
  fragment(plan: RoundPlan, audiences: (serverId: string) => readonly string[]): unknown;
  /** The coverage probes (oracle/probes/, by name) whose hits show this fault's defence was exercised. */
  readonly probes: readonly string[];
  /**
   * Whether `plan` still holds this fault (some server or round field it plants is not the
   * healthy value). A shrunk plan's `faults` list is recomputed from this.
   */
  presentIn(plan: RoundPlan): boolean;
  /**
   * The labels this fault gives `server` in `server_up.traits` (ground truth the oracle reads,
   * e.g. `F5:cycle`); none when the plan does not hold the fault on that server.
   */
  traits?(server: ServerPlan): string[];
  /** Whether the fault, as planned on `server`, exempts it from liveness (a disqualifying trait). */
  disqualifies?(server: ServerPlan): boolean;
  /** The rules that run this fault on `server` (sim/server/rules.ts); none when its plan does not hold the fault. */
  serverRules?(server: ServerPlan, env: RuleEnv): ServerRule[];
  /** The rules this fault adds to the links of `server`'s sessions (sim/transport/link-rules.ts). */
  linkRules?(server: ServerPlan, env: RuleEnv): LinkRule[];
  /** What this fault does to the connection of `server`'s session for `audience` at planned times. */
  sessionEpisodes?(server: ServerPlan, audience: string): SessionEpisode[];
  /**
   * What the fault as planned adds to the plan's size measure (sim/shrink/reductions.ts
   * `planSize`, which a shrink reports before and after): one per planned event or trait, 0 when
   * the plan does not hold it.
   */
  size?(plan: RoundPlan): number;
  /** The rules this fault gives the policy service of a round, built from its policy plan (sim/policy/policy-rules.ts). */
  policyRules?(policy: PolicyPlan, env: PolicyEnv): PolicyRule[];
  /** What the hook kinds and late stages of the model turns it plans do (sim/turns/turn-rules.ts). */
  readonly turnRules?: TurnRules;
  /** The planners' rules (sim/planner-rules.ts): a tool to call instead of a shown one, or a call sent late. */
  readonly plannerRules?: readonly PlannerRule[];
  /** Shrink steps that calm this fault on one server, coarse first (none when it is not planned there). */
  serverReductions?(server: ServerPlan): ServerReduction[];
  /** Shrink steps that calm this fault's round-level part (policy, calls, refreshers). */
  reductions?(plan: RoundPlan): Reduction[];
}

/**
 * The generation hooks of a fault on one server, one per phase of GENERATION_PHASES (all
 * optional; each gets the server's draft, the fault's own stream and the rates in force).
 */
export interface ServerGeneration<R extends RateSpecs> {
  audiences?(draft: ServerDraft, rng: Rng, rates: RatesOf<R>): void;
  plant?(draft: ServerDraft, rng: Rng, rates: RatesOf<R>): void;
  episodes?(draft: ServerDraft, rng: Rng, rates: RatesOf<R>): void;
  history?(draft: ServerDraft, rng: Rng, rates: RatesOf<R>): void;
  shape?(draft: ServerDraft, rng: Rng, rates: RatesOf<R>): void;
}
