/**
 * The plan generator: one round seed gives one plan (plain JSON). Each part draws from its own
 * named stream, so adding a component does not shift the others (SPEC section 10).
 *
 * Swarm testing: every fault of the scenario is enabled in a round with the scenario's
 * `faultEnableFraction`, so rounds differ in which faults they combine, not only in timing.
 * Episodes (changes, restarts, late notifications) act in [0, T_heal); traits (cursor
 * misbehaviour, no revision) last the whole round.
 */
import { createStreams, deriveRoundSeed, type Rng } from '../random.ts';
import { boundsOf, type Scenario } from './scenario.ts';
import { TOOL_POOL, type PoolTool } from './tool-pool.ts';
import { plantF13, plantF6 } from './defects.ts';
import { effectClassesFor, lyingTool } from './effect-policy.ts';
import { ratesOf, type RateSpecs, type RatesOf } from '../faults/rates.ts';
import type { FaultDefinition } from '../faults/fault.ts';
import { F2 } from '../faults/f02-aba.ts';
import { F1 } from '../faults/f01-change-between-pages.ts';
import { F3 } from '../faults/f03-list-changed.ts';
import { F4 } from '../faults/f04-revision-moves-alone.ts';
import { F5 } from '../faults/f05-cursors.ts';
import { F6 } from '../faults/f06-duplicate-names.ts';
import { F7 } from '../faults/f07-identity-rotation.ts';
import { F8 } from '../faults/f08-revocation.ts';
import { F9 } from '../faults/f09-racing-refreshers.ts';
import { F10 } from '../faults/f10-stale-planner.ts';
import { F11 } from '../faults/f11-restart.ts';
import { F12 } from '../faults/f12-unversioned.ts';
import { F13 } from '../faults/f13-planted-defects.ts';
import { F14 } from '../faults/f14-lying-annotations.ts';
import { F15 } from '../faults/f15-transport.ts';
import { F16 } from '../faults/f16-tenant-twins.ts';
import { F17 } from '../faults/f17-guessed-names.ts';
import { EQUIVOCATION } from '../faults/equivocation.ts';

/** The rates of `fault` in force in `scenario`. */
function rates<S extends RateSpecs>(fault: FaultDefinition<string, S>, scenario: Scenario): RatesOf<S> {
  return ratesOf(fault.rates, scenario.faultRates?.[fault.id]);
}
import type { CursorTrait, FaultId, IdentityRotation, LinkFaults, NotificationPlan, PlantedDefect, PolicyChange, PolicyPlan, RevisionStep, RoundPlan, ServerPlan, ToolDescriptor } from './types.ts';

/** An audience no simulated client connects as; F4 changes only its view (revision moves, content does not). */
export const INTERNAL_AUDIENCE = 'internal.ops';


/**
 * Builds the plan of round `round` of campaign `seed` without running the rounds before it.
 * `pool` is where descriptors come from: the built-in pool, or the tools of a captured catalog.
 */
export function generatePlan(seed: string, round: number, scenario: Scenario, pool: readonly PoolTool[] = TOOL_POOL): RoundPlan {
  const roundSeed = deriveRoundSeed(seed, round);
  const streams = createStreams(roundSeed);
  const swarm = streams.stream('swarm');
  const faults = scenario.faults.filter(() => swarm.chance(scenario.faultEnableFraction));
  const serverCount = streams.stream('topology').int(scenario.servers.min, scenario.servers.max);
  const servers = Array.from({ length: serverCount }, (_, index) => generateServer(`s${index}`, streams.stream(`server/s${index}`), faults, scenario, pool));
  const bounds = boundsOf(scenario);
  return {
    schema: 'catsim.plan.v1',
    seed,
    round,
    roundSeed,
    scenario: scenario.name,
    faults,
    bounds,
    timings: { ...scenario.timings },
    nominalLatencyMs: [scenario.nominalLatencyMs.min, scenario.nominalLatencyMs.max],
    eventBudget: scenario.eventBudget,
    refreshersPerKey: faults.includes('F9') ? drawIn(streams.stream('refreshers'), rates(F9, scenario).refreshersPerKey) : 1,
    plannerIntervalMs: [scenario.plannerIntervalMs.min, scenario.plannerIntervalMs.max],
    leaseKey: hex(streams.stream('lease-key'), 64),
    policy: generatePolicy(streams.stream('policy'), faults, servers, scenario),
    calls: {
      callFraction: scenario.calls.callFraction,
      staleFraction: faults.includes('F10') ? rates(F10, scenario).staleFraction : 0,
      staleDelayMs: [rates(F10, scenario).staleDelayMs.min, rates(F10, scenario).staleDelayMs.max],
      guessFraction: faults.includes('F17') ? rates(F17, scenario).guessFraction : 0,
      invalidArgsFraction: scenario.calls.invalidArgsFraction,
      confirmFraction: scenario.calls.confirmFraction,
      probeAtMs: bounds.tEndMs - Math.max(scenario.timings.refreshIntervalMs, scenario.policyPollMs),
    },
    sampleArgs: sampleArgsFor(servers, pool),
    servers,
  };
}

