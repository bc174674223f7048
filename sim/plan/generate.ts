/**
 * The plan generator: one round seed gives one plan (plain JSON). Every part draws from its own
 * named stream (SPEC section 10): the base of each server from `server/<id>`, each fault from its
 * own `server/<id>/<fault id>` and `round/<fault id>` (sim/faults/), so enabling, removing or
 * re-tuning one fault never shifts the draws of another.
 *
 * Swarm testing: each fault of the menu draws once from its own `swarm/<fault id>` stream whether
 * to enable it (with the scenario's `faultEnableFraction`, if the scenario lists it), so rounds
 * differ in which faults they combine, not only in timing. Episodes (changes, restarts, late
 * notifications) act in [0, T_heal); traits (cursor misbehaviour, no revision) last the whole
 * round. Order of calls: see sim/faults/fault.ts and sim/faults/draft.ts.
 */
import { createStreams, deriveRoundSeed, type Rng, type Streams } from '../random.ts';
import { FAULTS, SCENARIO_FAULTS, isFaultId } from '../faults/index.ts';
import type { FaultDefinition } from '../faults/fault.ts';
import { GENERATION_PHASES, type HistoryChange, type ServerDraft } from '../faults/draft.ts';
import { withHealthy } from '../faults/slices.ts';
import { ratesOf, type RateSpecs, type RatesOf } from '../faults/rates.ts';
import { distinctTimes, hexDigits } from './draws.ts';
import { buildHistory, INTERNAL_AUDIENCE, pickTools } from './history.ts';
import { boundsOf, type Scenario } from './scenario.ts';
import { TOOL_POOL, type PoolTool } from './tool-pool.ts';
import { effectClassesFor } from './effect-policy.ts';
import type { PolicyPlan, RoundPlan, ServerPlan, ToolDescriptor } from './types.ts';

export { INTERNAL_AUDIENCE } from './history.ts';

/** Edits of a server's history that no fault plans (so that healthy rounds change too), per server. */
const BASE_EDITS_PER_SERVER = { min: 0, max: 2 };

/** Tools of the internal audience's first view (the audience F4 changes). */
const INTERNAL_TOOLS = { min: 1, max: 3 };

/** The range a server's first revision number is drawn from. */
const FIRST_REVISION = { min: 1, max: 1000 };

/**
 * Chance that an audience's epoch-1 grant leaves out one of its tools, so that POLICY_REVOKED
 * refusals happen on healthy rounds too (not a fault: a policy that does not grant everything).
 */
const GRANT_GAP_FRACTION = 0.3;

/**
 * Builds the plan of round `round` of campaign `seed` without running the rounds before it.
 * `pool` is where descriptors come from: the built-in pool, or the tools of a captured catalog.
 */
