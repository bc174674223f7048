/**
 * The simulated planner of one session (the host's model and UI, from the catalog's point of
 * view). At seeded intervals it asks the core what it would disclose and logs what it was shown;
 * now and then it binds a call to a disclosed tool (a plan) and sends it through the core.
 *
 * Fault model: the faults' planner rules (sim/planner-rules.ts): F10 stale planners call late on
 * purpose (the plan is bound to an old snapshot); F17 guesses real tool names the session was
 * never shown; a model is not told of revocations, so for a while after one (F8) it keeps trying
 * the revoked tool, as it was still shown. Besides, some calls carry invalid arguments; for
 * non-READ tools of an unversioned server a human sometimes confirms; F22's model turns run at
 * their planned times. In the quiet tail every session probes each disclosed tool once with valid
 * arguments; ground truth says which probes a correct core must admit (I12). Everything it does is
 * ground truth, written by the world.
 */
import type { DisclosedTool, SimCallRequest } from './guard/adapter.ts';
import type { RoundPlan } from './plan/types.ts';
import type { Rng } from './random.ts';
import type { World } from './runtime/world.ts';
import type { SimCatalogServer } from './server/catalog-server.ts';
import type { SimPolicyService } from './policy/policy-service.ts';
import { worldContentDefect } from './plan/content-defects.ts';
import { worldDescriptorDigest } from './trace/digests.ts';
import type { TraceRecorder } from './trace/recorder.ts';
import { plainClone } from './internal/plain-clone.ts';
import { PLANNER_RULES, TURN_RULES } from './faults/index.ts';
import type { CallChoice } from './planner-rules.ts';
import type { WorldCore } from './guard/guard.ts';
import type { TurnPlan } from './plan/types.ts';
import { runModelTurn } from './turns/model-turn.ts';

/** Human confirmations given so far, by `${session}/${planId}`. */
export class ConfirmationLog {
  readonly #tokens = new Map<string, string>();

  give(session: string, planId: string): string {
    const token = `confirmed:${session}:${planId}`;
    this.#tokens.set(`${session}/${planId}`, token);
    return token;
  }

  verify(session: string, planId: string, token: string): boolean {
    return this.#tokens.get(`${session}/${planId}`) === token;
  }
}

/** What a planner shares with the world. */
export interface PlannerContext {
  world: World;
  plan: RoundPlan;
  recorder: TraceRecorder;
  adapter: WorldCore;
  policy: SimPolicyService;
  confirmations: ConfirmationLog;
  /** Whether the host is down (F18): a planner of a dead host asks and sends nothing. */
  hostDown?: () => boolean;
  /**
   * Counts a request of the world's to the core in flight until it settles (the early end's
   * bookkeeping, sim/tail/early-end.ts); absent: nothing counts.
   */
  track?: <T>(request: Promise<T>) => Promise<T>;
  /** F26: whether an emergency disable of `tool` of `server` was delivered to the core so far (absent: none). */
  emergencyDisabled?: (server: string, tool: string) => boolean;
  /** F31: whether a deprecation of the version with `descriptorDigest` of `server` was delivered so far (absent: none). */
  deprecated?: (server: string, descriptorDigest: string) => boolean;
}

type Disclosure = { key: string; generation: number; snapshotDigest: string; tools: DisclosedTool[] };
type PlanKind = 'normal' | 'stale' | 'guessed' | 'probe';

/** The planner of one session on one server. */
export class SessionPlanner {
  readonly session: string;
  readonly #tenant: string;
  readonly #role: string;
  #plans = 0;
  #turns = 0;
  #probed = false;
  #last: Disclosure | undefined;

