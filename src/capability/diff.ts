/**
 * Diff classification of two tool manifests by rules, not by semantic version numbers (SPEC
 * section 9; seed 004, "版本由内容和兼容性决定": "语义版本号可以表达承诺，但真正判定依赖 diff 规则").
 *
 * Three classes, and `identical` for two manifests with the same digest (which are one version):
 * - `compatible`: an existing caller keeps working unchanged (a new optional input or output
 *   field, a wider input, a narrower output, a new error code, a longer timeout);
 * - `breaking`: a call that worked may now fail or act otherwise (a new required input, a
 *   tightened enum or type, a removed property, `additionalProperties` closed on input, a removed
 *   error code or one whose meaning or retryability changed, a new permission, a harsher side
 *   effect, weaker idempotency, more retries, a shorter timeout, a confirmation newly required, a
 *   higher data classification, another endpoint or tool id, any schema change no rule names);
 * - `behavioural`: the contract holds but what a model or person reads changed (description,
 *   title, risk level or text, owner, recovery actions, the confirmation's schema, a relaxation of
 *   governance: fewer permissions, a milder side effect, no confirmation, a lower classification,
 *   shorter backoff, a schema rewritten without changing its values, annotations or `_meta`): a
 *   new version that needs evaluation, never silently the same one.
 * The class of a diff is its most severe change (breaking > behavioural > compatible). No rule is
 * compatible in both directions, so two different manifests are never compatible both ways.
 */
import { jcs } from '../snapshot/canonical.ts';
import {
  DATA_CLASSIFICATIONS,
  IDEMPOTENCIES,
  manifestDigestOf,
  SIDE_EFFECTS,
  type ErrorCodeEntry,
  type ToolManifest,
} from './manifest.ts';
import { diffSchemas, schemaChangeClass, type SchemaRule } from './schema-diff.ts';

/** The class of a diff, least severe first. */
export type DiffClass = 'identical' | 'compatible' | 'behavioural' | 'breaking';

/** The classes of a diff in order of severity, least first. */
export const DIFF_CLASSES: readonly DiffClass[] = Object.freeze(['identical', 'compatible', 'behavioural', 'breaking']);

/** The rules of manifest fields besides the schemas. */
export type ManifestRule =
  | 'TOOL_ID_CHANGED'
  | 'ENDPOINT_CHANGED'
  | 'DESCRIPTION_CHANGED'
  | 'TITLE_CHANGED'
  | 'DESCRIPTOR_OTHER_CHANGED'
  | 'OWNER_CHANGED'
  | 'RISK_CHANGED'
  | 'PERMISSION_ADDED'
  | 'PERMISSION_REMOVED'
  | 'SIDE_EFFECT_RAISED'
  | 'SIDE_EFFECT_LOWERED'
  | 'IDEMPOTENCY_WEAKENED'
  | 'IDEMPOTENCY_STRENGTHENED'
  | 'TIMEOUT_SHORTENED'
  | 'TIMEOUT_LENGTHENED'
  | 'RETRIES_RAISED'
  | 'RETRIES_LOWERED'
  | 'BACKOFF_SHORTENED'
  | 'BACKOFF_LENGTHENED'
  | 'CONFIRMATION_REQUIRED'
  | 'CONFIRMATION_DROPPED'
  | 'CONFIRMATION_SCHEMA_CHANGED'
  | 'CLASSIFICATION_RAISED'
  | 'CLASSIFICATION_LOWERED'
  | 'ERROR_CODE_ADDED'
  | 'ERROR_CODE_REMOVED'
  | 'ERROR_MEANING_CHANGED'
  | 'ERROR_RETRYABLE_CHANGED'
  | 'ERROR_RECOVERY_CHANGED';

/**
 * One change between two manifests: where (`inputSchema.properties.jobId`, `errorSchema.OBJECT_AMBIGUOUS`,
 * `timeoutMs`), the rule it matched, and its class.
 */
export interface ManifestChange {
  path: string;
  rule: ManifestRule | SchemaRule;
  class: Exclude<DiffClass, 'identical'>;
}

/** The classified diff of two manifests: the most severe class of its changes, and the changes in a fixed order. */
export interface ManifestDiff {
  class: DiffClass;
  changes: ManifestChange[];
}

