/**
 * The world's own reading of the content checks of SPEC section 5: would a correct core
 * quarantine this descriptor? Written from the SPEC and the protocol, independently of
 * `src/validation`, so that ground truth never comes from the object under test.
 *
 * Used for quiet-tail probes (I12 "the probe calls with valid arguments are admitted"): a probe
 * of a tool a correct core must quarantine is not owed an admission. The built-in pool and its
 * edits are clean by construction and planted defects are labelled; this matters for captured
 * catalogs (`run --catalog`), whose real descriptors may fail a check.
 *
 * The reading is deliberately conservative: when in doubt it says "defective", which only drops a
 * probe expectation and can never make the oracle report a correct core. What it checks, per
 * descriptor (defaults of SPEC section 5 and the reference trust configuration):
 * - MALFORMED_DESCRIPTOR: not an object, `name` not a string, or `inputSchema` absent;
 * - BAD_NAME: not 1-128 of `A-Za-z0-9._-` (protocol 2025-11-25 tools.mdx, "Tool Names");
 * - OVERSIZED_DESCRIPTOR: compact UTF-8 JSON over {@link DESCRIPTOR_BYTES_MAX} bytes;
 * - SCHEMA_TOO_DEEP: `inputSchema`/`outputSchema` nesting (objects and arrays, root 1) over
 *   {@link SCHEMA_DEPTH_MAX};
 * - NON_OBJECT_ROOT: a schema root that is not an object with `type: "object"`;
 * - UNKNOWN_DIALECT: any `$schema` in a schema other than JSON Schema 2020-12 or draft-07;
 * - REMOTE_REF / UNRESOLVED_REF: any `$ref` that is not a same-document pointer (`#` or `#/...`)
 *   resolving inside its root schema (anchors and relative `$id` resolution count as remote here:
 *   conservative);
 * - INVALID_SCHEMA: ajv's meta-schema validation of the schema's dialect fails;
 * and, within one view, DUPLICATE_NAME: another tool with a different descriptor has the same
 * name after case folding and `-` = `_`.
 */
import { Ajv, type AnySchema } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** Largest descriptor a correct core admits: UTF-8 bytes of its compact JSON (SPEC 5 default, 64 KiB). */
export const DESCRIPTOR_BYTES_MAX = 64 * 1024;
/** Deepest schema nesting a correct core admits (objects and arrays; the root is 1). */
export const SCHEMA_DEPTH_MAX = 32;

/** Why the world expects a correct core to quarantine a descriptor. */
export type WorldDefect =
  | 'MALFORMED_DESCRIPTOR'
  | 'BAD_NAME'
  | 'OVERSIZED_DESCRIPTOR'
  | 'SCHEMA_TOO_DEEP'
  | 'NON_OBJECT_ROOT'
  | 'UNKNOWN_DIALECT'
  | 'REMOTE_REF'
  | 'UNRESOLVED_REF'
  | 'INVALID_SCHEMA'
  | 'DUPLICATE_NAME';

const NAME = /^[A-Za-z0-9._-]{1,128}$/;
const DRAFT_07 = 'json-schema.org/draft-07/schema';
const DRAFT_2020_12 = 'json-schema.org/draft/2020-12/schema';

/** Meta-schema validators, one per dialect; only `validateSchema` is used (no compile). */
const META = {
  draft07: new Ajv({ strict: false, logger: false }),
  draft2020: new Ajv2020({ strict: false, logger: false }),
};

/**
 * Verdicts by the descriptor's JSON text; bounded (a cleared memo only costs recomputing). A
 * round brings about one descriptor never judged before, so 1,024 clears about every thousand
 * rounds, and the memo's keys (whole descriptor texts) stay about a megabyte, not four
 * (issue 12, item 4: heap flat with rounds).
 */
const MEMO = new Map<string, WorldDefect | null>();
const MEMO_MAX = 1024;

/**
 * The defect a correct core must quarantine `tool` for, or null when it must accept it. `view` is
 * the list the tool is served in (for DUPLICATE_NAME); pass `[tool]` to judge the tool alone.
 */
