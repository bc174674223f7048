/**
 * The rules a fault gives the simulated planners (sim/planner.ts), turmoil-style, one method
 * each: when a planner plans a call, a tool-choice rule may choose the tool instead of the
 * planner's own pick among the shown tools (F17 guesses a name never listed; F8 retries a tool
 * revoked a moment ago, of which the model was not told), and a lateness rule may send it late on
 * purpose (F10's stale plans). A fault exports them as its `plannerRules` (sim/faults/fault.ts);
 * the registry sorts them (`PLANNER_RULES` in sim/faults/index.ts), so the planner never imports
 * a fault file.
 *
 * Order of calls for one planned call: each tool-choice rule's `choose`, in `CHOICE_ORDER`, until
 * one returns a choice, else the planner picks among the shown tools; then, unless the choice is
 * a guess, each lateness rule's `late` until one returns a delay draw; then the planner draws the
 * arguments' validity; then the delay (the lateness rule's draw, else the planner's own). Every
 * rule is always installed and reads the plan's fields (never the `faults` label), so a
 * hand-built plan runs the same, and its draws come from the planner's own stream in this order.
 */
import type { DisclosedTool } from './guard/adapter.ts';
import type { CallsPlan, ToolDescriptor } from './plan/types.ts';
import type { Rng } from './random.ts';

/**
 * The order tool-choice rules are asked in: a guess first, then a retry of a revoked tool, then
 * F34's aliased tool, then F35's walked tool, then F36's changed tools, then F37's backed-up tool.
 */
export const CHOICE_ORDER = { guess: 0, retry: 1, aliased: 2, walked: 3, contract: 4, backup: 5 } as const;

/** What a tool-choice rule may read of the planner about to plan a call. */
export interface CallChoice {
  /** The planner's own stream (a rule draws from it only as the header says). */
  readonly rng: Rng;
  /** The session's audience, `tenant.role`. */
  readonly audience: string;
  /** The plan's calls (their fractions). */
  readonly calls: CallsPlan;
  /** The tools of the disclosure the call is planned from. */
  readonly shown: readonly DisclosedTool[];
  /** The server's current views, by audience. */
  currentViews(): Readonly<Record<string, readonly ToolDescriptor[]>>;
  /** The tools revoked for this audience in the last `windowMs` virtual ms. */
  revokedWithin(windowMs: number): readonly string[];
}

/** A chosen tool; `guessed` when it was never shown to the session (the plan's kind is `guessed`). */
export interface ToolChoice {
  readonly tool: DisclosedTool;
  readonly guessed: boolean;
}

/** One tool-choice rule. */
export interface ToolChoiceRule {
  /** Where it is asked, `CHOICE_ORDER`. */
  readonly order: number;
  /** The tool to call instead of the planner's own pick, or undefined to let the next rule choose. */
  choose(call: CallChoice): ToolChoice | undefined;
}

/**
 * Whether a planned call (not a guess) of `tool` is sent late on purpose: the draw of its delay
 * (virtual ms), which the planner makes after its arguments' draw, or undefined for a call sent at
 * once.
 */
export interface LatenessRule {
  late(call: CallChoice, tool: DisclosedTool): (() => number) | undefined;
}

/** One planner rule: a tool-choice rule or a lateness rule. */
export type PlannerRule = ToolChoiceRule | LatenessRule;

/** The planner rules of the registry, by kind: tool-choice rules in `CHOICE_ORDER`, lateness rules in registry order. */
export interface PlannerRules {
  readonly choose: readonly ToolChoiceRule[];
  readonly late: readonly LatenessRule[];
}

/** Sorts rules by kind; tool-choice rules by `order`, keeping registry order within one. */
export function sortPlannerRules(rules: readonly PlannerRule[]): PlannerRules {
  return {
    choose: rules.filter((rule): rule is ToolChoiceRule => 'choose' in rule).sort((a, b) => a.order - b.order),
    late: rules.filter((rule): rule is LatenessRule => 'late' in rule),
  };
}