/**
 * Classifies the change from manifest `before` to manifest `after`: a function of the pair alone
 * (no clock, no state). `identical` exactly when their digests are equal; otherwise at least one
 * change. Changes are listed schemas first (input, output), then the other fields in the order of
 * {@link ManifestRule}'s fields, errors by code.
 */
export function classifyDiff(before: ToolManifest, after: ToolManifest): ManifestDiff {
  if (manifestDigestOf(before) === manifestDigestOf(after)) return { class: 'identical', changes: [] };
  const changes: ManifestChange[] = [
    ...diffSchemas(before.inputSchema, after.inputSchema, 'inputSchema').map((change) => ({
      path: change.path,
      rule: change.rule,
      class: schemaChangeClass(change, 'input'),
    })),
    ...diffSchemas(before.outputSchema ?? undefined, after.outputSchema ?? undefined, 'outputSchema').map((change) => ({
      path: change.path,
      rule: change.rule,
      class: schemaChangeClass(change, 'output'),
    })),
    ...fieldChanges(before, after),
    ...errorChanges(before.errorSchema.codes, after.errorSchema.codes),
  ];
  if (changes.length === 0) changes.push({ path: '', rule: 'UNCLASSIFIED', class: 'breaking' });
  return { class: mostSevere(changes), changes };
}

function mostSevere(changes: readonly ManifestChange[]): DiffClass {
  let worst = 0;
  for (const change of changes) worst = Math.max(worst, DIFF_CLASSES.indexOf(change.class));
  return DIFF_CLASSES[worst] as DiffClass;
}

/** A change of `path` by `rule` when the field differs (by canonical JSON). */
type Rule = (before: ToolManifest, after: ToolManifest) => ManifestChange | undefined;

const differs = (a: unknown, b: unknown): boolean => jcs(a) !== jcs(b);

/** A rule for a field ordered by `order` (mildest first): one class when it rises, another when it falls. */
function ordered<T>(
  path: string,
  order: readonly T[],
  read: (manifest: ToolManifest) => T,
  raised: [ManifestRule, ManifestChange['class']],
  lowered: [ManifestRule, ManifestChange['class']],
): Rule {
  return (before, after) => {
    const [a, b] = [order.indexOf(read(before)), order.indexOf(read(after))];
    if (a === b) return undefined;
    const [rule, kind] = b > a ? raised : lowered;
    return { path, rule, class: kind };
  };
}

/** A rule for a field that is simply equal or not. */
function plain(
  path: string,
  read: (manifest: ToolManifest) => unknown,
  rule: ManifestRule,
  kind: ManifestChange['class'],
): Rule {
  return (before, after) => (differs(read(before), read(after)) ? { path, rule, class: kind } : undefined);
}

/** The rules of the fields besides schemas and errors, in the order they are reported. */
const FIELD_RULES: readonly Rule[] = Object.freeze([
  plain('toolId', (m) => m.toolId, 'TOOL_ID_CHANGED', 'breaking'),
  plain('endpoint', (m) => m.endpoint, 'ENDPOINT_CHANGED', 'breaking'),
  plain('title', (m) => m.title, 'TITLE_CHANGED', 'behavioural'),
  plain('description', (m) => m.description, 'DESCRIPTION_CHANGED', 'behavioural'),
  descriptorOther,
  plain('owner', (m) => m.owner, 'OWNER_CHANGED', 'behavioural'),
  plain('risk', (m) => [m.riskLevel, m.riskText], 'RISK_CHANGED', 'behavioural'),
  permissions,
  ordered(
    'sideEffect',
    SIDE_EFFECTS,
    (m) => m.sideEffect,
    ['SIDE_EFFECT_RAISED', 'breaking'],
    ['SIDE_EFFECT_LOWERED', 'behavioural'],
  ),
  ordered(
    'idempotency',
    IDEMPOTENCIES,
    (m) => m.idempotency,
    ['IDEMPOTENCY_STRENGTHENED', 'compatible'],
    ['IDEMPOTENCY_WEAKENED', 'breaking'],
  ),
  numeric('timeoutMs', (m) => m.timeoutMs, ['TIMEOUT_LENGTHENED', 'compatible'], ['TIMEOUT_SHORTENED', 'breaking']),
  numeric(
    'retry.maxAttempts',
    (m) => m.retry.maxAttempts,
    ['RETRIES_RAISED', 'breaking'],
    ['RETRIES_LOWERED', 'compatible'],
  ),
  numeric(
    'retry.backoffMs',
    (m) => m.retry.backoffMs,
    ['BACKOFF_LENGTHENED', 'compatible'],
    ['BACKOFF_SHORTENED', 'behavioural'],
  ),
  ordered(
    'confirmation.required',
    [false, true],
    (m) => m.confirmation.required,
    ['CONFIRMATION_REQUIRED', 'breaking'],
    ['CONFIRMATION_DROPPED', 'behavioural'],
  ),
  plain('confirmation.schema', (m) => m.confirmation.schema, 'CONFIRMATION_SCHEMA_CHANGED', 'behavioural'),
  ordered(
    'dataClassification',
    DATA_CLASSIFICATIONS,
    (m) => m.dataClassification,
    ['CLASSIFICATION_RAISED', 'breaking'],
    ['CLASSIFICATION_LOWERED', 'behavioural'],
  ),
]);

