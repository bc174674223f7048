/**
 * Leases (SPEC sections 1, 2 and 7): a short-lived, non-transferable, single-use permission for
 * one call, issued by the gate on ADMIT and verified by servers that check leases.
 *
 * Wire format. A `tools/call` carries the lease as
 * `params._meta["dev.catsim/lease"] = { ...fields, mac }`, one JSON object with exactly these
 * members and no others:
 *
 * | member | type | meaning |
 * | --- | --- | --- |
 * | `schema` | `"catsim.lease.v1"` | format tag (domain separation of the MAC) |
 * | `leaseId` | string | single-use id, `<prefix><n>` (n = 0, 1, ... per issuer) |
 * | `key` | string | catalog key `<identity>|<tenant>.<role>` the call was admitted on |
 * | `principal` | string | the caller the lease is bound to |
 * | `session` | string | the session the lease is bound to |
 * | `tool` | string | tool name |
 * | `resourceScope` | string | the resource scope the call may touch |
 * | `generation` | integer | the active catalog generation the gate checked |
 * | `descriptorDigest` | string | lowercase hex sha256, the tool's descriptor digest (SPEC 4) |
 * | `policyEpoch` | integer | the audience's policy epoch at admission |
 * | `issuedAt` | integer | host clock at admission, ms |
 * | `notAfter` | integer | `issuedAt + leaseTtlMs`, ms; the lease is valid while now <= notAfter |
 * | `mac` | string | 64 lowercase hex digits: HMAC-SHA256(lease key, UTF-8 of RFC 8785 JCS of the object without `mac`) |
 *
 * The lease key is a shared secret the host configuration holds (in the simulator: the world's).
 * A string key is used as its UTF-8 bytes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../ports.ts';
import { jcs } from '../snapshot/canonical.ts';
import type { LeaseRejection } from './codes.ts';

/** The `schema` tag of every lease. */
export const LEASE_SCHEMA = 'catsim.lease.v1';

/** Default lease lifetime, ms. */
export const DEFAULT_LEASE_TTL_MS = 5_000;

/** Default prefix of lease ids. */
export const DEFAULT_LEASE_ID_PREFIX = 'lease-';

/** An HMAC key: raw bytes, or a string used as its UTF-8 bytes. */
export type LeaseKey = string | Uint8Array;

/** The signed fields of a lease (see the wire format in the file header). */
export interface LeaseFields {
  schema: typeof LEASE_SCHEMA;
  leaseId: string;
  key: string;
  principal: string;
  session: string;
  tool: string;
  resourceScope: string;
  generation: number;
  descriptorDigest: string;
  policyEpoch: number;
  /** ms, host clock. */
  issuedAt: number;
  /** ms, host clock; valid while now <= notAfter. */
  notAfter: number;
}

/** A lease as it travels in `params._meta["dev.catsim/lease"]`. */
export interface SignedLease extends LeaseFields {
  /** Lowercase hex HMAC-SHA256 over JCS of the {@link LeaseFields}. */
  mac: string;
}

/** What the gate binds a lease to; the issuer adds schema, id and times. */
export type LeaseBinding = Omit<LeaseFields, 'schema' | 'leaseId' | 'issuedAt' | 'notAfter'>;

/** Settings of a {@link LeaseIssuer}. */
export interface LeaseIssuerOptions {
  key: LeaseKey;
  /** Lifetime of a lease, ms (> 0). */
  ttlMs: number;
  /** Lease ids are `${idPrefix}${n}`, n = firstIndex, firstIndex + 1, ... */
  idPrefix: string;
  /**
   * The n of the first lease id. Default 0. A host on a durable store starts after the leases
   * its ledger already holds, so an id is never issued twice across restarts.
   */
  firstIndex?: number;
  clock: Clock;
}

/** Issues signed leases with deterministic, never repeated ids. */
export class LeaseIssuer {
  #issued: number;

  constructor(private readonly options: LeaseIssuerOptions) {
    this.#issued = options.firstIndex ?? 0;
  }

  /** A fresh lease for `binding`, valid from now until now + `ttlMs`. */
  issue(binding: LeaseBinding): SignedLease {
    const issuedAt = this.options.clock.now();
    const fields: LeaseFields = {
      schema: LEASE_SCHEMA,
      leaseId: `${this.options.idPrefix}${this.#issued++}`,
      ...binding,
      issuedAt,
      notAfter: issuedAt + this.options.ttlMs,
    };
    return { ...fields, mac: leaseMac(fields, this.options.key) };
  }
}

