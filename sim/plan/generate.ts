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
import type { CursorTrait, FaultId, NotificationPlan, RevisionStep, RoundPlan, ServerPlan, ToolDescriptor } from './types.ts';

/** An audience no simulated client connects as; F4 changes only its view (revision moves, content does not). */
export const INTERNAL_AUDIENCE = 'internal.ops';

const CURSOR_TRAITS: readonly CursorTrait[] = ['repeat', 'cycle', 'always-empty', 'never-ending', 'ignored', 'empty-page-with-next'];

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
  return {
    schema: 'catsim.plan.v1',
    seed,
    round,
    roundSeed,
    scenario: scenario.name,
    faults,
    bounds: boundsOf(scenario),
    timings: { ...scenario.timings },
    nominalLatencyMs: [scenario.nominalLatencyMs.min, scenario.nominalLatencyMs.max],
    eventBudget: scenario.eventBudget,
    servers,
  };
}

function generateServer(id: string, rng: Rng, faults: readonly FaultId[], scenario: Scenario, pool: readonly PoolTool[]): ServerPlan {
  const on = (fault: FaultId) => faults.includes(fault) && rng.chance(0.75);
  const audiences = rng.shuffle([...scenario.audiences]).slice(0, rng.int(scenario.audiencesPerServer.min, scenario.audiencesPerServer.max));
  return {
    id,
    identity: `fp:${hex(rng, 16)}`,
    versioned: !on('F12'),
    audiences,
    history: generateHistory(rng, audiences, faults, scenario, pool),
    pageSizeMin: scenario.pageSize.min,
    pageSizeMax: rng.int(scenario.pageSize.min, scenario.pageSize.max),
    cursorTrait: on('F5') ? rng.pick(CURSOR_TRAITS) : null,
    restartsAtMs: on('F11') ? times(rng, rng.int(1, 3), scenario.tHealMs) : [],
    notifications: generateNotifications(rng, on('F3')),
    latencyMsMin: scenario.latencyMs.min,
    latencyMsMax: rng.int(scenario.latencyMs.min, scenario.latencyMs.max),
  };
}

function generateNotifications(rng: Rng, f3: boolean): NotificationPlan {
  if (!f3) return { declared: true, sendOnChange: true, afterPage2: false, lateByMs: 0, copies: 1 };
  return {
    declared: !rng.chance(0.2),
    sendOnChange: !rng.chance(0.25),
    afterPage2: rng.chance(0.5),
    lateByMs: rng.chance(0.5) ? rng.int(100, 1500) : 0,
    copies: rng.int(1, 3),
  };
}

/** A change to apply at a time: `edit` (one view changes) or `revert` (back to an earlier content). */
type Change = { atMs: number; cause: string; kind: 'edit' | 'internal' } | { atMs: number; cause: string; kind: 'revert'; of: number };

function generateHistory(rng: Rng, audiences: readonly string[], faults: readonly FaultId[], scenario: Scenario, pool: readonly PoolTool[]): RevisionStep[] {
  const initial: Record<string, ToolDescriptor[]> = { [INTERNAL_AUDIENCE]: pickTools(rng, pool, 1, 3) };
  for (const audience of audiences) initial[audience] = pickTools(rng, pool, scenario.toolsPerView.min, scenario.toolsPerView.max);
  const changes = planChanges(rng, faults, scenario.tHealMs);
  const steps: RevisionStep[] = [{ atMs: 0, revision: rng.int(1, 1000), views: initial, cause: 'base' }];
  for (const change of changes) {
    const previous = steps.at(-1) as RevisionStep;
    steps.push({ atMs: change.atMs, revision: previous.revision + 1, views: applyChange(rng, change, steps, audiences, pool), cause: change.cause });
  }
  return steps;
}

function planChanges(rng: Rng, faults: readonly FaultId[], tHealMs: number): Change[] {
  const changes: Change[] = times(rng, rng.int(0, 2), tHealMs).map((atMs) => ({ atMs, cause: 'base', kind: 'edit' as const }));
  if (faults.includes('F1')) changes.push(...times(rng, rng.int(4, 10), tHealMs).map((atMs) => ({ atMs, cause: 'F1', kind: 'edit' as const })));
  if (faults.includes('F4')) changes.push(...times(rng, rng.int(2, 6), tHealMs).map((atMs) => ({ atMs, cause: 'F4', kind: 'internal' as const })));
  if (faults.includes('F2')) {
    for (const atMs of times(rng, rng.int(1, 3), tHealMs - 100)) {
      changes.push({ atMs, cause: 'F2', kind: 'edit' }, { atMs: atMs + rng.int(5, 80), cause: 'F2', kind: 'revert', of: atMs });
    }
  }
  return changes.sort((a, b) => a.atMs - b.atMs || kindOrder(a) - kindOrder(b));
}

const kindOrder = (change: Change) => (change.kind === 'revert' ? 1 : 0);

function applyChange(rng: Rng, change: Change, steps: readonly RevisionStep[], audiences: readonly string[], pool: readonly PoolTool[]): Record<string, ToolDescriptor[]> {
  const current = (steps.at(-1) as RevisionStep).views;
  if (change.kind === 'revert') {
    // A-B-A: the content from just before the paired edit comes back under a new revision.
    const before = [...steps].reverse().find((step) => step.atMs < change.of) ?? (steps[0] as RevisionStep);
    return { ...before.views };
  }
  // Descriptors are immutable once placed: unchanged views and tools are shared between steps.
  const views = { ...current };
  const audience = change.kind === 'internal' ? INTERNAL_AUDIENCE : rng.pick(audiences.length > 0 ? audiences : [INTERNAL_AUDIENCE]);
  views[audience] = editView(rng, views[audience] ?? [], pool);
  return views;
}

/** One realistic edit: add a tool, remove one, edit a schema, or rename one. */
function editView(rng: Rng, view: ToolDescriptor[], pool: readonly PoolTool[]): ToolDescriptor[] {
  const kind = view.length === 0 ? 'add' : rng.pick(['add', 'remove', 'schema', 'rename'] as const);
  const next = [...view];
  const index = rng.int(0, Math.max(0, view.length - 1));
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
