/**
 * Tool manifests (SPEC section 9; seed 004, "Manifest 先描述执行语义": a tool version holds at
 * least its input, output and error schemas, owner, risk level, required permissions, side effect,
 * idempotency, timeout, retry policy, confirmation, data classification and endpoint binding).
 *
 * A manifest is built from two sources: the descriptor a server listed (name, title, description,
 * input and output schemas: what MCP carries) and the operator's entry for the tool in a manifest
 * file (`manifest-file.ts`: everything MCP does not carry). A field the operator did not give gets
 * the safest default ({@link SAFEST_DEFAULTS}), never the most permissive one: a tool nobody
 * described is treated as destructive, not idempotent, never retried, confirmed by a human, needing
 * a permission of its own, critical and restricted.
 *
 * A manifest is immutable (deep-frozen) canonical JSON; its digest ({@link manifestDigestOf}) is
 * what a version is (`capability-registry.ts`): two manifests with the same digest are the same
 * version, and any change, a description included, is a new one (seed 004: "修改 description 也可能
 * 改变模型选择行为，因此仍发布新 registry version").
 */
import { domainDigest } from '../snapshot/canonical.ts';
import { descriptorDigest, schemaDigest } from '../snapshot/digests.ts';
import type { EffectClass } from '../validation/trust.ts';

/** The `schema` value of a manifest. */
export const TOOL_MANIFEST_SCHEMA = 'catsim.toolManifest.v1';

/** How much harm a wrong call can do, lowest first (seed 004: "risk level"). */
export type RiskLevel = 'low' | 'medium' | 'high' | 'critical';

/** Every {@link RiskLevel}, lowest first. */
export const RISK_LEVELS: readonly RiskLevel[] = Object.freeze(['low', 'medium', 'high', 'critical']);

/**
 * Whether repeating a call is safe (seed 004: "idempotency"), weakest first: `none` (a repeat may
 * act twice), `keyed` (a repeat with the same idempotency key does not act twice), `idempotent`
 * (any repeat is harmless).
 */
export type Idempotency = 'none' | 'keyed' | 'idempotent';

/** Every {@link Idempotency}, weakest first. */
export const IDEMPOTENCIES: readonly Idempotency[] = Object.freeze(['none', 'keyed', 'idempotent']);

/** Who may see the data a tool reads or returns (seed 004: "data classification"), least restricted first. */
export type DataClassification = 'public' | 'internal' | 'confidential' | 'restricted';

/** Every {@link DataClassification}, least restricted first. */
export const DATA_CLASSIFICATIONS: readonly DataClassification[] = Object.freeze([
  'public',
  'internal',
  'confidential',
  'restricted',
]);

/** Every side effect ({@link EffectClass}, the same classes as the trusted policy's), mildest first. */
export const SIDE_EFFECTS: readonly EffectClass[] = Object.freeze(['READ', 'RESERVATION', 'WRITE', 'DESTRUCTIVE']);

/**
 * The retry policy an executor follows (seed 004: "执行器根据结构字段决定能否重试"): at most
 * `maxAttempts` attempts in all (1: never retried), `backoffMs` milliseconds apart.
 */
export interface RetryPolicy {
  maxAttempts: number;
  backoffMs: number;
}

/**
 * Whether a human confirms a call before it runs, and the JSON Schema of what the UI shows for it
 * (seed 004: "UI 根据 confirmation schema 渲染计划"); `schema` null: the plain arguments are shown.
 */
export interface Confirmation {
  required: boolean;
  schema: Record<string, unknown> | null;
}

/**
 * One stable error code of a tool (seed 004: "错误 schema 列出稳定 code、retryable 与 recovery
 * actions"): what it means, whether a retry can help, and what to do about it.
 */
export interface ErrorCodeEntry {
  /** The stable code, e.g. `OBJECT_AMBIGUOUS`. */
  code: string;
  /** What the code means, in one sentence. */
  meaning: string;
  retryable: boolean;
  /** Recovery actions, in order of preference (e.g. `ask_user`, `query_operation`). */
  recovery: string[];
}

/**
 * The error schema of a tool: its stable codes, sorted by code. An error without a listed code is
 * never retryable and keeps its native reference (seed 004: "未知错误默认不可重试并保留 native ref");
 * that rule is fixed, so it is not a field.
 */
export interface ErrorSchema {
  codes: ErrorCodeEntry[];
}

/**
 * Where the tool is served (seed 004: "endpoint binding"): the operator's stable name of the
 * server (`jobs`), which survives certificate rotations and redeployments, and the MCP tool name
 * on that server. Which build of the server ran a call is a receipt's field, not the manifest's.
 */
export interface EndpointBinding {
  server: string;
  toolName: string;
}