/**
 * Sample arguments for every tool name in the histories: the pool entry's, matched by name, or
 * by the name before a rename (`_vN`) or plant suffix; schema edits only add optional options, so
 * the original arguments stay valid.
 */
function sampleArgsFor(servers: readonly ServerPlan[], pool: readonly PoolTool[]): Record<string, Record<string, unknown>> {
  const byBase = new Map(pool.map((entry) => [baseName(String(entry.descriptor.name)), entry.sampleArgs]));
  const out: Record<string, Record<string, unknown>> = {};
  const names = new Set<string>();
  for (const server of servers) for (const step of server.history) for (const view of Object.values(step.views)) for (const tool of view) names.add(String(tool.name));
  for (const name of [...names].sort()) {
    const args = byBase.get(baseName(name));
    if (args !== undefined) out[name] = structuredClone(args);
    else if (name.startsWith('purge_cache_')) out[name] = { scope: 'all' };
  }
  return out;
}

/**
 * The pool name a generated name came from: without rename suffixes (`_v3`, repeated), without a
 * plant suffix (`_s0d1`, `_s1t`, or an upper-case F6 twin's `-S1T`), case folded and `-` read as `_`.
 */
export function baseName(name: string): string {
  return name.toLowerCase().replaceAll('-', '_').replace(/(_v\d)+$/, '').replace(/_s\d+(d\d+|t)$/, '').replace(/(_v\d)+$/, '');
}

/**
 * The policy service: every session audience starts (epoch 1) holding the names of its tools
 * across the whole history, less one now and then (so refusals happen on healthy rounds too);
 * F8 revokes and re-grants names at planned times, and loses some pushes until T_heal.
 */
function generatePolicy(rng: Rng, faults: readonly FaultId[], servers: readonly ServerPlan[], scenario: Scenario): PolicyPlan {
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
    if (names.length > 1 && rng.chance(0.3)) names.splice(rng.int(0, names.length - 1), 1);
  }
  const f8 = faults.includes('F8');
  return {
    effectClasses: effectClassesFor(every),
    grants,
    changes: f8 ? policyChanges(rng, grants, scenario) : [],
    pushLatencyMs: [scenario.pushLatencyMs.min, scenario.pushLatencyMs.max],
    pushLossFraction: f8 ? rng.pick(rates(F8, scenario).pushLossFractions) : 0,
    pollIntervalMs: scenario.policyPollMs,
  };
}

/**
 * F8: a few revocations at planned times before T_heal, some granted back later. A re-grant comes
 * well after the revocation bound B, so a core that learns of revocations late (only on its next
 * catalog refresh) is seen admitting a revoked tool in between.
 */
function policyChanges(rng: Rng, grants: Record<string, string[]>, scenario: Scenario): PolicyChange[] {
  const { tHealMs, revocationBoundMs } = scenario;
  const r = rates(F8, scenario);
  const changes: PolicyChange[] = [];
  const audiences = Object.keys(grants).sort().filter((audience) => (grants[audience] ?? []).length > 0);
  if (audiences.length === 0) return changes;
  for (const atMs of times(rng, drawIn(rng, r.revocationsPerRound), Math.max(2, tHealMs - 200))) {
    const audience = rng.pick(audiences);
    const name = rng.pick(grants[audience] as string[]);
    changes.push({ atMs, audience, revoke: [name], grant: [] });
    const regrantAtMs = atMs + revocationBoundMs + drawIn(rng, r.regrantDelayMs);
    if (rng.chance(r.regrantFraction) && regrantAtMs < tHealMs) changes.push({ atMs: regrantAtMs, audience, revoke: [], grant: [name] });
  }
  return changes.sort((a, b) => a.atMs - b.atMs);
}

