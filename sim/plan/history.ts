/**
 * A server's revision history, built from its first views and the changes the base and the faults
 * planned (sim/faults/draft.ts): every change is one more revision step, applied in time order,
 * each drawing what it edits from its own stream.
 */
import type { Rng } from '../random.ts';
import type { HistoryChange } from '../faults/draft.ts';
import type { PoolTool } from './tool-pool.ts';
import type { RevisionStep, ToolDescriptor } from './types.ts';

/** An audience no simulated client connects as; F4 changes only its view (revision moves, content does not). */
export const INTERNAL_AUDIENCE = 'internal.ops';

/** What a history is built from besides its changes. */
export interface HistoryInput {
  first: RevisionStep;
  audiences: readonly string[];
  pool: readonly PoolTool[];
  /** Descriptors that edits never touch (placed defects, lying tools). */
  protectedTools: ReadonlySet<ToolDescriptor>;
}

/**
 * The revision steps: the first one, then one per change in time order (a revert after an edit at
 * the same instant), each with the next revision number.
 */
export function buildHistory(input: HistoryInput, changes: readonly HistoryChange[]): RevisionStep[] {
  const steps: RevisionStep[] = [input.first];
  const ordered = [...changes].sort((a, b) => a.atMs - b.atMs || kindOrder(a) - kindOrder(b));
  for (const change of ordered) {
    const previous = steps.at(-1) as RevisionStep;
    steps.push({
      atMs: change.atMs,
      revision: previous.revision + 1,
      views: applyChange(change, steps, input),
      cause: change.cause,
    });
  }
  return steps;
}

const kindOrder = (change: HistoryChange) => (change.kind === 'revert' ? 1 : 0);

function applyChange(
  change: HistoryChange,
  steps: readonly RevisionStep[],
  input: HistoryInput,
): Record<string, ToolDescriptor[]> {
  const current = (steps.at(-1) as RevisionStep).views;
  if (change.kind === 'revert') {
    // A-B-A: the content from just before the paired edit comes back under a new revision.
    const before = [...steps].reverse().find((step) => step.atMs < change.of) ?? (steps[0] as RevisionStep);
    return { ...before.views };
  }
  if (change.kind === 'describe') return describeOne(change.rng, current, input.protectedTools);
  if (change.kind === 'contract') return contractOne(current, change.tool, change.edit);
  // Descriptors are immutable once placed: unchanged views and tools are shared between steps.
  const views = { ...current };
  const { rng } = change;
  const audiences = input.audiences.length > 0 ? input.audiences : [INTERNAL_AUDIENCE];
  const targets =
    change.kind === 'rotate' ? input.audiences : [change.kind === 'internal' ? INTERNAL_AUDIENCE : rng.pick(audiences)];
  for (const audience of targets)
    views[audience] = editView(rng, views[audience] ?? [], input.pool, input.protectedTools);
  return views;
}

/**
 * One realistic edit: add a tool, remove one, edit a schema, or rename one. Protected descriptors
 * are never edited, so each keeps its defect (and its label) for the whole round.
 */
function editView(
  rng: Rng,
  view: ToolDescriptor[],
  pool: readonly PoolTool[],
  protectedTools: ReadonlySet<ToolDescriptor>,
): ToolDescriptor[] {
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
    next[index] = {
      ...(next[index] as ToolDescriptor),
      name: `${String((next[index] as ToolDescriptor).name)}_v${rng.int(2, 9)}`,
    };
  }
  return next;
}

/**
 * A description-only change (F32): one unprotected tool, drawn among the tools the views list (in
 * audience order), gets a new description in every view that lists the same descriptor; names,
 * schemas and everything else stay. Views without a tool to change come back unchanged.
 */
function describeOne(
  rng: Rng,
  current: Readonly<Record<string, ToolDescriptor[]>>,
  protectedTools: ReadonlySet<ToolDescriptor>,
): Record<string, ToolDescriptor[]> {
  const candidates = Object.values(current)
    .flat()
    .filter((tool) => !protectedTools.has(tool));
  if (candidates.length === 0) return { ...current };
  const target = rng.pick(candidates);
  const before = JSON.stringify(target);
  const description = `${String(target.description ?? '')} (revised: now also used for audits)`.trim();
  const changed: ToolDescriptor = { ...target, description };
  const views: Record<string, ToolDescriptor[]> = {};
  for (const [audience, tools] of Object.entries(current))
    views[audience] = tools.map((tool) => (JSON.stringify(tool) === before ? changed : tool));
  return views;
}

/**
 * A new contract of one tool (F36): every listed descriptor named `tool` is replaced by `edit` of
 * it (one new descriptor per distinct old one); the other tools stay. F36's tools are placed, so
 * no other edit touches them.
 */
function contractOne(
  current: Readonly<Record<string, ToolDescriptor[]>>,
  tool: string,
  edit: (descriptor: ToolDescriptor) => ToolDescriptor,
): Record<string, ToolDescriptor[]> {
  const edited = new Map<ToolDescriptor, ToolDescriptor>();
  const views: Record<string, ToolDescriptor[]> = {};
  for (const [audience, tools] of Object.entries(current))
    views[audience] = tools.map((listed) => {
      if (listed.name !== tool) return listed;
      let next = edited.get(listed);
      if (next === undefined) edited.set(listed, (next = edit(listed)));
      return next;
    });
  return views;
}

function editSchema(tool: ToolDescriptor, rng: Rng): ToolDescriptor {
  const schema = structuredClone(tool.inputSchema) as { properties?: Record<string, unknown> };
  schema.properties = {
    ...schema.properties,
    [`option${rng.int(1, 99)}`]: { type: 'boolean', description: 'Added option.' },
  };
  return { ...tool, inputSchema: schema };
}

/** `min`..`max` distinct pool descriptors (fresh copies), in a drawn order. */
export function pickTools(rng: Rng, pool: readonly PoolTool[], min: number, max: number): ToolDescriptor[] {
  const count = rng.int(Math.min(min, pool.length), Math.min(max, pool.length));
  return rng
    .shuffle(pool.map((entry) => entry.descriptor))
    .slice(0, count)
    .map((tool) => structuredClone(tool));
}
