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
 * Fault model here: none of its own. Messages take the server's latency range until T_heal and
 * the nominal one after; what else happens to a session's links (F3's late notifications, F15's
 * reordering and cuts) is the rules and episodes the fault registry builds from the plan. The
 * core reconnects through its Connector.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CoreFactory, SimConnection, TransportHandshake } from './guard/adapter.ts';
import { captureUncaughtExceptions, captureUnhandledRejections, errorText, type CoreFailure } from './guard/guard.ts';
import { HostProcess, isHostDown, type WorldConnector } from './host/host-process.ts';
import type { RollbackTriggerPlan, RoundPlan, ServerPlan } from './plan/types.ts';
import { createStreams, type Rng, type Streams } from './random.ts';
import { World } from './runtime/world.ts';
import { SimCatalogServer } from './server/catalog-server.ts';
import { BACKUP_BUILD, backupIdentityOf } from './server/backup-face.ts';
import { CoreContractError } from './trace/core-contract-error.ts';
import {
  activeBackup,
  isDisqualified,
  linkRulesFor,
  policyRulesFor,
  serverRulesFor,
  serverTraits,
  sessionEpisodesFor,
} from './faults/index.ts';
import { onTheWire } from './faults/eras.ts';
import { TraceRecorder, type TraceEvent, type TraceHeader } from './trace/recorder.ts';
import { ConfirmationLog, SessionPlanner } from './planner.ts';
import { SimPolicyService } from './policy/policy-service.ts';
import { createHttpLink } from './transport/http-link.ts';
import { createLink, type WireLink } from './transport/link.ts';
import type { SessionControl } from './transport/link-rules.ts';
import type { RuleEnv } from './server/rules.ts';
import { EarlyEnd } from './tail/early-end.ts';
import { operatorManifestsOf } from './host/operator-manifests.ts';
import { worldDescriptorDigest } from './trace/digests.ts';

/** The outcome of one round: its trace and how the world ended. */
export interface RoundRun {
  header: TraceHeader;
  events: TraceEvent[];
  status: 'settled' | 'undecided';
  /** `done`: the round ended before T_end, its obligations discharged (sim/tail/early-end.ts). */
  reason: 'quiet' | 'horizon' | 'done' | 'event_budget';
  eventsRun: number;
}

/** Observers of a round's machinery, for benchmarks and diagnostics; none changes the round. */
export interface RoundObserver {
  /** Called with each link a session opens (before either side connects), its server and audience. */
  linkOpened?(link: WireLink, server: string, audience: string): void;
}

/** Everything a round's helpers share. */
interface RoundContext {
  world: World;
  plan: RoundPlan;
  recorder: TraceRecorder;
  streams: Streams;
  adapter: HostProcess;
  /** Whether the host is down (F18): planners ask and send nothing meanwhile. */
  hostDown: () => boolean;
  policy: SimPolicyService;
  confirmations: ConfirmationLog;
  observer: RoundObserver | undefined;
  /** F26: the delivered emergency disables so far, as `<server>\0<tool>`. */
  disabledOrders: Set<string>;
  /** F26: whether an emergency disable of `tool` of `server` was delivered to the core so far. */
  emergencyDisabled: (server: string, tool: string) => boolean;
  /** The sessions' planners, in the order they started. */
  planners: SessionPlanner[];
  /** Counts a request of the world's to the core in flight (the early end's), or hands it back as it is. */
  track: <T>(request: Promise<T>) => Promise<T>;
  /** F31: the descriptor digests of delivered deprecations so far, as `<server>\0<digest>`. */
  deprecatedDigests: Set<string>;
  /** F31: whether a deprecation of the version with `descriptorDigest` of `server` was delivered to the core so far. */
  deprecated: (server: string, descriptorDigest: string) => boolean;
  /** F35: the versions (descriptor digests) of each walk, by `<server>\0<tool>`, fixed by its first order. */
  lifecycleDigests: Map<string, string[]>;
}

/**
 * Runs `planned` (its servers as their era's wire carries their tools, sim/faults/eras.ts
 * `onTheWire`) with the core built by `core`; `coreName` goes into the trace header. `observer`
 * (optional) sees the round's links; it must not change what they carry.
 * @throws CoreContractError when the core emitted an observation outside `catsim.trace.v1`: the
 *   round cannot be judged, which is a testbed failure (exit 3). (An answer to the world outside
 *   the core API, a disclosure included, is the core's failure instead: `core_failed`, guard.ts.)
 */
