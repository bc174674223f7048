/**
 * Per-tool content checks (SPEC section 5). A failing tool is quarantined inside the snapshot
 * with a reason; the rest of the snapshot stays usable. Limits over the whole catalog are in
 * `catalog-limits.ts` (they quarantine the snapshot, not a tool).
 *
 * The checks run in this order and the first failing one is the verdict:
 *  1. MALFORMED_DESCRIPTOR: not a JSON object; `name` not a string; a protocol field of the
 *     wrong JSON type (`title`/`description` string, `annotations`/`_meta`/`execution` object,
 *     `icons` array: the `Tool` type of the MCP 2025-11-25 schema); a value with no JSON form
 *     (a lone UTF-16 surrogate in a string or key included: it has no UTF-8 form);
 *  2. BAD_NAME: the protocol's tool-name rule, `TOOL_NAME_PATTERN`;
 *  3. OVERSIZED_DESCRIPTOR: compact UTF-8 JSON of the whole tool over `descriptorBytesMax`;
 *  4. SCHEMA_TOO_DEEP: `inputSchema` or `outputSchema` nests objects/arrays deeper than
 *     `schemaDepthMax` (the schema's root object is depth 1);
 *  5. NON_OBJECT_ROOT: `inputSchema` is not a JSON object with `type: "object"` (absent
 *     included); likewise `outputSchema` when present (see below);
 *  6. UNKNOWN_DIALECT: a `$schema` (root or embedded) not pinned to an accepted dialect
 *     (`dialect.ts`);
 *  7. REMOTE_REF, then 8. UNRESOLVED_REF: the `$ref` closure (`internal/ref-closure.ts`);
 *  9. INVALID_SCHEMA: ajv of the pinned dialect, with `validateSchema: true`, refuses to compile
 *     the schema (a reference ajv alone cannot resolve is still reported as 7 or 8).
 * Each step looks at `inputSchema` and then `outputSchema` before the next step runs. Names equal
 * after normalisation are then marked DUPLICATE_NAME, except on tools that already failed.
 *
 * `outputSchema`: protocol 2025-11-25 (the version the core negotiates) types it as
 * `{ type: "object", ... }`, "currently restricted to type: object at the root level", and SDK
 * 1.32.2 rejects a whole page otherwise; so its root must be an object schema too. Protocol
 * 2026-07-28 lifts that restriction; the rule must follow when the core negotiates that version.
 */
import { MissingRefError } from 'ajv';
import { jsonDepth, measureJson } from './internal/json-measure.ts';
import { pinSchema, type PinnedSchema } from './internal/pinned-schema.ts';
import { missingRefProblem, refProblems } from './internal/ref-closure.ts';
import { validationDigest, type TrustConfig } from './trust.ts';
import type { ValidationMemos } from './validation-memos.ts';
import type { ToolQuarantineReason, ToolVerdict } from './verdicts.ts';

export type { ToolQuarantineReason, ToolVerdict } from './verdicts.ts';

/** The shape of {@link checkTools}: verdicts for every tool of one snapshot, in order. */
export type ContentChecks = (
  tools: readonly unknown[],
  descriptorDigests: readonly string[],
  trust: TrustConfig,
  memos: ValidationMemos,
) => ToolVerdict[];

