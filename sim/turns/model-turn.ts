/**
 * One model turn of a session (F22; SPEC section 8, seed 003), from the world's side: the planner
 * has just been shown a generation (`disclosure`); it reserves a model request in its own request
 * ledger, writes the world's baseline for that disclosure (`model_turn`), and hands the core's
 * surface stage the turn: the host's hooks (the plan's, then a world observer), the late stage,
 * a capacity, the ledger and the simulated model. Everything the core does reaches the world
 * through those ports and is written as ground truth: the request's tools after the hooks and
 * after the late stage (`request_surface`), every settlement (`request_settled`), what the model
 * received (`model_received`), and when the turn ended (`model_turn_ended`).
 *
 * Fault model: the hooks and late stages of the registry's turn rules (sim/turns/turn-rules.ts; F22's). The ledger refuses a
 * second settlement by throwing, as a real one must; the model reads the tools when it receives
 * them (a later edit of the request cannot change what it saw).
 */
import type {
  DisclosedTool,
  ModelTurn,
  TurnHook,
  TurnLedger,
  TurnRejection,
  TurnRequest,
  TurnTool,
} from '../guard/adapter.ts';
import type { WorldCore } from '../guard/guard.ts';
import type { ServerPlan, ToolDescriptor, TurnPlan } from '../plan/types.ts';
import type { World } from '../runtime/world.ts';
import type { TraceRecorder } from '../trace/recorder.ts';
import { behaviourOf, type HookEnv, type TurnRules } from './turn-rules.ts';
import { logicalTool, seenTools, surfaceSize, worldBaseline, type WorldBaselineTool } from './world-surface.ts';
import type { WorldFields } from '../../contract/trace/types.ts';

/** What a turn needs from the planner that runs it. */
export interface TurnContext {
  world: World;
  recorder: TraceRecorder;
  adapter: WorldCore;
  server: ServerPlan;
  /** The server's current views (for `add-tool`). */
  currentViews(): Readonly<Record<string, readonly ToolDescriptor[]>>;
  session: string;
  tenant: string;
  role: string;
  identity: string;
  /** The disclosure just shown to the session. */
  shown: { key: string; generation: number; tools: readonly DisclosedTool[] };
  /** Tool names the audience holds now, and those whose grant changed less than B ago. */
  granted: ReadonlySet<string>;
  contested: ReadonlySet<string>;
  /** What the hook kinds and late stages do: the registry's turn rules (F22's). */
  rules: TurnRules;
}

/** An error a real request ledger raises for a second settlement. */
class AlreadySettled extends Error {
  readonly code = 'ALREADY_SETTLED';
  constructor(requestId: string) {
    super(`request ${requestId} is already settled`);
    this.name = 'SettlementError';
  }
}

/** Runs one planned turn with request id `requestId`; resolves when the core's `modelTurn` settled. */
export async function runModelTurn(context: TurnContext, plan: TurnPlan, requestId: string): Promise<void> {
  const { recorder, adapter } = context;
  const baseline = worldBaseline(context.server, context.shown.tools, context.granted, context.contested);
  const capacity = capacityOf(plan, baseline);
  recorder.world('model_turn', {
    session: context.session,
    requestId,
    key: context.shown.key,
    generation: context.shown.generation,
    hooks: [...plan.hooks],
    late: plan.late,
    harmless: context.rules.harmless(plan),
    baseline: baseline.map(({ name, digest, contested }) => ({ name, digest, contested })),
    capacity: capacity?.event ?? null,
  });
  const env = hookEnv(context, plan);
  const turn: ModelTurn = {
    requestId,
    session: context.session,
    tenant: context.tenant,
    role: context.role,
    identity: context.identity,
    hooks: [
      ...plan.hooks.map(
        (kind): TurnHook => ({
          name: kind,
          transform: (request) => behaviourOf(context.rules.hooks, kind)(request, env),
        }),
      ),
      observer(recorder, requestId),
    ],
    context: {
      messages: ['compare these two funds', 'and their fees'],
      evidence: [],
      published: ['an answer already published'],
    },
    late: (request) => lateStage(context, plan, env, request, requestId),
    ...(capacity === null ? {} : { capacity: { [capacity.event.limit]: capacity.event.available } }),
    ledger: worldLedger(recorder, requestId),
    model: (request) => recorder.world('model_received', { requestId, tools: seenTools(request?.tools) }),
  };
  await adapter.modelTurn(turn);
  recorder.world('model_turn_ended', { requestId });
}

type TurnCapacity = NonNullable<WorldFields<'model_turn'>['capacity']>;