/**
 * A tool version's manifest, `catsim.toolManifest.v1`: the executor's whole view. Every field is
 * part of the version: a change to any of them is a new version. Schema hashes are lowercase hex
 * sha256 (`schemaDigest` of src/snapshot/digests.ts for input and output, the same digests a
 * snapshot holds; `catsim.errorSchema.v1` for errors).
 */
export interface ToolManifest {
  schema: typeof TOOL_MANIFEST_SCHEMA;
  /** The stable tool id (`jobs.rerun`): the same across versions, servers and names on the wire. */
  toolId: string;
  /** The descriptor digest of what the server listed (SPEC section 4). */
  descriptorDigest: string;
  /** The descriptor's `title`, or null. */
  title: string | null;
  /** The descriptor's `description` ('' when it has none): what the model reads. */
  description: string;
  inputSchema: Record<string, unknown>;
  inputSchemaHash: string;
  /** The descriptor's `outputSchema`, or null when it declares none. */
  outputSchema: Record<string, unknown> | null;
  outputSchemaHash: string | null;
  errorSchema: ErrorSchema;
  errorSchemaHash: string;
  /** The team that answers for the tool, or null when nobody was named. */
  owner: string | null;
  riskLevel: RiskLevel;
  /** The risk text shown to people and the model, or null. */
  riskText: string | null;
  /** Permissions a principal must hold, sorted, without repeats. */
  requiredPermissions: string[];
  sideEffect: EffectClass;
  idempotency: Idempotency;
  /** How long one attempt may take, in ms. */
  timeoutMs: number;
  retry: RetryPolicy;
  confirmation: Confirmation;
  dataClassification: DataClassification;
  endpoint: EndpointBinding;
}

/**
 * What an operator's manifest file gives for one tool (`manifest-file.ts`); every field optional,
 * a missing one takes its {@link SAFEST_DEFAULTS} value.
 */
export interface OperatorEntry {
  toolId?: string;
  owner?: string;
  riskLevel?: RiskLevel;
  riskText?: string;
  requiredPermissions?: string[];
  sideEffect?: EffectClass;
  idempotency?: Idempotency;
  timeoutMs?: number;
  retry?: RetryPolicy;
  confirmation?: Confirmation;
  dataClassification?: DataClassification;
  errors?: ErrorCodeEntry[];
}

/**
 * The defaults of a tool the operator did not describe, each the safest choice: destructive, not
 * idempotent, one attempt (never retried), a human confirms, critical, restricted data, no listed
 * error codes (so every error is unknown: not retryable), 10,000 ms per attempt. The required
 * permission is not a default constant but `invoke:<toolId>` ({@link defaultPermission}), a
 * permission nobody holds until it is granted, never "no permission needed".
 */
export const SAFEST_DEFAULTS = Object.freeze({
  riskLevel: 'critical' as RiskLevel,
  sideEffect: 'DESTRUCTIVE' as EffectClass,
  idempotency: 'none' as Idempotency,
  timeoutMs: 10_000,
  retry: Object.freeze({ maxAttempts: 1, backoffMs: 0 }),
  confirmation: Object.freeze({ required: true, schema: null }),
  dataClassification: 'restricted' as DataClassification,
});

/** The permission a tool without declared permissions requires: `invoke:<toolId>`. */
export function defaultPermission(toolId: string): string {
  return `invoke:${toolId}`;
}

/** The stable tool id of a tool the operator gave none: `<server>.<tool name>`. */
export function defaultToolId(server: string, toolName: string): string {
  return `${server}.${toolName}`;
}

/** The digest of an error schema: sha256(`catsim.errorSchema.v1\n` + JCS(schema)), lowercase hex. */
export function errorSchemaDigest(errorSchema: ErrorSchema): string {
  return domainDigest('catsim.errorSchema.v1', errorSchema);
}

/** The digest of a manifest, what a version is: sha256(`catsim.toolManifest.v1\n` + JCS(manifest)). */
export function manifestDigestOf(manifest: ToolManifest): string {
  return domainDigest(TOOL_MANIFEST_SCHEMA, manifest);
}

/**
 * Builds the manifest of the tool `descriptor` (as the server listed it) served by the operator's
 * server `server`, from the operator's `entry` (undefined: the tool has none, every field takes its
 * safest default). The result is deep-frozen and holds copies: nothing the caller keeps can change it.
 * @throws TypeError when the descriptor has no string `name` or no object `inputSchema` (a tool
 *   that failed the content checks of SPEC section 5 has no manifest).
 */
