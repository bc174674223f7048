/**
 * The fault registry: every fault of the fault menu (SPEC section 10), in menu order. This list is
 * the only place fault ids are written down: the `FaultId` type, the scenario and plan schemas'
 * fault lists, the summary's "faults enabled" line and `catsim run --help` are derived from it.
 *
 * Adding a fault is adding one file beside these and one line here (CONTRIBUTING.md).
 */
import { F1 } from './f01-change-between-pages.ts';
import { F2 } from './f02-aba.ts';
import { F3 } from './f03-list-changed.ts';
import { F4 } from './f04-revision-moves-alone.ts';
import { F5 } from './f05-cursors.ts';
import { F6 } from './f06-duplicate-names.ts';
import { F7 } from './f07-identity-rotation.ts';
import { F8 } from './f08-revocation.ts';
import { F9 } from './f09-racing-refreshers.ts';
import { F10 } from './f10-stale-planner.ts';
import { F11 } from './f11-restart.ts';
import { F12 } from './f12-unversioned.ts';
import { F13 } from './f13-planted-defects.ts';
import { F14 } from './f14-lying-annotations.ts';
import { F15 } from './f15-transport.ts';
import { F16 } from './f16-tenant-twins.ts';
import { F17 } from './f17-guessed-names.ts';
import { F22 } from './f22-surface-hooks.ts';
import { F18 } from './f18-host-restart.ts';
import { F19 } from './f19-rollback-triggers.ts';
import { F20 } from './f20-notification-bursts.ts';
import { F21 } from './f21-auth-gated-listing.ts';
import { F23 } from './f23-over-limit-catalog.ts';
import { F24 } from './f24-scope-mixed.ts';
import { F25 } from './f25-public-varies.ts';
import { F26 } from './f26-emergency-disable.ts';
import { F27 } from './f27-listen-stream.ts';
import { F28 } from './f28-cursor-node-swap.ts';
import { F29 } from './f29-gateway-drops-notifications.ts';
import { F30 } from './f30-ttl.ts';
import { F31 } from './f31-deprecated-binding.ts';
import { F32 } from './f32-description-change.ts';
import { F33 } from './f33-output-schema-violation.ts';
import { F34 } from './f34-alias-flip.ts';
import { F35 } from './f35-version-removal.ts';
import { F36 } from './f36-disguised-breaking-change.ts';
import { F37 } from './f37-backup-endpoint.ts';
import { EQUIVOCATION } from './equivocation.ts';
import { ERAS } from './eras.ts';
import type { FaultDefinition } from './fault.ts';
import type { PolicyPlan, RoundPlan, ServerPlan } from '../plan/types.ts';
import { sortRules, type RuleEnv, type ServerRules } from '../server/rules.ts';
import type { LinkRule, SessionEpisode } from '../transport/link-rules.ts';
import { mergeTurnRules, type TurnRules } from '../turns/turn-rules.ts';
import { sortPolicyRules, type PolicyEnv, type PolicyRules } from '../policy/policy-rules.ts';
import { sortPlannerRules, type PlannerRules } from '../planner-rules.ts';

/** The fault menu, in order: the faults a scenario lists in `faults` and swarm testing enables. */
export const FAULTS = [
  F1,
  F2,
  F3,
  F4,
  F5,
  F6,
  F7,
  F8,
  F9,
  F10,
  F11,
  F12,
  F13,
  F14,
  F15,
  F16,
  F17,
  F18,
  F19,
  F20,
  F21,
  F22,
  F23,
  F24,
  F25,
  F26,
  F27,
  F28,
  F29,
  F30,
  F31,
  F32,
  F33,
  F34,
  F35,
  F36,
  F37,
] as const;

/**
 * F37's backup endpoint of a server in its round, or undefined where F37 does not act (no backup
 * planned, or a server the era mix made modern): what the round's outage, its refused connections
 * and `attachBackup` read (sim/round.ts).
 */
export { activeBackup } from './f37-backup-endpoint.ts';

/** Faults a scenario switches on for every round instead of listing them (equivocation). */
export const SCENARIO_FAULTS = [EQUIVOCATION, ERAS] as const;