/** Lowercase hex HMAC-SHA256 under `key` of the RFC 8785 form of `fields` (SPEC section 2). */
export function leaseMac(fields: LeaseFields, key: LeaseKey): string {
  return createHmac('sha256', key).update(jcs(fields), 'utf8').digest('hex');
}

/** Remembers spent lease ids (a `Set<string>` will do); a server keeps one per lease key. */
export interface UsedLeaseIds {
  has(leaseId: string): boolean;
  add(leaseId: string): unknown;
}

/**
 * What a verifying server expects. `used` is required: a lease is single-use. Every other member
 * that is present must equal the lease's; an absent one is not checked (e.g. a server that cannot
 * see the principal omits `principal`). `policyEpoch` is the server's current epoch for the
 * caller's audience: a lease from another epoch is dead.
 */
export interface LeaseExpectations {
  used: UsedLeaseIds;
  key?: string;
  principal?: string;
  session?: string;
  tool?: string;
  resourceScope?: string;
  generation?: number;
  descriptorDigest?: string;
  policyEpoch?: number;
}

/** The outcome of {@link verifyLease}. */
export type LeaseVerdict = { ok: true; lease: SignedLease } | { ok: false; reason: LeaseRejection };

/**
 * Verifies a lease as a server would, at `nowMs` (ms, the verifier's clock). Checks, and refuses
 * with the first failing one: `MALFORMED` (not exactly the wire format's members and types),
 * `BAD_MAC`, `EXPIRED` (`nowMs > notAfter`), `REUSED` (its id is in `used`), then the bindings
 * in this order: `WRONG_KEY`, `WRONG_PRINCIPAL`, `WRONG_SESSION`, `WRONG_TOOL`, `WRONG_SCOPE`,
 * `WRONG_GENERATION`, `WRONG_DESCRIPTOR`, `EPOCH_MOVED`. Only a lease that passes every check is
 * added to `used`, so a refused presentation does not spend it. Never throws.
 */
export function verifyLease(
  token: unknown,
  key: LeaseKey,
  nowMs: number,
  expectations: LeaseExpectations,
): LeaseVerdict {
  if (!isSignedLease(token)) return { ok: false, reason: 'MALFORMED' };
  const { mac, ...fields } = token;
  if (!macMatches(mac, leaseMac(fields, key))) return { ok: false, reason: 'BAD_MAC' };
  if (nowMs > token.notAfter) return { ok: false, reason: 'EXPIRED' };
  if (expectations.used.has(token.leaseId)) return { ok: false, reason: 'REUSED' };
  const mismatch = bindingMismatch(token, expectations);
  if (mismatch !== undefined) return { ok: false, reason: mismatch };
  expectations.used.add(token.leaseId);
  return { ok: true, lease: token };
}

/** The binding checks of {@link verifyLease}, in order: expectation member → refusal. */
const BINDINGS: readonly (readonly [keyof LeaseFields & keyof LeaseExpectations, LeaseRejection])[] = [
  ['key', 'WRONG_KEY'],
  ['principal', 'WRONG_PRINCIPAL'],
  ['session', 'WRONG_SESSION'],
  ['tool', 'WRONG_TOOL'],
  ['resourceScope', 'WRONG_SCOPE'],
  ['generation', 'WRONG_GENERATION'],
  ['descriptorDigest', 'WRONG_DESCRIPTOR'],
  ['policyEpoch', 'EPOCH_MOVED'],
];

function bindingMismatch(lease: SignedLease, expectations: LeaseExpectations): LeaseRejection | undefined {
  for (const [member, rejection] of BINDINGS) {
    const expected = expectations[member];
    if (expected !== undefined && expected !== lease[member]) return rejection;
  }
  return undefined;
}

function macMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'hex');
  const b = Buffer.from(expected, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

const STRING_MEMBERS = ['leaseId', 'key', 'principal', 'session', 'tool', 'resourceScope', 'descriptorDigest'] as const;
const INTEGER_MEMBERS = ['generation', 'policyEpoch', 'issuedAt', 'notAfter'] as const;
const MEMBER_COUNT = 2 + STRING_MEMBERS.length + INTEGER_MEMBERS.length;

function isSignedLease(value: unknown): value is SignedLease {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    Object.keys(record).length === MEMBER_COUNT &&
    record.schema === LEASE_SCHEMA &&
    typeof record.mac === 'string' &&
    /^[0-9a-f]{64}$/.test(record.mac) &&
    STRING_MEMBERS.every((member) => typeof record[member] === 'string') &&
    INTEGER_MEMBERS.every((member) => Number.isSafeInteger(record[member]))
  );
}