  constructor(
    private readonly ctx: PlannerContext,
    private readonly server: SimCatalogServer,
    private readonly audience: string,
    private readonly rng: Rng,
  ) {
    this.session = `${server.plan.id}/${audience}`;
    [this.#tenant, this.#role] = audience.split('.') as [string, string];
  }

  /**
   * Schedules the ticks and the quiet-tail probe at `calls.probeAtMs`; in a round that may end
   * early (`plan.earlyEnd`) the early end sends the probe instead, through `probe`.
   */
  start(): void {
    const { world, plan } = this.ctx;
    world.schedule(this.#interval(), () => this.#tick());
    if (plan.earlyEnd !== true) world.schedule(plan.calls.probeAtMs, () => this.probe());
    if (!this.ctx.adapter.surfaceStage) return;
    for (const turn of this.server.plan.turns ?? []) {
      if (turn.audience === this.audience) world.schedule(turn.atMs, () => this.#modelTurn(turn));
    }
  }

  /**
   * F22: one model turn, right after a disclosure to the session (nothing is shown: no turn). The
   * world's baseline uses the grants now and marks those that changed less than B ago.
   */
  #modelTurn(turn: TurnPlan): void {
    const shown = this.ctx.hostDown?.() === true ? undefined : this.#disclose();
    if (shown === undefined) return;
    const { world, recorder, adapter, policy } = this.ctx;
    const context = {
      world,
      recorder,
      adapter,
      server: this.server.plan,
      currentViews: () => this.server.currentViews(),
      session: this.session,
      tenant: this.#tenant,
      role: this.#role,
      identity: this.server.identity(),
      shown,
      granted: new Set(policy.current(this.audience).grants),
      contested: policy.changedAfter(this.audience, world.now() - this.ctx.plan.bounds.revocationBoundMs),
      rules: TURN_RULES,
    };
    const turnRun = runModelTurn(context, turn, `${this.session}#m${this.#turns++}`);
    (this.ctx.track?.(turnRun) ?? turnRun).catch((error: unknown) => world.fail(error));
  }

  #interval(): number {
    const [min, max] = this.ctx.plan.plannerIntervalMs;
    return this.ctx.world.now() + this.rng.int(min, max);
  }

  /**
   * One planner step while faults act. The planner rests in the quiet tail (nothing there needs
   * it until the probe), which keeps rounds short without weakening any check.
   */
  #tick(): void {
    const shown = this.ctx.hostDown?.() === true ? undefined : this.#disclose();
    if (shown !== undefined && this.rng.chance(this.ctx.plan.calls.callFraction)) this.#planCall(shown);
    const next = this.#interval();
    if (next < this.ctx.plan.bounds.tHealMs) this.ctx.world.schedule(next, () => this.#tick());
  }

  /** Asks the core what it discloses now and logs it (ground truth of disclosure). */
  #disclose(): Disclosure | undefined {
    const { recorder, adapter } = this.ctx;
    const shown = adapter.disclose(this.session, this.#tenant, this.#role, this.server.identity());
    if (!shown.ok) {
      recorder.world('disclosure_refused', {
        session: this.session,
        server: this.server.plan.id,
        audience: this.audience,
        code: shown.code,
      });
      return undefined;
    }
    recorder.world('disclosure', {
      session: this.session,
      server: this.server.plan.id,
      audience: this.audience,
      key: shown.key,
      generation: shown.generation,
      snapshotDigest: shown.snapshotDigest,
      tools: shown.tools.map((tool) => tool.descriptorDigest),
    });
    this.#last = shown;
    return shown;
  }

  /**
   * One planned call: the tool (a rule's choice, else one of the shown), then, unless it is a
   * guess, whether a rule sends it late (F10), the arguments, the delay and the confirmation.
   */
  #planCall(shown: Disclosure): void {
    const calls = this.ctx.plan.calls;
    const call = this.#callChoice(shown);
    const chosen = firstOf(PLANNER_RULES.choose, (rule) => rule.choose(call));
    const tool = chosen?.tool ?? (shown.tools.length > 0 ? this.rng.pick(shown.tools) : undefined);
    if (tool === undefined) return;
    const guessed = chosen?.guessed === true;
    const lateBy = guessed ? undefined : firstOf(PLANNER_RULES.late, (rule) => rule.late(call, tool));
    const kind: PlanKind = guessed ? 'guessed' : lateBy !== undefined ? 'stale' : 'normal';
    const invalid = this.rng.chance(calls.invalidArgsFraction);
    const delayMs = lateBy !== undefined ? lateBy() : this.rng.int(1, 20);
    const request = this.#plan(shown, tool, kind, invalid, this.rng.chance(calls.confirmFraction), null);
    this.ctx.world.after(delayMs, () => this.#send(request));
  }

  /** What the planner rules (sim/planner-rules.ts) may read of this planner for a call planned from `shown`. */
  #callChoice(shown: Disclosure): CallChoice {
    const { world, policy, plan } = this.ctx;
    return {
      rng: this.rng,
      audience: this.audience,
      calls: plan.calls,
      shown: shown.tools,
      currentViews: () => this.server.currentViews(),
      revokedWithin: (windowMs) => policy.revokedSince(this.audience, world.now() - windowMs),
    };
  }