export async function runRound(
  planned: RoundPlan,
  core: CoreFactory,
  coreName: string,
  observer?: RoundObserver,
): Promise<RoundRun> {
  // Every server's tools as its era's wire carries them (a 2026-07-28 server's codec strips the
  // fields that revision deleted), so that the world records what the core can read.
  const wired = planned.servers.map(onTheWire);
  const plan = wired.every((server, index) => server === planned.servers[index])
    ? planned
    : { ...planned, servers: wired };
  // A throw from the core's own setTimeout/setInterval callback is its failure, as one from
  // env.scheduler.after is (guard.ts); a dead boot's code still unwinding (F18) is not.
  const world = new World({
    eventBudget: plan.eventBudget,
    timerFailure: (error) =>
      isHostDown(error) ||
      recordCoreFailure(recorder, { during: 'scheduled', reason: 'THREW', error: errorText(error) }),
  });
  const recorder = new TraceRecorder(() => world.now());
  const streams = createStreams(plan.roundSeed);
  const policy = new SimPolicyService(
    plan.policy,
    world,
    recorder,
    streams.stream('run/policy'),
    plan.bounds.tHealMs,
    plan.nominalLatencyMs,
    (env) => policyRulesFor(plan.policy, env),
  );
  const confirmations = new ConfirmationLog();
  // F32: the operator's manifest files, written down before the core starts and is handed them.
  const manifests = operatorManifestsOf(plan);
  for (const described of manifests?.servers ?? []) recorder.world('operator_manifest', { ...described });
  const adapter = new HostProcess({
    factory: core,
    env: {
      policySource: policy,
      policyPollMs: plan.policy.pollIntervalMs,
      leaseKey: plan.leaseKey,
      effectClasses: plan.policy.effectClasses,
      confirmations,
      clock: world.clock,
      scheduler: {
        after: (delayMs, fn) => ({ id: world.afterInBackground(Math.max(0, Math.round(delayMs)), fn) }),
        cancel: (task) => world.cancel(task.id),
      },
      random: streams.stream('core/random'),
      sink: recorder.core,
      bounds: plan.bounds,
      timings: plan.timings,
      ...(manifests === undefined ? {} : { manifestFiles: manifests.files }),
    },
    randomOf: (boot) => streams.stream(`core/random/boot/${boot}`),
    restarts: plan.hostRestarts ?? [],
    tHealMs: plan.bounds.tHealMs,
    recorder,
    schedule: (atMs, fn) => world.schedule(atMs, fn),
    now: () => world.now(),
    onFailure: (failure) => recordCoreFailure(recorder, failure),
  });
  const disabledOrders = new Set<string>();
  const planners: SessionPlanner[] = [];
  let earlyEnd: EarlyEnd | undefined;
  const deprecatedDigests = new Set<string>();
  const context: RoundContext = {
    world,
    plan,
    recorder,
    streams,
    adapter,
    hostDown: () => adapter.down,
    policy,
    confirmations,
    observer,
    disabledOrders,
    emergencyDisabled: (server, tool) => disabledOrders.has(`${server}\u0000${tool}`),
    planners,
    track: (request) => earlyEnd?.track(request) ?? request,
    deprecatedDigests,
    deprecated: (server, descriptorDigest) => deprecatedDigests.has(`${server}\u0000${descriptorDigest}`),
    lifecycleDigests: new Map(),
  };
  const servers = plan.servers.map((server) => buildServer(context, server));
  if (plan.earlyEnd === true) {
    earlyEnd = new EarlyEnd({
      world,
      plan,
      servers,
      probe: () => {
        for (const planner of planners) planner.probe();
      },
      hostDown: () => adapter.down,
    });
    recorder.listener = earlyEnd.observe;
  }
  world.schedule(plan.bounds.tHealMs, () => recorder.world('quiet'));
  // A rejection the core leaves unhandled is its failure, recorded where it happens (guard.ts).
  // A dead boot's code still unwinding (F18) is not a failure of the core: in a real crash it would not run.
  const restore = captureUnhandledRejections(
    (reason) =>
      isHostDown(reason) ||
      recordCoreFailure(recorder, {
        during: 'unhandledRejection',
        reason: 'UNHANDLED_REJECTION',
        error: errorText(reason),
      }),
  );
  // So is a throw from a callback it queued with queueMicrotask (Node reports it as uncaught).
  const restoreExceptions = captureUncaughtExceptions(
    (error) =>
      isHostDown(error) ||
      recordCoreFailure(recorder, { during: 'scheduled', reason: 'THREW', error: errorText(error) }),
  );
  let result;
  try {
    result = await world.run(plan.bounds.tEndMs, () => {
      startRound(context, servers);
      earlyEnd?.start();
    });
  } finally {
    restoreExceptions();
    restore();
  }
  adapter.stop();
  recorder.world('round_end', { status: result.status, reason: result.reason });
  const breach = recorder.breach;
  if (breach !== null) throw new CoreContractError({ core: coreName, round: plan.round, ...breach });
  // The coalescing delay is a timing of the plan, and a bound for the oracle (I19); so is the
  // refresh interval (I33), written only in rounds with a 2026-07-28 server, so that the traces of
  // all-legacy rounds (every round of a scenario without `eraMix`) stay byte-identical.
  const modern = plan.servers.some((server) => server.era === 'modern' || server.era === 'gateway');
  const bounds = {
    ...plan.bounds,
    listChangedDelayMs: plan.timings.listChangedDelayMs,
    ...(modern ? { refreshIntervalMs: plan.timings.refreshIntervalMs } : {}),
  };
  const header: TraceHeader = {
    type: 'header',
    schema: 'catsim.trace.v1',
    seed: plan.seed,
    round: plan.round,
    scenario: plan.scenario,
    core: coreName,
    bounds,
    faults: plan.faults,
  };
  return { header, events: recorder.events, status: result.status, reason: result.reason, eventsRun: result.eventsRun };
}

