/**
 * The simulated policy service: grants per audience class, policy epochs, revocations and
 * grants (F8), pushed to the core and available by polling (SPEC section 7, "Revocation").
 *
 * Fault model: the faults' policy rules (sim/policy/policy-rules.ts; F8's): edits at planned
 * times, pushes lost until T_heal, and revocations set off by a call's execution, so that one
 * lands while a lease for the tool is live. Every push arrives after a seeded latency, so it can be
 * late; polls are never lost and answer after the nominal latency. Ground truth (`effect_policy`,
 * `policy_changed`, `policy_push`) goes to the trace.
 */
import type { PolicyPlan } from '../plan/types.ts';
import type { Rng } from '../random.ts';
import type { World } from '../runtime/world.ts';
import type { TraceRecorder } from '../trace/recorder.ts';
import type { PolicyEnv, PolicyRules } from './policy-rules.ts';

/** One audience's policy at one epoch, as pushed or polled. */
export interface PolicyUpdate {
  audience: string;
  epoch: number;
  grants: string[];
}

/** Where pushes go (the core under test). */
export type PolicyPushTarget = (update: PolicyUpdate) => void;

/** The policy service of one round. */
export class SimPolicyService {
  readonly #state = new Map<string, PolicyUpdate>();
  readonly #revocations: { audience: string; tool: string; atMs: number }[] = [];
  /** Every grant or revocation of a tool name, epoch 1's grants included (at their time). */
  readonly #changes: { audience: string; tool: string; atMs: number }[] = [];
  readonly #rules: PolicyRules;
  #pushTarget: PolicyPushTarget | undefined;

  /** `rulesFor` builds the round's policy rules (the registry's `policyRulesFor`) on this service. */
  constructor(
    private readonly plan: PolicyPlan,
    private readonly world: World,
    private readonly recorder: TraceRecorder,
    private readonly rng: Rng,
    tHealMs: number,
    private readonly nominalLatencyMs: readonly [number, number],
    rulesFor: (env: PolicyEnv) => PolicyRules,
  ) {
    this.#rules = rulesFor({
      now: () => world.now(),
      tHealMs,
      rng,
      holds: (audience, tool) => this.current(audience).grants.includes(tool),
    });
  }

  /** Writes the trusted effect policy and epoch 1 of every audience, and schedules the changes. */
  start(push: PolicyPushTarget): void {
    this.#pushTarget = push;
    this.recorder.world('effect_policy', { classes: this.plan.effectClasses });
    for (const audience of Object.keys(this.plan.grants).sort()) {
      const update = { audience, epoch: 1, grants: [...(this.plan.grants[audience] ?? [])].sort() };
      this.#state.set(audience, update);
      this.recorder.world('policy_changed', { ...update, revoked: [], granted: update.grants });
      for (const tool of update.grants) this.#changes.push({ audience, tool, atMs: this.world.now() });
      this.#push(update, push);
    }
    for (const edit of this.#rules.schedule) {
      this.world.schedule(edit.atMs, () => this.#apply(edit.audience, edit.revoke, edit.grant, push));
    }
  }

  /** A server executed a call of `tool` for `audience`: the rules' revocations (F8's mid-call ones) apply now. */
  callExecuted(audience: string, tool: string): void {
    const push = this.#pushTarget;
    if (push === undefined) return;
    for (const rule of this.#rules.callRevocation) {
      const revoke = rule.onCallExecuted(audience, tool);
      if (revoke.length > 0) this.#apply(audience, revoke, [], push);
    }
  }

  /** The current policy of an audience (what a poll returns); epoch 0 and no grants if unknown. */
  current(audience: string): PolicyUpdate {
    const state = this.#state.get(audience);
    return state === undefined ? { audience, epoch: 0, grants: [] } : { ...state, grants: [...state.grants] };
  }

  /** Tools revoked for `audience` since `sinceMs` (virtual ms), oldest first. */
  revokedSince(audience: string, sinceMs: number): string[] {
    return this.#revocations.filter((r) => r.audience === audience && r.atMs >= sinceMs).map((r) => r.tool);
  }

  /**
   * Tool names whose grant for `audience` changed (granted, epoch 1 included, or revoked) after
   * `afterMs` (virtual ms): a core may not know of those changes yet (F22's `contested` tools).
   */
  changedAfter(audience: string, afterMs: number): Set<string> {
    return new Set(this.#changes.filter((c) => c.audience === audience && c.atMs > afterMs).map((c) => c.tool));
  }

  /** A poll: answers after the nominal latency with the policy current at answer time. */
  poll(audience: string): Promise<PolicyUpdate> {
    return new Promise((resolve) => {
      this.world.after(this.rng.int(this.nominalLatencyMs[0], this.nominalLatencyMs[1]), () =>
        resolve(this.current(audience)),
      );
    });
  }

  #apply(audience: string, revoke: readonly string[], grant: readonly string[], push: PolicyPushTarget): void {
    const before = this.current(audience);
    const names = new Set(before.grants);
    const revoked = revoke.filter((name) => names.delete(name));
    const granted = grant.filter((name) => !names.has(name));
    for (const name of granted) names.add(name);
    const update = { audience, epoch: before.epoch + 1, grants: [...names].sort() };
    this.#state.set(audience, update);
    for (const tool of revoked) this.#revocations.push({ audience, tool, atMs: this.world.now() });
    for (const tool of [...revoked, ...granted]) this.#changes.push({ audience, tool, atMs: this.world.now() });
    this.recorder.world('policy_changed', { ...update, revoked, granted });
    this.#push(update, push);
  }

  /** Pushes an update, unless a rule loses it on the way. */
  #push(update: PolicyUpdate, push: PolicyPushTarget): void {
    const lost = this.#rules.pushLoss.some((rule) => rule.losesPush());
    this.recorder.world('policy_push', { audience: update.audience, epoch: update.epoch, delivered: !lost });
    if (lost) return;
    const copy = { ...update, grants: [...update.grants] };
    this.world.after(this.rng.int(this.plan.pushLatencyMs[0], this.plan.pushLatencyMs[1]), () => push(copy));
  }
}