/** The plan's relative capacity as figures of this baseline; null when none (or a short one cannot be). */
function capacityOf(plan: TurnPlan, baseline: readonly WorldBaselineTool[]): { event: TurnCapacity } | null {
  if (plan.capacity === null) return null;
  const { limit, fit } = plan.capacity;
  const requiredMin = surfaceSize(
    baseline.filter((tool) => !tool.contested).map((tool) => tool.tool),
    limit,
  );
  const requiredMax = surfaceSize(
    baseline.map((tool) => tool.tool),
    limit,
  );
  if (fit === 'short' && requiredMin === 0) return null;
  return { event: { limit, available: fit === 'short' ? requiredMin - 1 : requiredMax, requiredMin, requiredMax } };
}

function hookEnv(context: TurnContext, plan: TurnPlan): HookEnv {
  const { world } = context;
  return {
    after: (ms, fn) => {
      world.after(ms, fn);
    },
    wait: (ms) =>
      new Promise((resolve) => {
        world.after(ms, () => resolve());
      }),
    unlistedTool: (present) => unlistedTool(context, present, plan.pick),
    pick: plan.pick,
    restores: [],
  };
}

/** A real tool of the server (any audience's current view) whose name is not on the request. */
function unlistedTool(context: TurnContext, present: readonly string[], pick: number): TurnTool | null {
  const names = new Set(present);
  const candidates = Object.keys(context.currentViews())
    .sort()
    .flatMap((audience) => context.currentViews()[audience] ?? [])
    .filter(
      (descriptor) =>
        typeof descriptor.name === 'string' &&
        !names.has(descriptor.name) &&
        typeof descriptor.inputSchema === 'object' &&
        descriptor.inputSchema !== null,
    );
  const descriptor = candidates[Math.floor(pick * candidates.length)];
  return descriptor === undefined ? null : structuredClone(logicalTool(descriptor));
}

/** The world's last hook: it only writes what the pipeline left. */
function observer(recorder: TraceRecorder, requestId: string): TurnHook {
  return {
    name: 'world-observer',
    transform: (request) =>
      recorder.world('request_surface', { requestId, stage: 'hooks', tools: seenTools(request.tools) }),
  };
}

/** The late stage: after its preparation time, its edit (if any), then what it left is written. */
function lateStage(
  context: TurnContext,
  plan: TurnPlan,
  env: HookEnv,
  request: TurnRequest,
  requestId: string,
): Promise<void> {
  return new Promise((resolve) => {
    context.world.after(plan.lateMs, () => {
      if (plan.late !== null) void behaviourOf(context.rules.late, plan.late)(request, env);
      context.recorder.world('request_surface', { requestId, stage: 'late', tools: seenTools(request.tools) });
      resolve();
    });
  });
}

/** The request owner's ledger: each settlement is written; a second one is refused by throwing. */
function worldLedger(recorder: TraceRecorder, requestId: string): TurnLedger {
  let settled = false;
  const settle = (fields: Omit<WorldFields<'request_settled'>, 'requestId' | 'accepted'>): void => {
    // Written field by field in the documented order (accepted comes third): a spread would put
    // accepted last, and the trace's key order is what makes it byte-stable.
    recorder.world('request_settled', {
      requestId,
      settlement: fields.settlement,
      accepted: !settled,
      code: fields.code,
      check: fields.check,
      field: fields.field,
      limit: fields.limit,
    });
    if (settled) throw new AlreadySettled(requestId);
    settled = true;
  };
  return {
    dispatched: () => settle({ settlement: 'dispatched', code: null, check: null, field: null, limit: null }),
    preDispatchRejected: (rejection: TurnRejection) =>
      settle({ settlement: 'preDispatchRejected', ...rejectionFields(rejection) }),
  };
}

const CODES = new Set(['SURFACE_MISMATCH', 'CAPACITY_EXCEEDED', 'HOOK_FAILED', 'NO_ADMISSION_FACTS']);
const CHECKS = new Set(['early', 'final']);
const FIELDS = new Set(['count', 'order', 'name', 'description', 'inputSchema', 'unadmitted']);
const LIMITS = new Set(['toolCountMax', 'surfaceBytesMax']);

/** The rejection's fields the trace keeps; anything outside the core API is written as null. */
function rejectionFields(
  rejection: TurnRejection,
): Pick<WorldFields<'request_settled'>, 'code' | 'check' | 'field' | 'limit'> {
  const value = rejection as Partial<TurnRejection> | undefined;
  const member = <T>(allowed: Set<string>, candidate: unknown): T | null =>
    typeof candidate === 'string' && allowed.has(candidate) ? (candidate as T) : null;
  return {
    code: member(CODES, value?.code),
    check: member(CHECKS, value?.check),
    field: member(FIELDS, value?.mismatch?.field),
    limit: member(LIMITS, value?.limit),
  };
}