/** Ground truth: the core failed to answer the world (judged CORE_FAILED by the oracle). */
function recordCoreFailure(recorder: TraceRecorder, failure: CoreFailure): void {
  recorder.world('core_failed', { during: failure.during, reason: failure.reason, error: failure.error });
}

/** A plain server with the fault rules its plan holds (built by the fault registry). */
function buildServer(context: RoundContext, server: ServerPlan): SimCatalogServer {
  const { world, plan, recorder, policy } = context;
  return new SimCatalogServer(server, world, recorder, {
    pageRng: context.streams.stream(`run/${server.id}/pages`),
    rules: serverRulesFor(server, ruleEnv(context, server)),
    traits: serverTraits(server),
    disqualified: isDisqualified(server),
    leaseKey: plan.leaseKey,
    policyEpoch: (audience) => policy.current(audience).epoch,
    onCallExecuted: (audience, tool) => policy.callExecuted(audience, tool),
  });
}

/** What the rules of one server (and of its links) may read: time, T_heal, its `run/<id>/...` streams. */
function ruleEnv(context: RoundContext, server: ServerPlan): RuleEnv {
  return {
    now: () => context.world.now(),
    tHealMs: context.plan.bounds.tHealMs,
    stream: (name) => context.streams.stream(`run/${server.id}/${name}`),
  };
}

function startRound(context: RoundContext, servers: SimCatalogServer[]): void {
  context.policy.start((update) => context.adapter.pushPolicy(update));
  const turns = context.plan.servers.reduce((count, server) => count + (server.turns?.length ?? 0), 0);
  // A core without a surface stage runs no model turn (F22), and the trace says so once.
  if (turns > 0 && !context.adapter.surfaceStage) context.recorder.world('surface_unsupported', { turns });
  for (const server of servers) server.start();
  // F37's outages are written before the sessions' cuts at the same instant (scheduled after these).
  for (const server of servers) scheduleOutage(context, server);
  for (const server of servers) {
    for (const audience of server.plan.audiences) startSession(context, server, audience);
  }
  for (const trigger of context.plan.rollbackTriggers ?? []) {
    const server = servers.find((candidate) => candidate.plan.id === trigger.server);
    if (server !== undefined) context.world.schedule(trigger.atMs, () => triggerRollback(context, server, trigger));
  }
  for (const order of context.plan.emergencyDisables ?? []) {
    const server = servers.find((candidate) => candidate.plan.id === order.server);
    if (server !== undefined) context.world.schedule(order.atMs, () => orderEmergencyDisable(context, server, order));
  }
  for (const order of context.plan.deprecations ?? []) {
    const server = servers.find((candidate) => candidate.plan.id === order.server);
    if (server !== undefined) context.world.schedule(order.atMs, () => orderDeprecation(context, server, order));
  }
  for (const order of context.plan.aliasOrders ?? []) {
    const server = servers.find((candidate) => candidate.plan.id === order.server);
    if (server !== undefined) context.world.schedule(order.atMs, () => orderAlias(context, server, order));
  }
  for (const order of context.plan.lifecycleOrders ?? []) {
    const server = servers.find((candidate) => candidate.plan.id === order.server);
    if (server !== undefined) context.world.schedule(order.atMs, () => orderLifecycle(context, server, order));
  }
}