export function generatePlan(
  seed: string,
  round: number,
  scenario: Scenario,
  pool: readonly PoolTool[] = TOOL_POOL,
): RoundPlan {
  const roundSeed = deriveRoundSeed(seed, round);
  const streams = createStreams(roundSeed);
  const enabled = enabledFaults(streams, scenario);
  const serverCount = streams.stream('topology').int(scenario.servers.min, scenario.servers.max);
  const servers = Array.from({ length: serverCount }, (_, index) =>
    generateServer(`s${index}`, streams, enabled, scenario, pool),
  );
  const plan = basePlan({ seed, round, roundSeed, scenario, streams, pool }, servers, enabled);
  for (const fault of enabled)
    fault.generateRound?.({ scenario, plan }, streams.stream(`round/${fault.id}`), ratesIn(fault, scenario));
  const fullTail = scenario.fullTailFraction;
  if (fullTail !== undefined && !streams.stream('round/TAIL').chance(fullTail)) plan.earlyEnd = true;
  plan.sampleArgs = Object.fromEntries(
    Object.entries(plan.sampleArgs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return plan;
}

/**
 * The faults of this round: each fault of the menu draws from its own `swarm/<fault id>` stream,
 * whether or not the scenario lists it, so that adding a fault to the menu (wherever its id sorts)
 * or listing one more in a scenario changes no other fault's draw; then the scenario-level ones
 * the scenario switches on. Kept in menu order.
 */
function enabledFaults(streams: Streams, scenario: Scenario): FaultDefinition[] {
  const listed = new Set<string>(scenario.faults);
  const menu = FAULTS.filter(
    (fault) => streams.stream(`swarm/${fault.id}`).chance(scenario.faultEnableFraction) && listed.has(fault.id),
  );
  return [...menu, ...SCENARIO_FAULTS.filter((fault) => fault.switchedOnBy?.(scenario) ?? false)];
}

/** The rates of `fault` in force in `scenario`. */
function ratesIn<S extends RateSpecs>(fault: FaultDefinition<string, S>, scenario: Scenario): RatesOf<S> {
  return ratesOf(fault.rates, scenario.faultRates?.[fault.id]);
}

/** What the round-level parts of a plan are drawn for. */
interface RoundInput {
  seed: string;
  round: number;
  roundSeed: string;
  scenario: Scenario;
  streams: Streams;
  pool: readonly PoolTool[];
}

/** The round-level parts before the round-level faults: bounds, timings, the base policy and calls, one refresher per key. */
function basePlan(input: RoundInput, servers: ServerPlan[], enabled: readonly FaultDefinition[]): RoundPlan {
  const { seed, round, roundSeed, scenario, streams } = input;
  const bounds = boundsOf(scenario);
  return withHealthy<RoundPlan>('round', {
    schema: 'catsim.plan.v1',
    seed,
    round,
    roundSeed,
    scenario: scenario.name,
    faults: enabled.map((fault) => fault.id).filter(isFaultId),
    bounds,
    timings: { ...scenario.timings },
    nominalLatencyMs: [scenario.nominalLatencyMs.min, scenario.nominalLatencyMs.max],
    eventBudget: scenario.eventBudget,
    plannerIntervalMs: [scenario.plannerIntervalMs.min, scenario.plannerIntervalMs.max],
    leaseKey: hexDigits(streams.stream('lease-key'), 64),
    policy: basePolicy(streams.stream('policy'), servers, scenario),
    calls: withHealthy<RoundPlan['calls']>('calls', {
      callFraction: scenario.calls.callFraction,
      invalidArgsFraction: scenario.calls.invalidArgsFraction,
      confirmFraction: scenario.calls.confirmFraction,
      probeAtMs: bounds.tEndMs - Math.max(scenario.timings.refreshIntervalMs, scenario.policyPollMs),
    }),
    sampleArgs: sampleArgsFor(servers, input.pool),
    servers,
  });
}

/**
 * One server: the base drawn from `server/<id>`, then the faults acting on it, phase by phase, each
 * on its own stream; the history is built from the planned changes just before the `history` phase.
 */
function generateServer(
  id: string,
  streams: Streams,
  enabled: readonly FaultDefinition[],
  scenario: Scenario,
  tools: readonly PoolTool[],
): ServerPlan {
  const { draft, protectedTools } = baseServer(id, streams, scenario, tools);
  const acting = enabled
    .filter((fault) => fault.generate !== undefined)
    .map((fault) => ({ fault, rng: streams.stream(`server/${id}/${fault.id}`), rates: ratesIn(fault, scenario) }))
    .filter(({ rng, rates }) => rng.chance((rates as { serverFraction?: number }).serverFraction ?? 1));
  for (const phase of GENERATION_PHASES) {
    if (phase === 'history') {
      const server = draft.server;
      server.history = buildHistory(
        {
          first: server.history[0] as ServerPlan['history'][number],
          audiences: server.audiences,
          pool: tools,
          protectedTools,
        },
        draft.changes,
      );
    }
    for (const { fault, rng, rates } of acting) fault.generate?.[phase]?.(draft, rng, rates);
  }
  return draft.server;
}

/**
 * The base of a server, all from `server/<id>`: identity, audiences, first views, first revision,
 * page size, latency, and the base edits of its history; every fault field healthy.
 */
function baseServer(
  id: string,
  streams: Streams,
  scenario: Scenario,
  tools: readonly PoolTool[],
): { draft: ServerDraft; protectedTools: Set<ToolDescriptor> } {
  const rng = streams.stream(`server/${id}`);
  const identity = `fp:${hexDigits(rng, 16)}`;
  const audiences = rng
    .shuffle([...scenario.audiences])
    .slice(0, rng.int(scenario.audiencesPerServer.min, scenario.audiencesPerServer.max));
  const views: Record<string, ToolDescriptor[]> = {
    [INTERNAL_AUDIENCE]: pickTools(rng, tools, INTERNAL_TOOLS.min, INTERNAL_TOOLS.max),
  };
  for (const audience of audiences)
    views[audience] = pickTools(rng, tools, scenario.toolsPerView.min, scenario.toolsPerView.max);
  // The faults' fields start healthy, as their slices say (sim/faults/slices.ts).
  const server = withHealthy<ServerPlan>('server', {
    id,
    identity,
    audiences,
    history: [{ atMs: 0, revision: rng.int(FIRST_REVISION.min, FIRST_REVISION.max), views, cause: 'base' }],
    pageSizeMin: scenario.pageSize.min,
    pageSizeMax: rng.int(scenario.pageSize.min, scenario.pageSize.max),
    latencyMsMin: scenario.latencyMs.min,
    latencyMsMax: rng.int(scenario.latencyMs.min, scenario.latencyMs.max),
    planted: [],
  });
  const changes: HistoryChange[] = distinctTimes(
    rng,
    rng.int(BASE_EDITS_PER_SERVER.min, BASE_EDITS_PER_SERVER.max),
    scenario.tHealMs,
  ).map((atMs) => ({ atMs, cause: 'base', kind: 'edit', rng }));
  const protectedTools = new Set<ToolDescriptor>();
  const draft: ServerDraft = {
    scenario,
    pool: tools,
    server,
    changes,
    place: (placeRng, descriptors) => place(placeRng, server, descriptors, protectedTools),
    stream: (name) => streams.stream(`server/${id}/${name}`),
  };
  return { draft, protectedTools };
}

/** Places descriptors into one audience's first view (the same objects the plan labels), and protects them from edits. */
function place(
  rng: Rng,
  server: ServerPlan,
  descriptors: readonly ToolDescriptor[],
  protectedTools: Set<ToolDescriptor>,
): void {
  const views = (server.history[0] as ServerPlan['history'][number]).views;
  const target = rng.pick(server.audiences.length > 0 ? server.audiences : [INTERNAL_AUDIENCE]);
  for (const descriptor of descriptors) {
    const view = views[target] ?? [];
    view.splice(rng.int(0, view.length), 0, descriptor);
    views[target] = view;
    protectedTools.add(descriptor);
  }
}

/**
 * Sample arguments for every tool name in the histories: the pool entry's, matched by name, or
 * by the name before a rename (`_vN`) or plant suffix; schema edits only add optional options, so
 * the original arguments stay valid. Tools a fault makes up itself get theirs from that fault.
 */
function sampleArgsFor(
  servers: readonly ServerPlan[],
  tools: readonly PoolTool[],
): Record<string, Record<string, unknown>> {
  const byBase = new Map(tools.map((entry) => [baseName(String(entry.descriptor.name)), entry.sampleArgs]));
  const out: Record<string, Record<string, unknown>> = {};
  const names = new Set<string>();
  for (const server of servers)
    for (const step of server.history)
      for (const view of Object.values(step.views)) for (const tool of view) names.add(String(tool.name));
  for (const name of [...names].sort()) {
    const args = byBase.get(baseName(name));
    if (args !== undefined) out[name] = structuredClone(args);
  }
  return out;
}

/**
 * The pool name a generated name came from: without rename suffixes (`_v3`, repeated), without a
 * plant suffix (`_s0d1`, `_s1t`, an upper-case F6 twin's `-S1T`, or F23's `_s0l12`), case folded and
 * `-` read as `_`.
 */
export function baseName(name: string): string {
  return name
    .toLowerCase()
    .replaceAll('-', '_')
    .replace(/(_v\d)+$/, '')
    .replace(/_s\d+(d\d+|t|l\d+)$/, '')
    .replace(/(_v\d)+$/, '');
}

/**
 * The base policy: every session audience starts (epoch 1) holding the names of its tools across
 * the whole history, less one now and then (GRANT_GAP_FRACTION); nothing changes and no push is
 * lost unless F8 says so.
 */
function basePolicy(rng: Rng, servers: readonly ServerPlan[], scenario: Scenario): PolicyPlan {
  const grants: Record<string, string[]> = {};
  const every: ToolDescriptor[] = [];
  for (const server of servers) {
    for (const step of server.history) for (const tools of Object.values(step.views)) every.push(...tools);
    for (const audience of server.audiences) {
      const names = new Set(grants[audience] ?? []);
      for (const step of server.history) for (const tool of step.views[audience] ?? []) names.add(String(tool.name));
      grants[audience] = [...names].sort();
    }
  }
  for (const audience of Object.keys(grants).sort()) {
    const names = grants[audience] as string[];
    if (names.length > 1 && rng.chance(GRANT_GAP_FRACTION)) names.splice(rng.int(0, names.length - 1), 1);
  }
  return withHealthy<PolicyPlan>('policy', {
    effectClasses: effectClassesFor(every),
    grants,
    pushLatencyMs: [scenario.pushLatencyMs.min, scenario.pushLatencyMs.max],
    pollIntervalMs: scenario.policyPollMs,
  });
}