export function buildManifest(descriptor: unknown, server: string, entry?: OperatorEntry): ToolManifest {
  const tool = descriptorFields(descriptor);
  const toolId = entry?.toolId ?? defaultToolId(server, tool.name);
  const errorSchema: ErrorSchema = { codes: sortedErrors(entry?.errors ?? []) };
  const inputSchema = structuredClone(tool.inputSchema);
  const outputSchema = tool.outputSchema === null ? null : structuredClone(tool.outputSchema);
  return deepFreeze({
    schema: TOOL_MANIFEST_SCHEMA,
    toolId,
    descriptorDigest: descriptorDigest(descriptor),
    title: tool.title,
    description: tool.description,
    inputSchema,
    inputSchemaHash: schemaDigest(inputSchema) as string,
    outputSchema,
    outputSchemaHash: outputSchema === null ? null : schemaDigest(outputSchema),
    errorSchema,
    errorSchemaHash: errorSchemaDigest(errorSchema),
    owner: entry?.owner ?? null,
    riskLevel: entry?.riskLevel ?? SAFEST_DEFAULTS.riskLevel,
    riskText: entry?.riskText ?? null,
    requiredPermissions: [...new Set(entry?.requiredPermissions ?? [defaultPermission(toolId)])].sort(),
    sideEffect: entry?.sideEffect ?? SAFEST_DEFAULTS.sideEffect,
    idempotency: entry?.idempotency ?? SAFEST_DEFAULTS.idempotency,
    timeoutMs: entry?.timeoutMs ?? SAFEST_DEFAULTS.timeoutMs,
    retry: { ...(entry?.retry ?? SAFEST_DEFAULTS.retry) },
    confirmation: structuredClone(entry?.confirmation ?? SAFEST_DEFAULTS.confirmation),
    dataClassification: entry?.dataClassification ?? SAFEST_DEFAULTS.dataClassification,
    endpoint: { server, toolName: tool.name },
  });
}

/**
 * Another release of the definition `base` was built from (seed 004: "版本由内容和兼容性决定"): the
 * same descriptor (its digest, name, title, description and schemas) and server, and the same
 * tool id unless `entry` names one, with the operator's `entry` in place of the one `base` was
 * built with (undefined: every field takes its safest default). A new timeout or owner is thus a
 * new version of the same contract, served by the same endpoint. Deep-frozen, like `buildManifest`.
 */
export function releaseOf(base: ToolManifest, entry?: OperatorEntry): ToolManifest {
  const descriptor = {
    name: base.endpoint.toolName,
    ...(base.title === null ? {} : { title: base.title }),
    description: base.description,
    inputSchema: base.inputSchema,
    ...(base.outputSchema === null ? {} : { outputSchema: base.outputSchema }),
  };
  const built = buildManifest(descriptor, base.endpoint.server, { toolId: base.toolId, ...entry });
  return deepFreeze({ ...built, descriptorDigest: base.descriptorDigest });
}

/** The descriptor fields a manifest takes. */
interface DescriptorFields {
  name: string;
  title: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
}

function descriptorFields(descriptor: unknown): DescriptorFields {
  if (!isRecord(descriptor) || typeof descriptor.name !== 'string' || descriptor.name === '')
    throw new TypeError('a manifest needs a descriptor with a non-empty string name');
  if (!isRecord(descriptor.inputSchema))
    throw new TypeError(`tool ${descriptor.name}: a manifest needs an object inputSchema`);
  return {
    name: descriptor.name,
    title: typeof descriptor.title === 'string' ? descriptor.title : null,
    description: typeof descriptor.description === 'string' ? descriptor.description : '',
    inputSchema: descriptor.inputSchema,
    outputSchema: isRecord(descriptor.outputSchema) ? descriptor.outputSchema : null,
  };
}

function sortedErrors(errors: readonly ErrorCodeEntry[]): ErrorCodeEntry[] {
  return errors
    .map((entry) => ({
      code: entry.code,
      meaning: entry.meaning,
      retryable: entry.retryable,
      recovery: [...entry.recovery],
    }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

/**
 * What the model is shown of a version: its id and version, and only the descriptor's own fields
 * (seed 004: "模型可见视图与执行器完整视图分开，但共享同一个 capability ID/version"). Owner, permissions,
 * endpoint and policy details are not in it.
 */
export interface ModelView {
  toolId: string;
  version: number;
  /** The MCP name the model calls. */
  name: string;
  title: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The executor's view of a version: its id and version, and the whole manifest. */
export interface ExecutorView {
  toolId: string;
  version: number;
  manifestDigest: string;
  manifest: ToolManifest;
}

/** The model's view of version `version` of `manifest` (frozen; shares the manifest's frozen schema). */
export function modelViewOf(manifest: ToolManifest, version: number): ModelView {
  return Object.freeze({
    toolId: manifest.toolId,
    version,
    name: manifest.endpoint.toolName,
    title: manifest.title,
    description: manifest.description,
    inputSchema: manifest.inputSchema,
  });
}

/** The executor's view of version `version` of `manifest` (frozen). */
export function executorViewOf(manifest: ToolManifest, version: number): ExecutorView {
  return Object.freeze({ toolId: manifest.toolId, version, manifestDigest: manifestDigestOf(manifest), manifest });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
