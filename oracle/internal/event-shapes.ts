/**
 * Shape rules for the header and every documented event of docs/TRACE.md. Each rule returns a
 * short problem sentence or null, so that `parseTrace` can prefix the line number; nothing here
 * throws. The rules check every documented field (not only those the invariants read today),
 * because a trace is a contract between independent writers and readers.
 *
 * Enumerated codes that the format may grow (defect labels, refusal codes, reasons) are checked as
 * strings only, so that a newer writer's code does not make an older oracle refuse the trace; the
 * invariants never branch on their values.
 */

/** Returns the problem with one value, phrased after `path`, or null when it is well formed. */
type Rule = (value: unknown, path: string) => string | null;

const HEX_DIGEST = /^[0-9a-f]{64}$/;

function isNat(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function expect(ok: boolean, path: string, what: string): string | null {
  return ok ? null : `${path} must be ${what}`;
}

const str: Rule = (v, p) => expect(typeof v === 'string', p, 'a string');
const strOrNull: Rule = (v, p) => expect(v === null || typeof v === 'string', p, 'a string or null');
const nat: Rule = (v, p) => expect(isNat(v), p, 'a non-negative integer');
const natOrNull: Rule = (v, p) => expect(v === null || isNat(v), p, 'a non-negative integer or null');
const int: Rule = (v, p) => expect(Number.isSafeInteger(v), p, 'an integer');
const bool: Rule = (v, p) => expect(typeof v === 'boolean', p, 'a boolean');
const boolOrNull: Rule = (v, p) => expect(v === null || typeof v === 'boolean', p, 'a boolean or null');
const digest: Rule = (v, p) =>
  expect(typeof v === 'string' && HEX_DIGEST.test(v), p, '64 lowercase hex digits');
const digestOrNull: Rule = (v, p) => (v === null ? null : digest(v, p));
/** Any JSON value: for a field an invariant judges itself (see the `receipt` rule). */
const anyValue: Rule = () => null;

/** A catalog key needs a non-empty identity and audience around its last `|`. */
const key: Rule = (v, p) =>
  expect(typeof v === 'string' && v.lastIndexOf('|') > 0 && !v.endsWith('|'), p, '"<identity>|<tenant>.<role>"');

function oneOf(...allowed: readonly string[]): Rule {
  const list = allowed.map((a) => `"${a}"`).join(' or ');
  return (v, p) => expect(typeof v === 'string' && allowed.includes(v), p, list);
}

function arrayOf(item: Rule): Rule {
  return (v, p) => {
    if (!Array.isArray(v)) return `${p} must be an array`;
    for (let i = 0; i < v.length; i += 1) {
      const problem = item(v[i], `${p}[${i}]`);
      if (problem !== null) return problem;
    }
    return null;
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One documented field: its name, its rule, and whether it may be absent (a field added to the
 * format later, which older traces lack; present, it must still follow its rule).
 */
type Field = readonly [name: string, rule: Rule, presence?: 'optional'];

/** A rule for an object with the given fields (extra fields are allowed and ignored). */
function objectOf(fields: readonly Field[]): Rule {
  return (v, p) => {
    if (!isPlainObject(v)) return `${p} must be an object`;
    return fieldsProblem(v, fields, (name) => `${p}.${name}`, p);
  };
}

function fieldsProblem(
  value: Record<string, unknown>,
  fields: readonly Field[],
  pathOf: (name: string) => string,
  owner: string,
): string | null {
  for (const [name, rule, presence] of fields) {
    if (!Object.hasOwn(value, name)) {
      if (presence === 'optional') continue;
      return `${owner} has no "${name}"`;
    }
    const problem = rule(value[name], pathOf(name));
    if (problem !== null) return problem;
  }
  return null;
}

const views: Rule = (v, p) => {
  if (!isPlainObject(v)) return `${p} must be an object`;
  const tool = objectOf([['name', str], ['digest', digest]]);
  for (const [audience, list] of Object.entries(v)) {
    const problem = arrayOf(tool)(list, `${p}["${audience}"]`);
    if (problem !== null) return problem;
  }
  return null;
};

/** An object whose every value is a string (the effect classes by tool name). */
const stringValues: Rule = (v, p) => {
  if (!isPlainObject(v)) return `${p} must be an object`;
  for (const [name, value] of Object.entries(v)) {
    const problem = str(value, `${p}["${name}"]`);
    if (problem !== null) return problem;
  }
  return null;
};

const publishedPage = objectOf([['cursorIn', strOrNull], ['cursorOut', strOrNull], ['pageDigest', digest]]);
const publishedTool = objectOf([['name', str], ['descriptorDigest', digest], ['verdict', str]]);

const receiptDisclosure = objectOf([['generation', nat], ['snapshotDigest', digest]]);

/**
 * The `src` a documented event type must carry, its own fields in docs/TRACE.md order, and an
 * optional rule across fields, run once every field passed.
 */
interface EventRule {
  readonly src: 'world' | 'core';
  readonly fields: readonly Field[];
  readonly across?: (value: Record<string, unknown>) => string | null;
}

const world = (...fields: Field[]): EventRule => ({ src: 'world', fields });
const core = (...fields: Field[]): EventRule => ({ src: 'core', fields });

/**
 * A probe must say whether a correct core must admit it (I12 judges exactly the probes that say
 * true). Other kinds carry null today, but a later kind may carry a boolean, so that is not
 * enforced.
 */
function probeExpectsVerdict(value: Record<string, unknown>): string | null {
  if (value['kind'] !== 'probe' || typeof value['expectAdmit'] === 'boolean') return null;
  return '"plan_made" field "expectAdmit" must be a boolean for kind "probe"';
}

const EVENT_RULES: ReadonlyMap<string, EventRule> = new Map([
  ['server_up', world(['server', str], ['identity', str], ['boot', nat], ['versioned', bool], ['traits', arrayOf(str)])],
  ['revision', world(['server', str], ['revision', nat], ['views', views])],
  ['page_served', world(
    ['server', str], ['audience', str], ['scanId', strOrNull], ['cursorIn', strOrNull], ['cursorOut', strOrNull],
    ['revision', nat], ['reported', natOrNull], ['tools', arrayOf(digest)], ['pageDigest', digest],
  )],
  ['page_refused', world(['server', str], ['audience', str], ['scanId', strOrNull], ['cursorIn', strOrNull], ['code', int])],
  ['session_opened', world(['server', str], ['audience', str], ['identity', str])],
  ['defect_planted', world(['server', str], ['digest', digest], ['defect', str])],
  ['identity_rotated', world(['server', str], ['identity', str], ['boot', nat])],
  ['disconnected', world(['server', str], ['audience', str])],
  ['disclosure', world(
    ['session', str], ['server', str], ['audience', str], ['key', key], ['generation', nat],
    ['snapshotDigest', digest], ['tools', arrayOf(digest)],
  )],
  ['disclosure_refused', world(['session', str], ['server', str], ['audience', str], ['code', str])],
  ['notification_sent', world(['server', str], ['audience', str], ['delivered', bool])],
  ['quiet', world()],
  ['round_end', world(['status', oneOf('settled', 'undecided')], ['reason', str])],
  ['core_failed', world(['during', str], ['reason', str], ['error', str])],
  ['scan_started', core(['key', key], ['scanId', str], ['expectedGeneration', nat], ['policyEpoch', nat])],
  ['page_read', core(
    ['scanId', str], ['cursorIn', strOrNull], ['cursorOut', strOrNull], ['revision', natOrNull],
    ['pageDigest', digest], ['toolCount', nat], ['recheck', bool],
  )],
  ['scan_ended', core(['scanId', str], ['state', str], ['reason', str])],
  ['published', core(
    ['key', key], ['scanId', str], ['generation', nat], ['status', oneOf('ELIGIBLE', 'UNVERSIONED_OBSERVATION')],
    ['sourceRevision', natOrNull], ['snapshotDigest', digest], ['pageRoot', digest],
    ['pages', arrayOf(publishedPage)], ['tools', arrayOf(publishedTool)], ['expiresAt', nat],
    ['rolledBackFrom', natOrNull, 'optional'],
  )],
  ['cas_conflict', core(['key', key], ['scanId', str], ['expectedGeneration', nat], ['actualGeneration', nat])],
  ['publish_refused', core(['key', key], ['scanId', str], ['code', str])],
  ['key_quarantined', core(['audience', str], ['scanId', str], ['reason', str])],
  ['server_disabled', core(['key', key], ['reason', str])],
  ['effect_policy', world(['classes', stringValues])],
  ['policy_changed', world(
    ['audience', str], ['epoch', nat], ['grants', arrayOf(str)], ['revoked', arrayOf(str)], ['granted', arrayOf(str)],
  )],
  ['policy_push', world(['audience', str], ['epoch', nat], ['delivered', bool])],
  ['plan_made', {
    ...world(
      ['session', str], ['planId', str], ['key', key], ['generation', nat], ['snapshotDigest', digest], ['tool', str],
      ['descriptorDigest', digest], ['kind', str], ['expectAdmit', boolOrNull],
    ),
    across: probeExpectsVerdict,
  }],
  ['confirmation', world(['session', str], ['planId', str], ['token', str])],
  ['call_executed', world(
    ['server', str], ['audience', str], ['tool', str], ['descriptorDigest', digestOrNull], ['leaseId', strOrNull],
    ['pin', natOrNull], ['revision', nat],
  )],
  ['call_refused_by_server', world(['server', str], ['audience', str], ['tool', str], ['leaseId', strOrNull], ['code', str])],
  ['policy_seen', core(['audience', str], ['epoch', nat], ['via', str])],
  ['gate_decision', core(
    ['callId', str], ['planId', str], ['session', str], ['key', key], ['tool', str], ['planDescriptorDigest', digest],
    ['generation', natOrNull], ['descriptorDigest', digestOrNull], ['policyEpoch', nat], ['decision', str],
  )],
  // The binding fields (generation, descriptorDigest, policyEpoch) are I6's to judge: a receipt
  // that fails to bind them is a core fault reported as a violation, not a malformed trace.
  ['receipt', core(
    ['callId', str], ['leaseId', str], ['key', key], ['tool', str], ['generation', anyValue, 'optional'],
    ['descriptorDigest', anyValue, 'optional'], ['policyEpoch', anyValue, 'optional'], ['disclosure', receiptDisclosure],
    ['pin', natOrNull],
  )],
  ['receipt_outcome', core(['leaseId', str], ['outcome', str])],
]);

/** The `src` of each documented event type, derived from the rules so the two cannot drift. */
export const EVENT_SOURCE_BY_TYPE: ReadonlyMap<string, 'world' | 'core'> = new Map(
  [...EVENT_RULES].map(([type, rule]) => [type, rule.src]),
);

const COMMON_FIELDS: readonly Field[] = [['seq', nat], ['t', nat], ['src', str]];

/**
 * Returns the first problem with an event object, or null. An unknown type only needs the
 * common fields; a known type must also carry its documented `src` and fields.
 */
export function describeEventProblem(value: Record<string, unknown>): string | null {
  if (!Object.hasOwn(value, 'type')) return 'event has no "type"';
  const type = value['type'];
  if (typeof type !== 'string') return 'event field "type" must be a string';
  const common = fieldsProblem(value, COMMON_FIELDS, (name) => `event field "${name}"`, 'event');
  if (common !== null) return common;
  const rule = EVENT_RULES.get(type);
  if (rule === undefined) return null;
  if (value['src'] !== rule.src) return `"${type}" event must have src "${rule.src}", found "${String(value['src'])}"`;
  const problem = fieldsProblem(value, rule.fields, (name) => `"${type}" field "${name}"`, `"${type}" event`);
  return problem ?? rule.across?.(value) ?? null;
}

/** `revocationBoundMs` came with admission at call time; older traces lack it. */
const BOUNDS_FIELDS: readonly Field[] = [
  ...['pageCountMax', 'byteCountMax', 'scanTimeoutMs', 'latencyMsMax', 'tHealMs', 'tEndMs', 'generationTtlMs', 'retryBackoffMsMax']
    .map((name) => [name, nat] as const),
  ['revocationBoundMs', nat, 'optional'],
];

const HEADER_FIELDS: readonly Field[] = [
  ['seed', str], ['round', nat], ['scenario', str], ['core', str],
  ['bounds', objectOf(BOUNDS_FIELDS)], ['faults', arrayOf(str)],
];

/** Returns the first problem with a header object whose `type` is already `"header"`, or null. */
export function describeHeaderProblem(value: Record<string, unknown>): string | null {
  const schema = value['schema'];
  if (schema !== 'catsim.trace.v1') {
    const found = typeof schema === 'string' ? `"${schema}"` : 'none';
    return `unsupported schema ${found} (expected "catsim.trace.v1")`;
  }
  return fieldsProblem(value, HEADER_FIELDS, (name) => `header field "${name}"`, 'header');
}
