/**
 * Runs one round plan against one core and returns its trace.
 *
 * Order: build the world, the recorder and the servers; offer the core one Connector per
 * (server, audience) — each `connect()` opens a simulated link, a server session and an SDK
 * Client; start the policy service and each session's planner, which asks the core at seeded
 * intervals what it would disclose and sends planned calls through it; run until T_end (faults act in [0, T_heal), then the quiet tail with nominal
 * latency and no faults); stop the core. A round that exhausts its event budget is UNDECIDED,
 * never a pass.
 *
 * Fault model here (F15): a session's connection is cut at planned times before T_heal, and
 * until T_heal messages may be reordered; the core reconnects through its Connector.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { CoreFactory, SimConnection } from './cores/adapter.ts';
import { captureUnhandledRejections, errorText, guardCore, type CoreFailure, type WorldCore } from './cores/guard.ts';
import type { RoundPlan, ServerPlan } from './plan/types.ts';
import { createStreams, type Rng, type Streams } from './random.ts';
import { World } from './runtime/world.ts';
import { SimCatalogServer } from './server/catalog-server.ts';
import { isDisqualified, serverRulesFor, serverTraits } from './faults/index.ts';
import { TraceRecorder, type TraceEvent, type TraceHeader } from './trace/recorder.ts';
import { ConfirmationLog, SessionPlanner } from './planner.ts';
import { SimPolicyService } from './policy/policy-service.ts';
import { createLink, type Link } from './transport/link.ts';
import type { LinkDirection, LinkPolicy } from './transport/linkPolicy.ts';

/** The outcome of one round: its trace and how the world ended. */
export interface RoundRun {
  header: TraceHeader;
  events: TraceEvent[];
  status: 'settled' | 'undecided';
  reason: 'quiet' | 'horizon' | 'event_budget';
  eventsRun: number;
}

/** Everything a round's helpers share. */
interface RoundContext {
  world: World;
  plan: RoundPlan;
  recorder: TraceRecorder;
  streams: Streams;
  adapter: WorldCore;
  policy: SimPolicyService;
  confirmations: ConfirmationLog;
}

/** Runs `plan` with the core built by `core`; `coreName` goes into the trace header. */
export async function runRound(plan: RoundPlan, core: CoreFactory, coreName: string): Promise<RoundRun> {
  const world = new World({ eventBudget: plan.eventBudget });
  const recorder = new TraceRecorder(() => world.now());
  const streams = createStreams(plan.roundSeed);
  const policy = new SimPolicyService(plan.policy, world, recorder, streams.stream('run/policy'), plan.bounds.tHealMs, plan.nominalLatencyMs);
  const confirmations = new ConfirmationLog();
  const adapter = guardCore(core, {
    policySource: policy,
    policyPollMs: plan.policy.pollIntervalMs,
    leaseKey: plan.leaseKey,
    effectClasses: plan.policy.effectClasses,
    confirmations,
    clock: world.clock,
    scheduler: { after: (delayMs, fn) => ({ id: world.after(Math.max(0, Math.round(delayMs)), fn) }), cancel: (task) => world.cancel(task.id) },
    random: streams.stream('core/random'),
    sink: recorder.core,
    bounds: plan.bounds,
    timings: plan.timings,
  }, (failure) => recordCoreFailure(recorder, failure));
  const context: RoundContext = { world, plan, recorder, streams, adapter, policy, confirmations };
  const servers = plan.servers.map((server) => buildServer(context, server));
  world.schedule(plan.bounds.tHealMs, () => recorder.world('quiet'));
  // A rejection the core leaves unhandled is its failure, recorded where it happens (guard.ts).
  const restore = captureUnhandledRejections((reason) => recordCoreFailure(recorder, { during: 'unhandledRejection', reason: 'UNHANDLED_REJECTION', error: errorText(reason) }));
  let result;
  try {
    result = await world.run(plan.bounds.tEndMs, () => startRound(context, servers));
  } finally {
    restore();
  }
  adapter.stop();
  recorder.world('round_end', { status: result.status, reason: result.reason });
  const header: TraceHeader = { type: 'header', schema: 'catsim.trace.v1', seed: plan.seed, round: plan.round, scenario: plan.scenario, core: coreName, bounds: plan.bounds, faults: plan.faults };
  return { header, events: recorder.events, status: result.status, reason: result.reason, eventsRun: result.eventsRun };
}