function generateServer(id: string, rng: Rng, faults: readonly FaultId[], scenario: Scenario, pool: readonly PoolTool[]): ServerPlan {
  const on = (fault: FaultDefinition<FaultId, { serverFraction: { kind: 'fraction'; default: number; description: string } }>) => faults.includes(fault.id) && rng.chance(rates(fault, scenario).serverFraction);
  const audiences = pickAudiences(rng, scenario, on(F16));
  const planted = [...(on(F13) ? times(rng, drawIn(rng, rates(F13, scenario).defectsPerServer), 1000).map((_, i) => plantF13(rng, pool, `${id}d${i}`)) : []), ...(on(F6) ? plantF6(rng, pool, `${id}t`, rates(F6, scenario).normalisedTwinFraction) : [])];
  const lying = on(F14) ? [lyingTool(id)] : [];
  const rotations = on(F7) ? times(rng, drawIn(rng, rates(F7, scenario).rotationsPerServer), scenario.tHealMs).map((atMs) => ({ atMs, identity: `fp:${hex(rng, 16)}` })) : [];
  return {
    id,
    identity: `fp:${hex(rng, 16)}`,
    versioned: !on(F12),
    audiences,
    history: generateHistory(rng, { audiences, faults, scenario, pool, planted, lying, rotations, tenantVariants: on(F16), equivocates: scenario.equivocation === true }),
    pageSizeMin: scenario.pageSize.min,
    pageSizeMax: rng.int(scenario.pageSize.min, scenario.pageSize.max),
    cursorTrait: on(F5) ? rng.pick(rates(F5, scenario).cursorTraits) : null,
    restartsAtMs: on(F11) ? times(rng, drawIn(rng, rates(F11, scenario).restartsPerServer), scenario.tHealMs) : [],
    notifications: generateNotifications(rng, on(F3), scenario),
    latencyMsMin: scenario.latencyMs.min,
    latencyMsMax: rng.int(scenario.latencyMs.min, scenario.latencyMs.max),
    rotations,
    planted,
    linkFaults: generateLinkFaults(rng, on(F15), audiences, scenario),
    equivocates: scenario.equivocation === true,
  };
}

/**
 * The audiences a server serves. With F16 two tenants share a role (e.g. acme.dev and
 * globex.dev), so the same tool names reach them with different descriptors.
 */
function pickAudiences(rng: Rng, scenario: Scenario, sharedRole: boolean): string[] {
  const audiences = rng.shuffle([...scenario.audiences]).slice(0, rng.int(scenario.audiencesPerServer.min, scenario.audiencesPerServer.max));
  if (!sharedRole) return audiences;
  const first = audiences[0] as string;
  const [tenant, role] = first.split('.') as [string, string];
  const other = scenario.audiences.map((a) => a.split('.') as [string, string]).find(([t, r]) => r === role && t !== tenant);
  const twin = other === undefined ? `${tenant}x.${role}` : `${other[0]}.${other[1]}`;
  return audiences.includes(twin) ? audiences : [...audiences, twin];
}

/** F15: reordering, lost notifications (up to a stateless gateway that drops all), disconnects. */
function generateLinkFaults(rng: Rng, f15: boolean, audiences: readonly string[], scenario: Scenario): LinkFaults {
  if (!f15) return { reorder: false, notificationLossFraction: 0, disconnectsAtMs: {} };
  const r = rates(F15, scenario);
  const disconnectsAtMs: Record<string, number[]> = {};
  for (const audience of audiences) disconnectsAtMs[audience] = rng.chance(r.cutSessionFraction) ? times(rng, drawIn(rng, r.cutsPerSession), scenario.tHealMs) : [];
  return { reorder: rng.chance(r.reorderFraction), notificationLossFraction: rng.pick(r.notificationLossFractions), disconnectsAtMs };
}

function generateNotifications(rng: Rng, f3: boolean, scenario: Scenario): NotificationPlan {
  if (!f3) return { declared: true, sendOnChange: true, afterPage2: false, lateByMs: 0, copies: 1 };
  const r = rates(F3, scenario);
  return {
    declared: !rng.chance(r.undeclaredFraction),
    sendOnChange: !rng.chance(r.silentFraction),
    afterPage2: rng.chance(r.afterPage2Fraction),
    lateByMs: rng.chance(r.lateFraction) ? drawIn(rng, r.lateByMs) : 0,
    copies: drawIn(rng, r.copies),
  };
}