/**
 * F35: one step of an operator's walk of a tool's versions to the end of their lifecycle. The
 * versions are the tool's descriptor digests in the server's views when the walk's first order
 * was written (kept for its later steps, so a removal names what was disabled). `announce`,
 * `sunset` and `disabled` are written first and handed to the core's `deprecate` with the stage;
 * `remove` is handed to the core's `remove` and written with its answer. Delivered only to a core
 * with both `deprecate` and `remove`; digests delivered from `sunset` on are remembered for the
 * planners' probes (a correct core may refuse them; at `announce` it may not).
 */
function orderLifecycle(
  context: RoundContext,
  server: SimCatalogServer,
  order: NonNullable<RoundPlan['lifecycleOrders']>[number],
): void {
  const { adapter, recorder } = context;
  const walk = `${server.plan.id}\u0000${order.tool}`;
  let descriptorDigests = context.lifecycleDigests.get(walk);
  if (descriptorDigests === undefined) {
    descriptorDigests = listedDigests(server, order.tool);
    context.lifecycleDigests.set(walk, descriptorDigests);
  }
  const supported = adapter.removeSupported && adapter.deprecateSupported;
  const delivery = adapter.down ? 'host_down' : supported ? 'delivered' : 'unsupported';
  const base = { server: server.plan.id, identity: server.identity(), tool: order.tool, step: order.step };
  const reason = `F35 order at ${order.atMs} ms`;
  if (delivery === 'delivered' && order.step !== 'announce')
    for (const digest of descriptorDigests) context.deprecatedDigests.add(`${server.plan.id}\u0000${digest}`);
  if (order.step !== 'remove') {
    recorder.world('lifecycle_ordered', { ...base, descriptorDigests, delivery, answer: null, code: null });
    if (delivery === 'delivered')
      adapter.deprecate({ identity: base.identity, tool: order.tool, descriptorDigests, reason, stage: order.step });
    return;
  }
  const answer =
    delivery === 'delivered'
      ? adapter.remove({ identity: base.identity, tool: order.tool, descriptorDigests, reason })
      : undefined;
  recorder.world('lifecycle_ordered', {
    ...base,
    descriptorDigests,
    delivery,
    answer: answer === undefined ? null : answer.removed ? 'removed' : 'refused',
    code: answer === undefined || answer.removed ? null : answer.code,
  });
}

/**
 * F34: one operator's order on the production alias of a tool. A `set` names the contract the
 * server lists now (the smallest of the tool's descriptor digests in its views; null when it
 * lists none) and hands the release as a `catsim.manifests.v1` file of the server whose entry for
 * the tool is the plan's. Ground truth first (`alias_ordered`), then the core's `alias` when it
 * has one and the host is up. The planners expect nothing else of it: a release is the same
 * contract, so a correct core admits what it admitted before.
 */
