/**
 * Runs one round plan against one core and returns its trace.
 *
 * Order: build the world, the recorder and the servers; connect one SDK Client per (server,
 * audience) over a simulated link; let the core attach; run until T_end (faults act in
 * [0, T_heal), then the quiet tail with nominal latency); stop the core. A round that exhausts
 * its event budget is UNDECIDED, never a pass.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { CoreAdapter, CoreFactory } from './cores/adapter.ts';
import type { RoundPlan, ServerPlan } from './plan/types.ts';
import { createStreams, type Rng } from './random.ts';
import { World } from './runtime/world.ts';
import { SimCatalogServer } from './server/catalog-server.ts';
import { TraceRecorder, type TraceEvent, type TraceHeader } from './trace/recorder.ts';
import { createLink } from './transport/link.ts';
import type { LinkDirection, LinkPolicy } from './transport/linkPolicy.ts';

/** The outcome of one round: its trace and how the world ended. */
export interface RoundRun {
  header: TraceHeader;
  events: TraceEvent[];
  status: 'settled' | 'undecided';
  reason: 'quiet' | 'horizon' | 'event_budget';
  eventsRun: number;
}

/** Runs `plan` with the core built by `core`; `coreName` goes into the trace header. */
export async function runRound(plan: RoundPlan, core: CoreFactory, coreName: string): Promise<RoundRun> {
  const world = new World({ eventBudget: plan.eventBudget });
  const recorder = new TraceRecorder(() => world.now());
  const streams = createStreams(plan.roundSeed);
  const adapter = core({
    clock: world.clock,
    scheduler: { after: (delayMs, fn) => ({ id: world.after(Math.max(0, Math.round(delayMs)), fn) }), cancel: (task) => world.cancel(task.id) },
    random: streams.stream('core/random'),
    sink: recorder.core,
    bounds: plan.bounds,
    timings: plan.timings,
  });
  const servers = plan.servers.map((server) => new SimCatalogServer(server, world, recorder, streams.stream(`run/${server.id}/pages`), plan.bounds.tHealMs));
  world.schedule(plan.bounds.tHealMs, () => recorder.world('quiet'));
  const result = await world.run(plan.bounds.tEndMs, () => startRound(world, plan, recorder, servers, adapter, streams));
  adapter.stop();
  recorder.world('round_end', { status: result.status, reason: result.reason });
  const header: TraceHeader = { type: 'header', schema: 'catsim.trace.v1', seed: plan.seed, round: plan.round, scenario: plan.scenario, core: coreName, bounds: plan.bounds, faults: plan.faults };
  return { header, events: recorder.events, status: result.status, reason: result.reason, eventsRun: result.eventsRun };
}

async function startRound(world: World, plan: RoundPlan, recorder: TraceRecorder, servers: SimCatalogServer[], adapter: CoreAdapter, streams: ReturnType<typeof createStreams>): Promise<void> {
  for (const server of servers) server.start();
  const connections: Promise<void>[] = [];
  for (const server of servers) {
    for (const audience of server.plan.audiences) {
      connections.push(connect(world, plan, recorder, server, audience, adapter, streams.stream(`run/${server.plan.id}/${audience}/latency`)));
    }
  }
  await Promise.all(connections);
}

async function connect(world: World, plan: RoundPlan, recorder: TraceRecorder, server: SimCatalogServer, audience: string, adapter: CoreAdapter, rng: Rng): Promise<void> {
  const [tenant, role] = audience.split('.') as [string, string];
  const authInfo: AuthInfo = { token: 'sim', clientId: audience, scopes: [], extra: { audience } };
  const link = createLink(world, { policy: linkPolicy(world, plan, server.plan, rng), identity: server.plan.identity, authInfo });
  const client = adapter.createClient();
  await server.connect(link.server, audience);
  await client.connect(link.client);
  recorder.world('session_opened', { server: server.plan.id, audience, identity: link.identity });
  adapter.attach({ client, identity: () => link.identity, tenant, role, endpointDigest: `sim:${server.plan.id}` });
}

/** Latency per message: the server's range until T_heal, nominal after; F3 late notifications. */
function linkPolicy(world: World, plan: RoundPlan, server: ServerPlan, rng: Rng): LinkPolicy {
  // A late notification may be overtaken by later responses (it is not head-of-line blocking
  // them), so `reorder` is true exactly for the message whose latency was just drawn late.
  let late = false;
  return {
    get reorder() {
      return late;
    },
    dropNotification: () => false,
    latencyMs(direction: LinkDirection, message: JSONRPCMessage): number {
      const healed = world.now() >= plan.bounds.tHealMs;
      const [min, max] = healed ? plan.nominalLatencyMs : [server.latencyMsMin, server.latencyMsMax];
      const base = rng.int(min, max);
      late = direction === 'toClient' && !('id' in message) && !healed && server.notifications.lateByMs > 0;
      return base + (late ? server.notifications.lateByMs : 0);
    },
  };
}