/** The protocol's tool-name rule (2025-11-25 tools.mdx; SDK toolNameValidation): 1-128 of `A-Za-z0-9._-`. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** The normalisation hosts apply before comparing names: case folded, `-` equal to `_`. */
export function normaliseToolName(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

/** The name of a tool as sent, or '' when it has none. */
export function toolName(tool: unknown): string {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}

/**
 * Verdicts for every tool of one snapshot, in the same order. `descriptorDigests[i]` must be
 * `descriptorDigest(tools[i])` (SPEC section 4): it tells identical duplicates apart and keys the
 * verdict memo (with the trust digest), so a wrong digest would return another tool's verdict.
 * A tool without a digest is checked without the memo. `memos`: the caller's verdict memo and
 * schema compiler (a host's `CoreMemos.validation`). Never throws for any JSON input.
 */
export function checkTools(
  tools: readonly unknown[],
  descriptorDigests: readonly string[],
  trust: TrustConfig,
  memos: ValidationMemos,
): ToolVerdict[] {
  const trustKey = validationDigest(trust);
  const verdicts = tools.map((tool, index) => memoisedVerdict(tool, descriptorDigests[index], trustKey, trust, memos));
  markDuplicates(tools, descriptorDigests, verdicts);
  return verdicts;
}

function memoisedVerdict(
  tool: unknown,
  digest: string | undefined,
  trustKey: string,
  trust: TrustConfig,
  memos: ValidationMemos,
): ToolVerdict {
  if (digest === undefined) return checkOne(tool, trust, memos);
  return memos.verdicts.get(`${trustKey}:${digest}`, () => checkOne(tool, trust, memos));
}

/** A descriptor whose protocol fields have the right JSON types. */
interface DescriptorShape {
  name: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
}

function checkOne(tool: unknown, trust: TrustConfig, memos: ValidationMemos): ToolVerdict {
  if (!isDescriptorShape(tool)) return 'MALFORMED_DESCRIPTOR';
  // One walk serves two steps; it stops at the byte limit, so a non-JSON value beyond it is not seen.
  const size = measureJson(tool, trust.descriptorBytesMax);
  if (size.kind === 'not-json') return 'MALFORMED_DESCRIPTOR';
  if (!TOOL_NAME_PATTERN.test(tool.name)) return 'BAD_NAME';
  if (size.kind === 'over') return 'OVERSIZED_DESCRIPTOR';
  return checkSchemas(
    tool.outputSchema === undefined ? [tool.inputSchema] : [tool.inputSchema, tool.outputSchema],
    trust,
    memos,
  );
}

/** Optional protocol fields and the JSON type each must have when present. */
const FIELD_TYPES: readonly [string, (value: unknown) => boolean][] = [
  ['title', (value) => typeof value === 'string'],
  ['description', (value) => typeof value === 'string'],
  ['annotations', isObject],
  ['_meta', isObject],
  ['execution', isObject],
  ['icons', Array.isArray],
];

function isDescriptorShape(tool: unknown): tool is DescriptorShape {
  if (!isObject(tool) || typeof tool.name !== 'string') return false;
  return FIELD_TYPES.every(([field, hasType]) => !Object.hasOwn(tool, field) || hasType(tool[field]));
}

/** Steps 4 to 9, each over every schema of the tool before the next. */
function checkSchemas(schemas: readonly unknown[], trust: TrustConfig, memos: ValidationMemos): ToolVerdict {
  if (schemas.some((schema) => jsonDepth(schema) > trust.schemaDepthMax)) return 'SCHEMA_TOO_DEEP';
  if (!schemas.every(isObjectRootSchema)) return 'NON_OBJECT_ROOT';
  const pinned = schemas.map((schema) => pinSchema(schema, trust));
  if (!pinned.every((schema) => schema !== null)) return 'UNKNOWN_DIALECT';
  return closureVerdict(pinned) ?? compileVerdict(pinned, trust, memos);
}

function isObjectRootSchema(schema: unknown): schema is Record<string, unknown> {
  return isObject(schema) && schema.type === 'object';
}

function closureVerdict(pinned: readonly PinnedSchema[]): ToolQuarantineReason | null {
  const problems = pinned.map((schema) => refProblems(schema.index));
  if (problems.some((found) => found.has('REMOTE_REF'))) return 'REMOTE_REF';
  if (problems.some((found) => found.has('UNRESOLVED_REF'))) return 'UNRESOLVED_REF';
  return null;
}

function compileVerdict(pinned: readonly PinnedSchema[], trust: TrustConfig, memos: ValidationMemos): ToolVerdict {
  for (const schema of pinned) {
    const problem = compileProblem(schema, trust, memos);
    if (problem !== null) return problem;
  }
  return 'ok';
}

/** Compiles only to learn whether ajv accepts the schema; the gate compiles its own validator. */
function compileProblem(pinned: PinnedSchema, trust: TrustConfig, memos: ValidationMemos): ToolQuarantineReason | null {
  try {
    memos.schemas.compilePinned(pinned.schema, pinned.dialect, trust);
    return null;
  } catch (error) {
    return error instanceof MissingRefError ? missingRefProblem(error.missingRef, pinned.index) : 'INVALID_SCHEMA';
  }
}

/**
 * Names equal after normalisation: when the descriptors differ, every tool of the group is
 * quarantined; exact copies keep the first and quarantine the rest.
 */
function markDuplicates(tools: readonly unknown[], digests: readonly string[], verdicts: ToolVerdict[]): void {
  const groups = new Map<string, number[]>();
  tools.forEach((tool, index) => {
    const name = normaliseToolName(toolName(tool));
    const members = groups.get(name);
    if (members === undefined) groups.set(name, [index]);
    else members.push(index);
  });
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const identical = members.every((index) => digests[index] === digests[members[0] as number]);
    for (const index of identical ? members.slice(1) : members) {
      if (verdicts[index] === 'ok') verdicts[index] = 'DUPLICATE_NAME';
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