function orderAlias(
  context: RoundContext,
  server: SimCatalogServer,
  order: NonNullable<RoundPlan['aliasOrders']>[number],
): void {
  const { adapter, recorder } = context;
  const identity = server.identity();
  const set = order.action === 'set';
  const descriptorDigest = set ? (listedDigests(server, order.tool)[0] ?? null) : null;
  const delivery = adapter.down ? 'host_down' : adapter.aliasSupported ? 'delivered' : 'unsupported';
  recorder.world('alias_ordered', {
    server: server.plan.id,
    identity,
    tool: order.tool,
    action: order.action,
    descriptorDigest,
    release: set ? order.release : null,
    change: set ? order.change : null,
    migration: order.migration,
    delivery,
  });
  if (delivery !== 'delivered') return;
  const tools = order.entry === null || order.tool === '' ? {} : { [order.tool]: order.entry };
  adapter.alias({
    identity,
    tool: order.tool,
    action: order.action,
    descriptorDigest,
    manifestFile: set ? JSON.stringify({ schema: 'catsim.manifests.v1', server: server.plan.id, tools }) : null,
    migration: order.migration ? `F34 migration at ${order.atMs} ms` : null,
    reason: `F34 order at ${order.atMs} ms`,
  });
}

/**
 * F31: one operator's deprecation (stage no-new-binding) of the versions of a tool the server lists
 * now, by their descriptor digests. Ground truth first (`deprecation_ordered`), then the core's
 * `deprecate` when it has one and the host is up; delivered digests are remembered for the
 * planners' probes (a correct core may refuse them through a later generation).
 */
function orderDeprecation(
  context: RoundContext,
  server: SimCatalogServer,
  order: NonNullable<RoundPlan['deprecations']>[number],
): void {
  const { adapter, recorder } = context;
  const identity = server.identity();
  const descriptorDigests = listedDigests(server, order.tool);
  const delivery = adapter.down ? 'host_down' : adapter.deprecateSupported ? 'delivered' : 'unsupported';
  recorder.world('deprecation_ordered', {
    server: server.plan.id,
    identity,
    tool: order.tool,
    descriptorDigests,
    delivery,
  });
  if (delivery !== 'delivered') return;
  for (const digest of descriptorDigests) context.deprecatedDigests.add(`${server.plan.id}\u0000${digest}`);
  adapter.deprecate({ identity, tool: order.tool, descriptorDigests, reason: `F31 order at ${order.atMs} ms` });
}

/**
 * F26: one operator's emergency disable. Ground truth first (`emergency_disabled`, with the
 * identity the server presents now and whether the core could hear it), then the core's
 * `emergencyDisable` when it has one and the host is up; `disabled` remembers delivered orders
 * for the planners' probes (a correct core refuses them).
 */
function orderEmergencyDisable(
  context: RoundContext,
  server: SimCatalogServer,
  order: NonNullable<RoundPlan['emergencyDisables']>[number],
): void {
  const { adapter, recorder } = context;
  const identity = server.identity();
  const delivery = adapter.down ? 'host_down' : adapter.emergencyDisableSupported ? 'delivered' : 'unsupported';
  recorder.world('emergency_disabled', { server: server.plan.id, identity, tool: order.tool, delivery });
  if (delivery !== 'delivered') return;
  context.disabledOrders.add(`${server.plan.id}\u0000${order.tool}`);
  adapter.emergencyDisable({ identity, tool: order.tool, reason: `F26 order at ${order.atMs} ms` });
}

/**
 * F19: one operator or monitor trigger. Ground truth first (`rollback_triggered`, with the key at
 * the identity the server presents now and whether the core could hear it), then the core's
 * `rollback` when it has one and the host is up.
 */
function triggerRollback(context: RoundContext, server: SimCatalogServer, trigger: RollbackTriggerPlan): void {
  const { adapter, recorder } = context;
  const [tenant, role] = trigger.audience.split('.') as [string, string];
  const identity = server.identity();
  const key = `${identity}|${trigger.audience}`;
  const delivery = adapter.down ? 'host_down' : adapter.rollbackSupported ? 'delivered' : 'unsupported';
  recorder.world('rollback_triggered', {
    server: server.plan.id,
    audience: trigger.audience,
    key,
    kind: trigger.kind,
    delivery,
  });
  if (delivery === 'delivered')
    void context.track(adapter.rollback({ kind: trigger.kind, key, tenant, role, identity }));
}

/**
 * F37: the primary's outage, as ground truth: `primary_down` when it starts (with the backup's
 * contract from the plan, and whether the core was handed the backup) and `primary_up` when it
 * ends. The cuts are F37's session episodes; the refused connections, {@link primaryDown}.
 */