/** Ground truth: the core failed to answer the world (judged CORE_FAILED by the oracle). */
function recordCoreFailure(recorder: TraceRecorder, failure: CoreFailure): void {
  recorder.world('core_failed', { during: failure.during, reason: failure.reason, error: failure.error });
}

/** A plain server with the fault rules its plan holds (built by the fault registry). */
function buildServer(context: RoundContext, server: ServerPlan): SimCatalogServer {
  const { world, plan, recorder, streams, policy } = context;
  const env = { now: () => world.now(), tHealMs: plan.bounds.tHealMs, stream: (name: string) => streams.stream(`run/${server.id}/${name}`) };
  return new SimCatalogServer(server, world, recorder, {
    pageRng: streams.stream(`run/${server.id}/pages`),
    rules: serverRulesFor(server, env),
    traits: serverTraits(server),
    disqualified: isDisqualified(server),
    leaseKey: plan.leaseKey,
    policyEpoch: (audience) => policy.current(audience).epoch,
  });
}

function startRound(context: RoundContext, servers: SimCatalogServer[]): void {
  context.policy.start((update) => context.adapter.pushPolicy(update));
  for (const server of servers) server.start();
  for (const server of servers) {
    for (const audience of server.plan.audiences) startSession(context, server, audience);
  }
}

/** Offers the core one catalog key, schedules its planned cuts, and starts its planner. */
function startSession(context: RoundContext, server: SimCatalogServer, audience: string): void {
  const { world, plan, recorder, streams, adapter } = context;
  const [tenant, role] = audience.split('.') as [string, string];
  const latency = streams.stream(`run/${server.plan.id}/${audience}/latency`);
  let current: Link | undefined;
  const connector = {
    connect: async (): Promise<SimConnection> => {
      const link = createLink(world, { policy: linkPolicy(world, plan, server.plan, latency), identity: server.identity(), authInfo: authFor(audience) });
      const client = adapter.createClient();
      await server.connect(link.server, audience);
      await client.connect(link.client);
      current = link;
      recorder.world('session_opened', { server: server.plan.id, audience, identity: server.identity() });
      return { client, identity: () => server.identity() };
    },
  };
  for (const atMs of server.plan.linkFaults.disconnectsAtMs[audience] ?? []) {
    world.schedule(atMs, () => {
      if (current === undefined || current.closed) return;
      recorder.world('disconnected', { server: server.plan.id, audience });
      current.disconnect();
    });
  }
  adapter.attach({ connector, tenant, role, endpointDigest: `sim:${server.plan.id}`, refreshers: plan.refreshersPerKey });
  new SessionPlanner(context, server, audience, streams.stream(`run/${server.plan.id}/${audience}/planner`)).start();
}

function authFor(audience: string): AuthInfo {
  return { token: 'sim', clientId: audience, scopes: [], extra: { audience } };
}

/**
 * Latency per message: the server's range until T_heal, nominal after. Until T_heal, F15
 * reorders messages, and an F3 late notification may be overtaken by later responses (it does
 * not block them head-of-line), so `reorder` is read per message, right after its latency.
 */
function linkPolicy(world: World, plan: RoundPlan, server: ServerPlan, rng: Rng): LinkPolicy {
  let reorder = false;
  return {
    get reorder() {
      return reorder;
    },
    dropNotification: () => false,
    latencyMs(direction: LinkDirection, message: JSONRPCMessage): number {
      const healed = world.now() >= plan.bounds.tHealMs;
      const [min, max] = healed ? plan.nominalLatencyMs : [server.latencyMsMin, server.latencyMsMax];
      const base = rng.int(min, max);
      const late = direction === 'toClient' && !('id' in message) && !healed && server.notifications.lateByMs > 0;
      reorder = !healed && (late || server.linkFaults.reorder);
      return base + (late ? server.notifications.lateByMs : 0);
    },
  };
}