/** A change to apply at a time: `edit` (one view changes) or `revert` (back to an earlier content). */
type Change =
  | { atMs: number; cause: string; kind: 'edit' | 'internal' | 'rotate' }
  | { atMs: number; cause: string; kind: 'revert'; of: number };

/** What shapes one server's history besides the random edits. */
interface HistoryInput {
  audiences: readonly string[];
  faults: readonly FaultId[];
  scenario: Scenario;
  pool: readonly PoolTool[];
  planted: readonly PlantedDefect[];
  /** F14 tools whose annotations lie; placed like planted defects but not labelled. */
  lying: readonly ToolDescriptor[];
  rotations: readonly IdentityRotation[];
  tenantVariants: boolean;
  equivocates: boolean;
}

function generateHistory(rng: Rng, input: HistoryInput): RevisionStep[] {
  const { audiences, scenario, pool } = input;
  const initial: Record<string, ToolDescriptor[]> = { [INTERNAL_AUDIENCE]: pickTools(rng, pool, 1, 3) };
  for (const audience of audiences) initial[audience] = pickTools(rng, pool, scenario.toolsPerView.min, scenario.toolsPerView.max);
  if (input.tenantVariants) addTenantVariants(initial, audiences);
  plant(rng, initial, audiences, [...input.planted.map((p) => p.descriptor), ...input.lying]);
  const placed = new Set<ToolDescriptor>([...input.planted.map((p) => p.descriptor), ...input.lying]);
  const protectedTools = new Set<ToolDescriptor>(Object.values(initial).flat().filter((tool) => placed.has(tool)));
  const steps: RevisionStep[] = [{ atMs: 0, revision: rng.int(1, 1000), views: initial, cause: 'base' }];
  for (const change of planChanges(rng, input.faults, scenario, input.rotations)) {
    const previous = steps.at(-1) as RevisionStep;
    // An equivocating server sometimes changes content without moving its revision.
    const revision = input.equivocates && change.kind !== 'internal' && rng.chance(rates(EQUIVOCATION, scenario).sameRevisionFraction) ? previous.revision : previous.revision + 1;
    steps.push({ atMs: change.atMs, revision, views: applyChange(rng, change, steps, audiences, pool, protectedTools), cause: change.cause });
  }
  return steps;
}

/** F16: the twin tenant of a shared role sees the same names with its own descriptors. */
function addTenantVariants(views: Record<string, ToolDescriptor[]>, audiences: readonly string[]): void {
  const twin = audiences.at(-1) as string;
  const source = views[audiences[0] as string] ?? [];
  views[twin] = source.map((tool) => ({ ...tool, description: `${String(tool.description ?? '')} (${twin.split('.')[0]} edition)` }));
}

/** Places each planted descriptor into one audience's view (the same object the plan labels). */
function plant(rng: Rng, views: Record<string, ToolDescriptor[]>, audiences: readonly string[], descriptors: readonly ToolDescriptor[]): void {
  const target = audiences.length > 0 ? rng.pick(audiences) : INTERNAL_AUDIENCE;
  for (const descriptor of descriptors) {
    const view = views[target] ?? [];
    view.splice(rng.int(0, view.length), 0, descriptor);
    views[target] = view;
  }
}

function planChanges(rng: Rng, faults: readonly FaultId[], scenario: Scenario, rotations: readonly IdentityRotation[]): Change[] {
  const { tHealMs } = scenario;
  const changes: Change[] = times(rng, rng.int(0, 2), tHealMs).map((atMs) => ({ atMs, cause: 'base', kind: 'edit' as const }));
  if (faults.includes('F1')) changes.push(...times(rng, drawIn(rng, rates(F1, scenario).changesPerServer), tHealMs).map((atMs) => ({ atMs, cause: 'F1', kind: 'edit' as const })));
  if (faults.includes('F4')) changes.push(...times(rng, drawIn(rng, rates(F4, scenario).changesPerServer), tHealMs).map((atMs) => ({ atMs, cause: 'F4', kind: 'internal' as const })));
  if (faults.includes('F2')) {
    const r = rates(F2, scenario);
    for (const atMs of times(rng, drawIn(rng, r.pairsPerServer), tHealMs - 100)) {
      changes.push({ atMs, cause: 'F2', kind: 'edit' }, { atMs: atMs + drawIn(rng, r.revertDelayMs), cause: 'F2', kind: 'revert', of: atMs });
    }
  }
  // Some rotations bring a different catalog (a new deployment behind the new certificate).
  for (const rotation of rotations) if (rng.chance(rates(F7, scenario).newCatalogFraction)) changes.push({ atMs: rotation.atMs, cause: 'F7', kind: 'rotate' });
  return changes.sort((a, b) => a.atMs - b.atMs || kindOrder(a) - kindOrder(b));
}