function scheduleOutage(context: RoundContext, server: SimCatalogServer): void {
  const backup = activeBackup(server.plan);
  if (backup === undefined) return;
  const { world, recorder, adapter } = context;
  world.schedule(backup.downAtMs, () =>
    recorder.world('primary_down', {
      server: server.plan.id,
      tool: backup.tool,
      contract: backup.contract,
      backupIdentity: backupIdentityOf(server.plan),
      backupBuild: BACKUP_BUILD,
      untilMs: backup.upAtMs,
      backup: adapter.backupSupported ? 'offered' : 'unsupported',
    }),
  );
  world.schedule(backup.upAtMs, () => recorder.world('primary_up', { server: server.plan.id }));
}

/** F37: whether `server`'s primary endpoint cannot be reached now (every connection to it fails). */
function primaryDown(world: World, server: SimCatalogServer): boolean {
  const backup = activeBackup(server.plan);
  return backup !== undefined && world.now() >= backup.downAtMs && world.now() < backup.upAtMs;
}

/** The error a connection to a server whose primary is down (F37) fails with. */
class PrimaryUnreachable extends Error {
  constructor(server: string) {
    super(`server ${server} cannot be reached (its primary endpoint is down)`);
    this.name = 'PrimaryUnreachable';
  }
}

/**
 * F37: the connector of `server`'s backup endpoint for `audience`, handed to the core with
 * `attachBackup`: each connect opens a link (with no link faults) to the server's backup face
 * (`SimCatalogServer.connectBackup`), presenting the backup's identity. A `tools/call` leaving the
 * core on it is written `call_sent`, as on the primary. Its links are pushed to `links` (cut with
 * the session's on a host crash).
 */
function backupConnector(
  context: RoundContext,
  server: SimCatalogServer,
  audience: string,
  links: WireLink[],
): WorldConnector {
  const { world, plan, recorder, streams, adapter } = context;
  const latency = streams.stream(`run/${server.plan.id}/${audience}/backup-latency`);
  const identity = (): string => backupIdentityOf(server.plan);
  const open = async (handshake: TransportHandshake, alive: (() => boolean) | undefined): Promise<void> => {
    const latencyMs = baseLatency(world, plan, server.plan, latency);
    const link = createLink(world, { latencyMs, rules: [], identity: identity(), authInfo: authFor(audience) });
    link.onSend = (direction, message) => {
      if (direction === 'toServer' && 'method' in message && message.method === 'tools/call' && 'id' in message)
        recorder.world('call_sent', { server: server.plan.id, audience, tool: toolNameOf(message.params) });
    };
    links.push(link);
    await server.connectBackup(link.server, audience);
    await handshake(link.client);
    if (alive?.() === false) link.disconnect();
  };
  return connectorOver(adapter, open, identity);
}

/**
 * A connector over `open`, which opens one link and runs the given handshake on its client end:
 * `connect` runs the adapter's SDK client's `connect` on it, `connectTransport` the core's own
 * handshake, handing back the transport. Both present `identity` (the server fingerprint as of
 * each read).
 */
function connectorOver(
  adapter: RoundContext['adapter'],
  open: (handshake: TransportHandshake, alive: (() => boolean) | undefined) => Promise<void>,
  identity: () => string,
): WorldConnector {
  return {
    connect: async (alive?: () => boolean): Promise<SimConnection> => {
      const client = adapter.createClient();
      await open((transport) => client.connect(transport), alive);
      return { client, identity };
    },
    connectTransport: async (handshake, alive?: () => boolean) => {
      let given: Transport | undefined;
      await open((transport) => {
        given = transport;
        return handshake(transport);
      }, alive);
      return { transport: given as Transport, identity };
    },
  };
}