  /** Quiet tail: one probe per disclosed tool, valid arguments, confirmed where needed; once a round. */
  probe(): void {
    if (this.#probed) return;
    this.#probed = true;
    const shown = this.#disclose();
    if (shown === undefined) return;
    for (const tool of shown.tools) {
      const request = this.#plan(shown, tool, 'probe', false, true, this.#expectAdmit(shown, tool));
      this.ctx.world.after(this.rng.int(1, 20), () => this.#send(request));
    }
  }

  /**
   * Ground truth for a probe: a correct core must admit it when the server is healthy (no
   * disqualifying trait), the disclosed descriptor is the server's final one for this audience,
   * the audience holds the tool at the final epoch, the tool carries no planted defect, no emergency
   * disable of it was delivered (F26), no deprecation of its version was (F31), and the
   * world's own reading of the content checks finds none in it either (a captured catalog's real
   * descriptors may fail one; see plan/content-defects.ts).
   */
  #expectAdmit(shown: Disclosure, tool: DisclosedTool): boolean {
    if (this.server.disqualified()) return false;
    if (this.ctx.emergencyDisabled?.(this.server.plan.id, tool.name) === true) return false;
    if (this.ctx.deprecated?.(this.server.plan.id, tool.descriptorDigest) === true) return false;
    const view = this.server.currentViews()[this.audience] ?? [];
    const current = view.filter((t) => t.name === tool.name);
    if (current.length !== 1 || worldDescriptorDigest(current[0]) !== tool.descriptorDigest) return false;
    if (this.server.plan.planted.some((p) => worldDescriptorDigest(p.descriptor) === tool.descriptorDigest))
      return false;
    if (worldContentDefect(current[0], view) !== null) return false;
    if (shown.key !== `${this.server.identity()}|${this.audience}`) return false;
    return this.ctx.policy.current(this.audience).grants.includes(tool.name);
  }

  #plan(
    shown: Disclosure,
    tool: DisclosedTool,
    kind: PlanKind,
    invalidArgs: boolean,
    confirm: boolean,
    expectAdmit: boolean | null,
  ): SimCallRequest {
    const planId = `p${this.#plans++}`;
    const { recorder, confirmations } = this.ctx;
    recorder.world('plan_made', {
      session: this.session,
      planId,
      key: shown.key,
      generation: shown.generation,
      snapshotDigest: shown.snapshotDigest,
      tool: tool.name,
      descriptorDigest: tool.descriptorDigest,
      kind,
      expectAdmit,
    });
    const needsConfirmation = !this.server.plan.versioned && this.ctx.plan.policy.effectClasses[tool.name] !== 'READ';
    let confirmationToken: string | undefined;
    if (needsConfirmation && confirm) {
      confirmationToken = confirmations.give(this.session, planId);
      recorder.world('confirmation', { session: this.session, planId, token: confirmationToken });
    }
    return {
      callId: `${this.session}#${planId}`,
      planId,
      session: this.session,
      principal: `user:${this.session}`,
      tenant: this.#tenant,
      role: this.#role,
      identity: this.server.identity(),
      plan: {
        key: shown.key,
        generation: shown.generation,
        snapshotDigest: shown.snapshotDigest,
        toolName: tool.name,
        descriptorDigest: tool.descriptorDigest,
      },
      arguments: this.#arguments(tool.name, invalidArgs),
      ...(confirmationToken === undefined ? {} : { confirmationToken }),
    };
  }

  /** Sample arguments that fit the tool's schema, or deliberately broken ones. */
  #arguments(name: string, invalid: boolean): Record<string, unknown> {
    const args = plainClone(this.ctx.plan.sampleArgs[name] ?? {});
    if (!invalid) return args;
    const first = Object.keys(args)[0];
    if (first === undefined) return { unexpected_argument: true };
    args[first] = { wrong: 'type' };
    return args;
  }

  #send(request: SimCallRequest): void {
    if (this.ctx.hostDown?.() === true) return;
    // The identity is read when the call goes out: the connection may have rotated meanwhile.
    const call = this.ctx.adapter.call({ ...request, identity: this.server.identity() });
    void (this.ctx.track?.(call) ?? call).catch((error: unknown) => this.ctx.world.fail(error));
  }
}

/** The first answer of `rules`, in order, that is not undefined. */
function firstOf<R, T>(rules: readonly R[], answer: (rule: R) => T | undefined): T | undefined {
  for (const rule of rules) {
    const value = answer(rule);
    if (value !== undefined) return value;
  }
  return undefined;
}
