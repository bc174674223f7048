/**
 * Projection of admission facts into a baseline (the work behind `projectBaseline`), with the
 * one switch a checker-validation mutant needs: an unfrozen baseline.
 *
 * A catalog tool is on the surface when its content-check verdict is `ok` (a quarantined tool is
 * never admissible, SPEC section 5) and the grant holds its name. Its name, full description and
 * input schema are copied out of the descriptor as the server listed it.
 */
import { keyName } from '../../keys.ts';
import type { SnapshotTool } from '../../snapshot/snapshot.ts';
import { normaliseToolName, TOOL_NAME_PATTERN } from '../../validation/content-checks.ts';
import type { AdmissionFacts } from '../admission-facts.ts';
import type { Baseline } from '../baseline.ts';
import type { SurfaceTool } from '../surface-tool.ts';
import { copyJson, deepFreeze, type JsonObject } from './json-value.ts';

/** How to build the baseline; only mutants change `freeze`. */
export interface ProjectionOptions {
  freeze: boolean;
}

/**
 * The baseline of `facts`.
 * @throws TypeError (one line) for facts that contradict themselves: a RETIRED generation, a grant
 *   of another audience, a host tool that is malformed or whose name collides.
 */
export function projectFacts(facts: AdmissionFacts, options: ProjectionOptions): Baseline {
  checkFacts(facts);
  const granted = new Set(facts.grant.tools);
  const catalog = facts.generation.snapshot.tools.filter((tool) => tool.verdict === 'ok' && granted.has(tool.name));
  const hostTools = facts.hostTools ?? [];
  checkHostTools(hostTools, facts.generation.snapshot.tools);
  const baseline: Baseline = {
    session: facts.session,
    key: keyName({
      identity: facts.generation.snapshot.serverIdentity,
      tenant: facts.generation.snapshot.tenant,
      role: facts.generation.snapshot.role,
    }),
    generation: facts.generation.catalogGeneration,
    snapshotDigest: facts.generation.snapshotDigest,
    policyEpoch: facts.grant.policyEpoch,
    surface: [...catalog.map(catalogTool), ...hostTools.map(copyTool)],
    descriptorDigests: [...catalog.map((tool) => tool.descriptorDigest), ...hostTools.map(() => null)],
  };
  return options.freeze ? deepFreeze(baseline) : baseline;
}

function checkFacts(facts: AdmissionFacts): void {
  const { generation, grant } = facts;
  if (typeof facts.session !== 'string' || facts.session === '')
    throw new TypeError('admission facts: session must be a non-empty string');
  if (generation.status === 'RETIRED')
    throw new TypeError(
      `admission facts: generation ${generation.catalogGeneration} of ${generation.key} is RETIRED and admits nothing`,
    );
  const { tenant, role } = generation.snapshot;
  if (grant.audience.tenant !== tenant || grant.audience.role !== role) {
    throw new TypeError(
      `admission facts: the grant is for ${grant.audience.tenant}.${grant.audience.role}, the generation for ${tenant}.${role}`,
    );
  }
  if (!Number.isSafeInteger(grant.policyEpoch) || grant.policyEpoch < 0)
    throw new TypeError(
      `admission facts: policyEpoch must be a non-negative integer, got ${String(grant.policyEpoch)}`,
    );
}

/** Host tools: well formed, named by the protocol's rule, unique against the generation and each other. */
function checkHostTools(hostTools: readonly SurfaceTool[], catalog: readonly SnapshotTool[]): void {
  if (hostTools.length === 0) return;
  const taken = new Set(catalog.map((tool) => normaliseToolName(tool.name)));
  for (const tool of hostTools) {
    if (typeof tool.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name))
      throw new TypeError(`admission facts: host tool name ${JSON.stringify(tool.name)} breaks the tool-name rule`);
    if (typeof tool.description !== 'string')
      throw new TypeError(`admission facts: host tool ${tool.name} needs a string description`);
    if (!isObject(tool.inputSchema))
      throw new TypeError(`admission facts: host tool ${tool.name} needs an object inputSchema`);
    const normalised = normaliseToolName(tool.name);
    if (taken.has(normalised))
      throw new TypeError(`admission facts: host tool ${tool.name} collides with another tool name`);
    taken.add(normalised);
  }
}

/** The logical tool of a snapshot tool: from the verbatim source descriptor. */
function catalogTool(tool: SnapshotTool): SurfaceTool {
  const source = tool.source as { description?: unknown; inputSchema?: unknown };
  return {
    name: tool.name,
    description: typeof source.description === 'string' ? source.description : '',
    inputSchema: copyJson(source.inputSchema as JsonObject),
  };
}

function copyTool(tool: SurfaceTool): SurfaceTool {
  return { name: tool.name, description: tool.description, inputSchema: copyJson(tool.inputSchema) };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