function fieldChanges(before: ToolManifest, after: ToolManifest): ManifestChange[] {
  const changes: ManifestChange[] = [];
  for (const rule of FIELD_RULES) {
    const change = rule(before, after);
    if (change !== undefined) changes.push(change);
  }
  return changes;
}

function numeric(
  path: string,
  read: (manifest: ToolManifest) => number,
  raised: [ManifestRule, ManifestChange['class']],
  lowered: [ManifestRule, ManifestChange['class']],
): Rule {
  return (before, after) => {
    const [a, b] = [read(before), read(after)];
    if (a === b) return undefined;
    const [rule, kind] = b > a ? raised : lowered;
    return { path, rule, class: kind };
  };
}

/**
 * The descriptor changed in a field the manifest does not take apart (annotations, `_meta`,
 * icons, ...): what the model or host reads changed, the contract did not.
 */
function descriptorOther(before: ToolManifest, after: ToolManifest): ManifestChange | undefined {
  if (before.descriptorDigest === after.descriptorDigest) return undefined;
  const readable = (m: ToolManifest): unknown => [
    m.endpoint.toolName,
    m.title,
    m.description,
    m.inputSchema,
    m.outputSchema,
  ];
  if (differs(readable(before), readable(after))) return undefined;
  return { path: 'descriptor', rule: 'DESCRIPTOR_OTHER_CHANGED', class: 'behavioural' };
}

/** A new permission refuses principals that could call (breaking); a dropped one needs review. */
function permissions(before: ToolManifest, after: ToolManifest): ManifestChange | undefined {
  const [a, b] = [new Set(before.requiredPermissions), new Set(after.requiredPermissions)];
  if ([...b].some((permission) => !a.has(permission)))
    return { path: 'requiredPermissions', rule: 'PERMISSION_ADDED', class: 'breaking' };
  if ([...a].some((permission) => !b.has(permission)))
    return { path: 'requiredPermissions', rule: 'PERMISSION_REMOVED', class: 'behavioural' };
  return undefined;
}

/** Error codes are a stable contract: removing one or changing what it means or whether it is retryable breaks it. */
function errorChanges(before: readonly ErrorCodeEntry[], after: readonly ErrorCodeEntry[]): ManifestChange[] {
  const [a, b] = [new Map(before.map((e) => [e.code, e])), new Map(after.map((e) => [e.code, e]))];
  const changes: ManifestChange[] = [];
  for (const code of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const [old, now] = [a.get(code), b.get(code)];
    const path = `errorSchema.${code}`;
    if (now === undefined) changes.push({ path, rule: 'ERROR_CODE_REMOVED', class: 'breaking' });
    else if (old === undefined) changes.push({ path, rule: 'ERROR_CODE_ADDED', class: 'compatible' });
    else {
      if (old.meaning !== now.meaning) changes.push({ path, rule: 'ERROR_MEANING_CHANGED', class: 'breaking' });
      if (old.retryable !== now.retryable) changes.push({ path, rule: 'ERROR_RETRYABLE_CHANGED', class: 'breaking' });
      if (differs(old.recovery, now.recovery))
        changes.push({ path, rule: 'ERROR_RECOVERY_CHANGED', class: 'behavioural' });
    }
  }
  return changes;
}
