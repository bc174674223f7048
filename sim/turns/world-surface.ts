/**
 * The world's own reading of a model turn's surface (SPEC section 8; seed 003), with its own code,
 * never the core's: the baseline of a disclosure (the generation the core showed the session,
 * descriptors looked up by digest in the server's plan, content checks by the world's reading,
 * grants from the policy service), surface digests and sizes.
 *
 * Fault model: none of its own; it is ground truth for F22's turns. A tool whose grant changed
 * less than B (the scenario's revocation bound) ago is `contested`: the core may not know yet.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { DisclosedTool, TurnTool } from '../guard/adapter.ts';
import { worldContentDefect } from '../plan/content-defects.ts';
import type { ServerPlan, ToolDescriptor } from '../plan/types.ts';
import { worldDescriptorDigest } from '../trace/digests.ts';

/** One tool of a world baseline (the `model_turn` event's `baseline[]`). */
export interface WorldBaselineTool {
  name: string;
  digest: string;
  contested: boolean;
  /** The logical tool, for sizes and for hooks that need one. */
  tool: TurnTool;
}

/** A tool as the world digests it (the `request_surface` and `model_received` events' `tools[]`). */
export interface SeenTool {
  name: string;
  digest: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The logical form `{name, description, inputSchema}` of a tool, read defensively. */
function logical(tool: unknown): { name: unknown; description: unknown; inputSchema: unknown } {
  const value = tool as { name?: unknown; description?: unknown; inputSchema?: unknown };
  return { name: value?.name, description: value?.description, inputSchema: value?.inputSchema };
}

/** JCS of the logical form, or null when it cannot be read (a throwing getter, a cycle). */
function canonicalOf(tool: unknown): string | null {
  try {
    return canonicalize(logical(tool)) ?? null;
  } catch {
    return null;
  }
}

/** sha256("catsim.surface-tool.v1\n" + JCS({name, description, inputSchema})); unreadable: of "unreadable". */
export function surfaceDigest(tool: unknown): string {
  return sha256(`catsim.surface-tool.v1\n${canonicalOf(tool) ?? 'unreadable'}`);
}

/** What the world sees of a list of tools (a request's or what the model received), in order. */
export function seenTools(tools: unknown): SeenTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((tool: unknown) => {
    let name: unknown;
    try {
      name = (tool as { name?: unknown })?.name;
    } catch {
      name = undefined;
    }
    return { name: typeof name === 'string' ? name : String(name), digest: surfaceDigest(tool) };
  });
}

/** The size of tools for a capacity: count, or the UTF-8 bytes of each one's JCS logical form (docs/SURFACE.md). */
export function surfaceSize(tools: readonly TurnTool[], limit: 'toolCountMax' | 'surfaceBytesMax'): number {
  if (limit === 'toolCountMax') return tools.length;
  return tools.reduce((bytes, tool) => bytes + Buffer.byteLength(canonicalOf(tool) ?? '', 'utf8'), 0);
}

/** Descriptors of a server's plan by world digest (every revision, every audience), memoised per plan. */
const BY_DIGEST = new WeakMap<ServerPlan, Map<string, ToolDescriptor>>();

function descriptorsOf(server: ServerPlan): Map<string, ToolDescriptor> {
  let map = BY_DIGEST.get(server);
  if (map === undefined) {
    map = new Map();
    for (const step of server.history) {
      for (const view of Object.values(step.views))
        for (const descriptor of view) map.set(worldDescriptorDigest(descriptor), descriptor);
    }
    BY_DIGEST.set(server, map);
  }
  return map;
}

/** A tool name as the duplicate check compares names (case and `-`/`_` folded). */
function normalisedName(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

/** The logical tool of a descriptor as listed (a missing description is `''`). */
export function logicalTool(descriptor: ToolDescriptor): TurnTool {
  return {
    name: String(descriptor.name),
    description: typeof descriptor.description === 'string' ? descriptor.description : '',
    inputSchema: descriptor.inputSchema as Record<string, unknown>,
  };
}

/**
 * The world's baseline of one disclosure: the disclosed tools, in snapshot order, that the world
 * knows by digest, that carry no planted defect and pass the world's reading of the content
 * checks (against the whole disclosed list, for duplicates: a name listed again with the same
 * descriptor counts once, at its first place, as SPEC section 5's duplicate check keeps it; a
 * planted DUPLICATE_NAME twin counts as defective only when its namesake is in the list too), and
 * that the audience holds now or whose grant is contested.
 */
export function worldBaseline(
  server: ServerPlan,
  disclosed: readonly DisclosedTool[],
  granted: ReadonlySet<string>,
  contested: ReadonlySet<string>,
): WorldBaselineTool[] {
  const known = descriptorsOf(server);
  // DUPLICATE_NAME is relational (as I5 reads it): a planted twin is a duplicate only next to its
  // namesake in the same list, which worldContentDefect judges against `listed`. An unversioned
  // observation that missed the twin's page holds no duplicate (seed 1 round 13504).
  const planted = new Set(
    server.planted
      .filter((defect) => defect.defect !== 'DUPLICATE_NAME')
      .map((defect) => worldDescriptorDigest(defect.descriptor)),
  );
  const descriptors = disclosed.map((tool) => known.get(tool.descriptorDigest));
  const listed = descriptors.filter((descriptor): descriptor is ToolDescriptor => descriptor !== undefined);
  const baseline: WorldBaselineTool[] = [];
  const listedBefore = new Set<string>();
  for (const [index, tool] of disclosed.entries()) {
    const descriptor = descriptors[index];
    const repeated = listedBefore.has(normalisedName(tool.name));
    listedBefore.add(normalisedName(tool.name));
    if (
      descriptor === undefined ||
      repeated ||
      planted.has(tool.descriptorDigest) ||
      worldContentDefect(descriptor, listed) !== null
    )
      continue;
    if (!granted.has(tool.name) && !contested.has(tool.name)) continue;
    const logicalForm = logicalTool(descriptor);
    baseline.push({
      name: logicalForm.name,
      digest: surfaceDigest(logicalForm),
      contested: contested.has(tool.name),
      tool: logicalForm,
    });
  }
  return baseline;
}