/** Every fault the simulator knows: the menu, then the scenario-level ones. */
export const ALL_FAULTS: readonly FaultDefinition[] = [...FAULTS, ...SCENARIO_FAULTS];

/**
 * Probes no fault owns: they show that the core's own defences were exercised, whatever the
 * faults (invalid arguments from the planners, a generation that expired while refreshes failed).
 */
export const CORE_ONLY_PROBES: readonly string[] = ['args-refused', 'expired-refused'];

/**
 * The probes a campaign of `faults` (a scenario's `faults`) cannot be asked to reach: those that
 * only menu faults outside the list name (F18's, in a scenario without F18). Every other probe is
 * owed by the default probe gate.
 */
export function probesOfAbsentFaults(faults: readonly string[]): Set<string> {
  const listed = new Set(faults);
  const owed = new Set(
    ALL_FAULTS.filter(
      (fault) => listed.has(fault.id) || !(FAULTS as readonly FaultDefinition[]).includes(fault),
    ).flatMap((fault) => fault.probes),
  );
  return new Set(FAULTS.flatMap((fault) => fault.probes).filter((name) => !owed.has(name)));
}

/** A fault id of the menu: `F1` .. `F34`. */
export type FaultId = (typeof FAULTS)[number]['id'];

/** The menu's ids, in order. */
export const FAULT_IDS: readonly FaultId[] = FAULTS.map((fault) => fault.id);

/** The menu's ids as a phrase for messages and schema titles, e.g. `F1..F18`. */
export const FAULT_ID_RANGE = `${FAULT_IDS[0]}..${FAULT_IDS.at(-1)}`;

/** Whether `id` names a fault of the menu. */
export function isFaultId(id: string): id is FaultId {
  return (FAULT_IDS as readonly string[]).includes(id);
}

/**
 * The menu faults `plan` still holds, in menu order: what a shrunk plan's `faults` label says
 * (a reduction that removes a fault's last trace removes its label too).
 */
export function faultsPresentIn(plan: RoundPlan): FaultId[] {
  return FAULTS.filter((fault) => fault.presentIn(plan)).map((fault) => fault.id);
}

/** The fault rules of one server, built from its plan by every fault in registry order. */
export function serverRulesFor(server: ServerPlan, env: RuleEnv): ServerRules {
  return sortRules(ALL_FAULTS.flatMap((fault) => fault.serverRules?.(server, env) ?? []));
}

/** The persistent traits of a server as written in `server_up`, in registry order (F5, F6, F12, F13, equivocation). */
export function serverTraits(server: ServerPlan): string[] {
  return ALL_FAULTS.flatMap((fault) => fault.traits?.(server) ?? []);
}

/** Whether some fault planned on the server exempts it from liveness (SPEC section 10's disqualifying traits). */
export function isDisqualified(server: ServerPlan): boolean {
  return ALL_FAULTS.some((fault) => fault.disqualifies?.(server) ?? false);
}

/** The fault rules of the links of one server's sessions, in registry order. */
export function linkRulesFor(server: ServerPlan, env: RuleEnv): LinkRule[] {
  return ALL_FAULTS.flatMap((fault) => fault.linkRules?.(server, env) ?? []);
}

/** The planned episodes of one session's connection (F15's cuts), in registry order. */
export function sessionEpisodesFor(server: ServerPlan, audience: string): SessionEpisode[] {
  return ALL_FAULTS.flatMap((fault) => fault.sessionEpisodes?.(server, audience) ?? []);
}

/** The model turns' rules of every fault, merged (sim/turns/turn-rules.ts). */
export const TURN_RULES: TurnRules = mergeTurnRules(ALL_FAULTS.flatMap((fault) => fault.turnRules ?? []));

/** The planners' rules of every fault, by kind (sim/planner-rules.ts). */
export const PLANNER_RULES: PlannerRules = sortPlannerRules(ALL_FAULTS.flatMap((fault) => fault.plannerRules ?? []));

/** The policy service's rules of a round, built from its policy plan by every fault in registry order. */
export function policyRulesFor(policy: PolicyPlan, env: PolicyEnv): PolicyRules {
  return sortPolicyRules(ALL_FAULTS.flatMap((fault) => fault.policyRules?.(policy, env) ?? []));
}