export function worldContentDefect(tool: unknown, view: readonly unknown[]): WorldDefect | null {
  const text = JSON.stringify(tool);
  let verdict = MEMO.get(text);
  if (verdict === undefined) {
    if (MEMO.size >= MEMO_MAX) MEMO.clear();
    verdict = defectOf(tool, text);
    MEMO.set(text, verdict);
  }
  if (verdict !== null) return verdict;
  const name = normalise((tool as { name: string }).name);
  const twin = view.some(
    (other) =>
      other !== tool &&
      typeof (other as { name?: unknown })?.name === 'string' &&
      normalise((other as { name: string }).name) === name &&
      JSON.stringify(other) !== text,
  );
  return twin ? 'DUPLICATE_NAME' : null;
}

function normalise(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

function defectOf(tool: unknown, text: string | undefined): WorldDefect | null {
  if (!isObject(tool) || typeof tool.name !== 'string' || text === undefined || !('inputSchema' in tool))
    return 'MALFORMED_DESCRIPTOR';
  if (!NAME.test(tool.name)) return 'BAD_NAME';
  if (Buffer.byteLength(text, 'utf8') > DESCRIPTOR_BYTES_MAX) return 'OVERSIZED_DESCRIPTOR';
  const schemas = tool.outputSchema === undefined ? [tool.inputSchema] : [tool.inputSchema, tool.outputSchema];
  if (schemas.some((schema) => deeperThan(schema, SCHEMA_DEPTH_MAX))) return 'SCHEMA_TOO_DEEP';
  if (!schemas.every((schema) => isObject(schema) && schema.type === 'object')) return 'NON_OBJECT_ROOT';
  for (const schema of schemas as Record<string, unknown>[]) {
    const problem = schemaProblem(schema);
    if (problem !== null) return problem;
  }
  return null;
}

/** Dialect, references and meta-schema validity of one object-rooted schema. */
function schemaProblem(root: Record<string, unknown>): WorldDefect | null {
  const dialects = new Set<string>();
  const refs: string[] = [];
  walk(root, (node) => {
    if (typeof node.$schema === 'string') dialects.add(folded(node.$schema));
    else if ('$schema' in node) dialects.add('(not a string)');
    if ('$ref' in node) refs.push(typeof node.$ref === 'string' ? node.$ref : '(not a string)');
  });
  if (![...dialects].every((dialect) => dialect === DRAFT_07 || dialect === DRAFT_2020_12)) return 'UNKNOWN_DIALECT';
  if (dialects.size > 1) return 'UNKNOWN_DIALECT';
  if (refs.some((ref) => !ref.startsWith('#'))) return 'REMOTE_REF';
  if (refs.some((ref) => !resolvesInside(root, ref))) return 'UNRESOLVED_REF';
  const meta = dialects.has(DRAFT_07) ? META.draft07 : META.draft2020;
  // The root's `$schema` is dropped: each instance validates against its own dialect's meta-schema.
  const { $schema: _dialect, ...body } = root;
  try {
    return meta.validateSchema(body as AnySchema) === true ? null : 'INVALID_SCHEMA';
  } catch {
    return 'INVALID_SCHEMA';
  }
}

/** `$schema` compared without its empty fragment and scheme (`http:` and `https:` name the same dialect). */
function folded(uri: string): string {
  return uri.replace(/#$/, '').replace(/^https?:\/\//, '');
}

/** True when `ref` is `#` or a JSON Pointer fragment naming a value inside `root`. */
function resolvesInside(root: unknown, ref: string): boolean {
  if (ref === '#') return true;
  if (!ref.startsWith('#/')) return false;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return false;
    }
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < node.length) node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return false;
  }
  return isObject(node) || typeof node === 'boolean';
}

/** Calls `visit` on every object inside `value` (the value itself included), depth first. */
function walk(value: unknown, visit: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const item of value) walk(item, visit);
  else if (isObject(value)) {
    visit(value);
    for (const child of Object.values(value)) walk(child, visit);
  }
}

/** True when `value` nests objects and arrays more than `limit` deep (recursion bounded by `limit`). */
function deeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit === 0) return true;
  return (Array.isArray(value) ? value : Object.values(value)).some((child) => deeperThan(child, limit - 1));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
