/**
 * What the oracle reports: one `Violation` per broken invariant instance (SPEC section 11: each
 * violation names its id, the round and the evidence), kept in a deterministic order so that two
 * checks of the same trace print the same bytes.
 */

/**
 * The invariants this oracle checks (SPEC section 11): the thirteen of the catalog since admission
 * at call time (I3, I6, I7, I8, I9), I14-I17 of a host restart (F18, host-restart.ts), the
 * list_changed barrier and its refresh (I18, I19), auth-gated discovery (I20), the tool surface's
 * I22-I26 (SPEC section 8, seed 003), the whole-catalog limits (I27) and the rollback path (I21,
 * I28, I29, F19), the emergency disable (I30, F26), the modern era's invalid cursor, listen
 * stream and polling (I31, I32, I33), deprecation (I34, F31), tool versions in receipts (I35,
 * F32), results that break their output schema (I36, F33), aliases (I37, F34), the end of a version's
 * lifecycle (I38, F35), breaking changes disguised as compatible (I39, F36) and backup endpoints (I40, F37). A report should still list `INVARIANT_IDS` rather than assume the set. In
 * report order (numeric, so I2 comes before I12); the one list of their ids: `InvariantId` is
 * derived from it, and a new invariant is one line here (CONTRIBUTING.md, "Adding an invariant").
 */
export const INVARIANT_IDS = [
  'I1',
  'I2',
  'I3',
  'I4',
  'I5',
  'I6',
  'I7',
  'I8',
  'I9',
  'I10',
  'I11',
  'I12',
  'I13',
  'I14',
  'I15',
  'I16',
  'I17',
  'I18',
  'I19',
  'I20',
  'I21',
  'I22',
  'I23',
  'I24',
  'I25',
  'I26',
  'I27',
  'I28',
  'I29',
  'I30',
  'I31',
  'I32',
  'I33',
  'I34',
  'I35',
  'I36',
  'I37',
  'I38',
  'I39',
  'I40',
] as const;

/** The id of an invariant this oracle checks, `I1` .. `I40`, derived from `INVARIANT_IDS`. */
export type InvariantId = (typeof INVARIANT_IDS)[number];

/**
 * Not an invariant of the catalog (SPEC section 11) but a clause of the core API (docs/CORE-API.md):
 * the core answered every call of the world without throwing, rejecting or answering outside the
 * API. Reported like an invariant, from the world's `core_failed` events, so that a core that
 * crashes fails its rounds (exit 1, a replay line) instead of crashing the testbed.
 */
export const CORE_FAILED = 'CORE_FAILED';

/** What a violation is a violation of: an invariant, or the core API's {@link CORE_FAILED}. */
export type VerdictId = InvariantId | typeof CORE_FAILED;

/**
 * One broken invariant instance.
 * - `round`: the header's round number.
 * - `seq`: the trace event the violation is anchored to (a publish, a request, a scan start, the
 *   round end), or null when no single event carries the blame.
 * - `code`: a short stable reason such as `NO_FINAL_RECHECK` (see the invariant files).
 * - `evidence`: one deterministic sentence naming seq numbers, the key and digests cut to 12 hex.
 */
export interface Violation {
  readonly invariant: VerdictId;
  readonly round: number;
  readonly seq: number | null;
  readonly code: string;
  readonly evidence: string;
}

/** Shortens a 64-hex digest (or any long hex fingerprint) to its first 12 digits for evidence. */
export function shortHex(value: string): string {
  return /^[0-9a-f]{16,}$/.test(value) ? value.slice(0, 12) : value;
}

/** Renders a catalog key for evidence, shortening a hex identity. */
export function shortKey(key: string): string {
  const bar = key.lastIndexOf('|');
  return bar < 0 ? key : `${shortHex(key.slice(0, bar))}${key.slice(bar)}`;
}

/** Renders a cursor for evidence: quoted string (so `""` stays visible) or `null`. */
export function showCursor(cursor: string | null): string {
  return JSON.stringify(cursor);
}

/** Renders digests as `[aaaaaaaaaaaa, bbbbbbbbbbbb]`, at most `limit` of them, then `+N more`. */
export function showDigests(digests: readonly string[], limit = 3): string {
  const shown = digests.slice(0, limit).map(shortHex);
  const more = digests.length > limit ? `, +${digests.length - limit} more` : '';
  return `[${shown.join(', ')}${more}]`;
}

/** Names a publish in evidence: `publish seq 12 of key 0123456789ab|acme.dev`. */
export function publishLabel(publish: { readonly seq: number; readonly key: string }): string {
  return `publish seq ${publish.seq} of key ${shortKey(publish.key)}`;
}

/** Names a gate decision in evidence: `gate decision seq 40 (session "s0/acme.dev", plan "p1")`. */
export function decisionLabel(decision: {
  readonly seq: number;
  readonly session: string;
  readonly planId: string;
}): string {
  return `gate decision seq ${decision.seq} (session ${JSON.stringify(decision.session)}, plan ${JSON.stringify(decision.planId)})`;
}

/** Names an executed call in evidence: `call seq 41 (s0 acme.dev executed "write_file", lease "lease-0")`. */
export function callLabel(call: {
  readonly seq: number;
  readonly server: string;
  readonly audience: string;
  readonly tool: string;
  readonly leaseId: string | null;
}): string {
  const lease = call.leaseId === null ? 'no lease' : `lease ${JSON.stringify(call.leaseId)}`;
  return `call seq ${call.seq} (${call.server} ${call.audience} executed ${JSON.stringify(call.tool)}, ${lease})`;
}

/** Names a disclosure in evidence: `disclosure seq 30 (session "p1", s0 acme.dev)`. */
export function disclosureLabel(disclosure: {
  readonly seq: number;
  readonly session: string;
  readonly server: string;
  readonly audience: string;
}): string {
  return `disclosure seq ${disclosure.seq} (session ${JSON.stringify(disclosure.session)}, ${disclosure.server} ${disclosure.audience})`;
}

/** I1 = 1, ..., I27 = 27; CORE_FAILED sorts before every invariant (0). */
function invariantNumber(id: VerdictId): number {
  return id === CORE_FAILED ? 0 : Number(id.slice(1));
}

/**
 * Total, deterministic order: by `seq` (null last: end-of-round judgements), then invariant
 * number, code and evidence. Returns a new array.
 */
export function sortViolations(violations: readonly Violation[]): Violation[] {
  return [...violations].sort(compareViolations);
}

function compareViolations(a: Violation, b: Violation): number {
  const seqA = a.seq ?? Number.POSITIVE_INFINITY;
  const seqB = b.seq ?? Number.POSITIVE_INFINITY;
  if (seqA !== seqB) return seqA < seqB ? -1 : 1;
  const byId = invariantNumber(a.invariant) - invariantNumber(b.invariant);
  if (byId !== 0) return byId;
  return compareText(a.code, b.code) || compareText(a.evidence, b.evidence);
}

/** Code-unit order, independent of the host's locale (unlike `localeCompare`). */
function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