/** Offers the core one catalog key, schedules its planned episodes (cuts), and starts its planner. */
function startSession(context: RoundContext, server: SimCatalogServer, audience: string): void {
  const { world, plan, recorder, streams, adapter } = context;
  const [tenant, role] = audience.split('.') as [string, string];
  const latency = streams.stream(`run/${server.plan.id}/${audience}/latency`);
  const rules = linkRulesFor(server.plan, ruleEnv(context, server.plan));
  // Every link this session opened, in order. A connection still being opened when a boot died
  // completes after the next boot opened its own (the host process closes it then), so the last
  // link is not always the live one: the cut and the planned disconnects read which are open.
  const links: WireLink[] = [];
  const openLinks = (): WireLink[] => links.filter((link) => !link.closed);
  // A modern session's connections are numbered, so that each `subscriptions/listen` names the
  // connection it was sent on (I32: one is owed on every connection).
  let connections = 0;
  /**
   * Opens one link and its server session, runs the core's `handshake` over the client side, and
   * counts the session open when it resolves (docs/CORE-API.md, "When a session counts as open"),
   * unless `alive` says the boot that asked died meanwhile: then no session opens for it, and the
   * host process closes the connection (sim/host/host-process.ts).
   */
  // F37: the boot that last opened (or began to open) a connection. A boot that never reached the server (one started by
  // an F18 restart during an outage) is let through once: a host learns a server's identity from
  // its first connection, and F37 models an outage of a server the host already knows.
  let bootConnected = -1;
  const open = async (handshake: TransportHandshake, alive: (() => boolean) | undefined): Promise<void> => {
    if (primaryDown(world, server) && bootConnected === adapter.boot) throw new PrimaryUnreachable(server.plan.id);
    bootConnected = adapter.boot;
    const connection = connections;
    connections += 1;
    const latencyMs = baseLatency(world, plan, server.plan, latency);
    // A modern server reached over Streamable HTTP: its session is the handler the link carries
    // each request to; otherwise the server serves the server end of an in-process link.
    const http = server.plan.era === 'modern' && server.plan.transport === 'http';
    const stdio = http
      ? undefined
      : createLink(world, { latencyMs, rules, identity: server.identity(), authInfo: authFor(audience) });
    const link: WireLink =
      stdio ??
      createHttpLink(world, { latencyMs, rules, identity: server.identity(), server: server.connectHttp(audience) });
    // Ground truth of I18 and I19: a list_changed handed to the core's client once its session is
    // open (one arriving during the initialize handshake reaches no handler of the core yet).
    let opened = false;
    let initialized = false;
    link.onTrace = (event) => {
      if (
        opened &&
        event.kind === 'deliver' &&
        event.direction === 'toClient' &&
        event.method === 'notifications/tools/list_changed'
      )
        recorder.world('notification_delivered', { server: server.plan.id, audience });
    };
    // Ground truth of I18: when a call left the core, whatever the link and the server then do with it.
    link.onSend = (direction, message) => {
      if (direction === 'toServer' && 'method' in message && message.method === 'notifications/initialized')
        initialized = true;
      if (direction === 'toServer' && 'method' in message && message.method === 'tools/call' && 'id' in message)
        recorder.world('call_sent', { server: server.plan.id, audience, tool: toolNameOf(message.params) });
      if (
        server.plan.era === 'modern' &&
        direction === 'toServer' &&
        'method' in message &&
        message.method === 'subscriptions/listen' &&
        'id' in message
      )
        recorder.world('listen_requested', {
          server: server.plan.id,
          audience,
          connection,
          subscriptionId: String(message.id),
        });
    };
    if (server.plan.era === 'modern') watchListenStreams(link, recorder, server.plan.id, audience);
    context.observer?.linkOpened?.(link, server.plan.id, audience);
    if (stdio !== undefined) await server.connect(stdio.server, audience);
    await handshake(link.client);
    if (alive?.() === false) return;
    // A modern-era (2026-07-28) server has no initialize handshake: its session opens when the
    // core's handshake resolves.
    if (!initialized && server.plan.era !== 'modern')
      recorder.breakRule(SESSION_OPEN_RULE, openedEarly(server.plan.id, audience));
    links.push(link);
    const modern =
      server.plan.era === 'modern' ? { connection, listChanged: server.declaresListChanged() } : ({} as const);
    recorder.world('session_opened', { server: server.plan.id, audience, identity: server.identity(), ...modern });
    opened = true;
  };
  const connector = connectorOver(adapter, open, () => server.identity());
  const control: SessionControl = {
    disconnect: () => {
      const live = openLinks().at(-1);
      if (live === undefined) return;
      recorder.world('disconnected', { server: server.plan.id, audience });
      live.disconnect();
    },
  };
  for (const episode of sessionEpisodesFor(server.plan, audience))
    world.schedule(episode.atMs, () => episode.run(control));
  // A host crash (F18) cuts every connection of the session with no `disconnected` event: the
  // world did not cut them, the process died. Every open link is the dying boot's: the next boot
  // has not started (seed 2 round 4578 of host-restart: boot 0's reconnect, begun at the crash,
  // completed after boot 1's own connection and took its place as the one to cut; boot 1's link
  // outlived boot 1 and handed later notifications to a dead client).
  const backupLinks: WireLink[] = [];
  const cut = (): void => {
    for (const link of [...openLinks(), ...backupLinks.filter((open) => !open.closed)]) link.disconnect();
  };
  adapter.attach(
    { connector, tenant, role, endpointDigest: `sim:${server.plan.id}`, refreshers: plan.refreshersPerKey },
    cut,
  );
  if (activeBackup(server.plan) !== undefined && adapter.backupSupported)
    adapter.attachBackup({
      connector: backupConnector(context, server, audience, backupLinks),
      tenant,
      role,
      identity: server.identity(),
    });
  const planner = new SessionPlanner(
    context,
    server,
    audience,
    streams.stream(`run/${server.plan.id}/${audience}/planner`),
  );
  context.planners.push(planner);
  planner.start();
}

