/**
 * The rules a fault gives the policy service (sim/policy/policy-service.ts), turmoil-style, one
 * method each: policy edits at planned times, pushes lost on the way, and revocations a call's
 * execution sets off. A fault builds them from the round's policy plan (`policyRules` in
 * sim/faults/fault.ts; F8's), never from the `faults` label, and the registry gathers them
 * (`policyRulesFor` in sim/faults/index.ts), so the policy service never imports a fault file.
 *
 * Order of calls, each kind in registry order: at the start, after epoch 1 is written and pushed,
 * every `schedule` edit is scheduled at its time; for every push, `losesPush` until one says it is
 * lost; after every call a server executes, `onCallExecuted`, whose tools are revoked at once.
 */
import type { Rng } from '../random.ts';

/** What a policy rule may use of the policy service of its round. */
export interface PolicyEnv {
  /** Virtual time, ms. */
  now(): number;
  readonly tHealMs: number;
  /** The policy service's own stream (a rule draws from it only as the header's order says). */
  readonly rng: Rng;
  /** Whether `audience` holds `tool` now. */
  holds(audience: string, tool: string): boolean;
}

/** One planned edit of an audience's grants: a new epoch at `atMs`. */
export interface PolicyEdit {
  readonly atMs: number;
  readonly audience: string;
  readonly revoke: readonly string[];
  readonly grant: readonly string[];
}

/** Edits at planned times. */
export interface PolicyScheduleRule {
  readonly schedule: readonly PolicyEdit[];
}

/** Whether the push being sent now is lost (it may draw from the env's stream). */
export interface PushLossRule {
  losesPush(): boolean;
}

/** The tools to revoke for `audience` now that a server executed a call of `tool` for it (none: []). */
export interface CallRevocationRule {
  onCallExecuted(audience: string, tool: string): readonly string[];
}

/** One policy rule: one of the kinds above. */
export type PolicyRule = PolicyScheduleRule | PushLossRule | CallRevocationRule;

/** A round's policy rules sorted by kind, each list in registry order. */
export interface PolicyRules {
  readonly schedule: readonly PolicyEdit[];
  readonly pushLoss: readonly PushLossRule[];
  readonly callRevocation: readonly CallRevocationRule[];
}

/** Sorts rules by their kind, keeping their order. */
export function sortPolicyRules(rules: readonly PolicyRule[]): PolicyRules {
  return {
    schedule: rules.flatMap((rule) => ('schedule' in rule ? rule.schedule : [])),
    pushLoss: rules.filter((rule): rule is PushLossRule => 'losesPush' in rule),
    callRevocation: rules.filter((rule): rule is CallRevocationRule => 'onCallExecuted' in rule),
  };
}