const kindOrder = (change: Change) => (change.kind === 'revert' ? 1 : 0);

function applyChange(rng: Rng, change: Change, steps: readonly RevisionStep[], audiences: readonly string[], pool: readonly PoolTool[], protectedTools: ReadonlySet<ToolDescriptor>): Record<string, ToolDescriptor[]> {
  const current = (steps.at(-1) as RevisionStep).views;
  if (change.kind === 'revert') {
    // A-B-A: the content from just before the paired edit comes back under a new revision.
    const before = [...steps].reverse().find((step) => step.atMs < change.of) ?? (steps[0] as RevisionStep);
    return { ...before.views };
  }
  // Descriptors are immutable once placed: unchanged views and tools are shared between steps.
  const views = { ...current };
  const targets = change.kind === 'rotate' ? audiences : [change.kind === 'internal' ? INTERNAL_AUDIENCE : rng.pick(audiences.length > 0 ? audiences : [INTERNAL_AUDIENCE])];
  for (const audience of targets) views[audience] = editView(rng, views[audience] ?? [], pool, protectedTools);
  return views;
}

/**
 * One realistic edit: add a tool, remove one, edit a schema, or rename one. Planted descriptors
 * are never edited, so each keeps its defect (and its label) for the whole round.
 */
function editView(rng: Rng, view: ToolDescriptor[], pool: readonly PoolTool[], protectedTools: ReadonlySet<ToolDescriptor>): ToolDescriptor[] {
  const editable = view.map((tool, i) => (protectedTools.has(tool) ? -1 : i)).filter((i) => i >= 0);
  const kind = editable.length === 0 ? 'add' : rng.pick(['add', 'remove', 'schema', 'rename'] as const);
  const next = [...view];
  const index = editable.length === 0 ? 0 : rng.pick(editable);
  if (kind === 'add') {
    const names = new Set(view.map((tool) => tool.name));
    const candidates = pool.map((entry) => entry.descriptor).filter((tool) => !names.has(tool.name));
    if (candidates.length > 0) next.splice(rng.int(0, view.length), 0, structuredClone(rng.pick(candidates)));
  } else if (kind === 'remove') {
    next.splice(index, 1);
  } else if (kind === 'schema') {
    next[index] = editSchema(next[index] as ToolDescriptor, rng);
  } else {
    next[index] = { ...(next[index] as ToolDescriptor), name: `${String((next[index] as ToolDescriptor).name)}_v${rng.int(2, 9)}` };
  }
  return next;
}

function editSchema(tool: ToolDescriptor, rng: Rng): ToolDescriptor {
  const schema = structuredClone(tool.inputSchema) as { properties?: Record<string, unknown> };
  schema.properties = { ...schema.properties, [`option${rng.int(1, 99)}`]: { type: 'boolean', description: 'Added option.' } };
  return { ...tool, inputSchema: schema };
}

function pickTools(rng: Rng, pool: readonly PoolTool[], min: number, max: number): ToolDescriptor[] {
  const count = rng.int(Math.min(min, pool.length), Math.min(max, pool.length));
  return rng.shuffle(pool.map((entry) => entry.descriptor)).slice(0, count).map((tool) => structuredClone(tool));
}

/** `count` distinct integer times in [1, endMs), sorted. */
function times(rng: Rng, count: number, endMs: number): number[] {
  const set = new Set<number>();
  while (set.size < count) set.add(rng.int(1, Math.max(1, endMs - 1)));
  return [...set].sort((a, b) => a - b);
}

function hex(rng: Rng, length: number): string {
  return Array.from({ length }, () => rng.int(0, 15).toString(16)).join('');
}

/** An integer drawn uniformly from an inclusive range. */
function drawIn(rng: Rng, range: { min: number; max: number }): number {
  return rng.int(range.min, range.max);
}