/** The `_meta` key of the subscription id on every notification of a listen stream (2026-07-28). */
const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

/**
 * Writes the life of each `subscriptions/listen` stream of a modern-era session, as the core's
 * client sees it: `listen_acknowledged` when the acknowledgement reaches it, `listen_ended` when
 * the stream's result does (`complete`) or the link is cut under it (`disconnected`).
 */
function watchListenStreams(link: WireLink, recorder: TraceRecorder, server: string, audience: string): void {
  const open = new Set<string>();
  link.onDeliver = (direction, message) => {
    if (direction !== 'toClient') return;
    if ('method' in message && message.method === 'notifications/subscriptions/acknowledged') {
      const params = (message.params ?? {}) as {
        _meta?: Record<string, unknown>;
        notifications?: { toolsListChanged?: unknown };
      };
      const subscriptionId = String(params._meta?.[SUBSCRIPTION_ID_KEY]);
      open.add(subscriptionId);
      const toolsListChanged = params.notifications?.toolsListChanged === true;
      recorder.world('listen_acknowledged', { server, audience, subscriptionId, toolsListChanged });
    } else if (!('method' in message) && 'id' in message && open.delete(String(message.id))) {
      recorder.world('listen_ended', { server, audience, subscriptionId: String(message.id), how: 'complete' });
    }
  };
  link.onClosed = () => {
    for (const subscriptionId of open)
      recorder.world('listen_ended', { server, audience, subscriptionId, how: 'disconnected' });
    open.clear();
  };
}

/** The section of docs/CORE-API.md that says when a session counts as open. */
const SESSION_OPEN_RULE = 'When a session counts as open';

/** What a core that counted its session open too early did, in the words of the rule. */
function openedEarly(server: string, audience: string): string {
  return `the connection of ${server} ${audience} was handed back as open before its client sent notifications/initialized (resolve connect() or the connectTransport handshake only once the client's initialize handshake is done)`;
}

/** The `name` of a `tools/call` request's params, `""` when it is not a string. */
function toolNameOf(params: unknown): string {
  const name = typeof params === 'object' && params !== null ? (params as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

function authFor(audience: string): AuthInfo {
  return { token: 'sim', clientId: audience, scopes: [], extra: { audience } };
}

/** The base latency of a message, drawn per message: the server's range until T_heal, the nominal one after. */
function baseLatency(world: World, plan: RoundPlan, server: ServerPlan, rng: Rng): () => number {
  return () => {
    const [min, max] =
      world.now() >= plan.bounds.tHealMs ? plan.nominalLatencyMs : [server.latencyMsMin, server.latencyMsMax];
    return rng.int(min, max);
  };
}

/**
 * The descriptor digests (the world's, `worldDescriptorDigest`) of the tool named `tool` that
 * `server` lists now to any audience, sorted, each once: the versions an operator's order names.
 */
function listedDigests(server: SimCatalogServer, tool: string): string[] {
  const listed = Object.values(server.currentViews())
    .flat()
    .filter((candidate) => candidate.name === tool)
    .map((candidate) => worldDescriptorDigest(candidate));
  return [...new Set(listed)].sort();
}
