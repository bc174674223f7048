/**
 * The simulated servers' own check of the lease a `tools/call` carries (SPEC section 2): an
 * HMAC-SHA256 over the RFC 8785 form of the lease fields with the key the world supplies,
 * single use, before its `notAfter`, for the tool being called. Written independently of the
 * core's signer, so that a signing bug in the core shows up as a refused call.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import canonicalize from 'canonicalize';

/** Why the server refused a lease (written as `call_refused_by_server.code` BAD_LEASE). */
export type LeaseProblem = 'MISSING' | 'MALFORMED' | 'BAD_MAC' | 'EXPIRED' | 'REUSED' | 'WRONG_TOOL' | 'EPOCH_MOVED';

/** Checks leases for one server; remembers used lease ids. */
export class ServerLeaseCheck {
  readonly #used = new Set<string>();

  /** `key` is the world's lease key as the core receives it (hex text). */
  constructor(private readonly key: string) {}

  /**
   * The problem with `lease` for a call of `tool` at virtual time `now`, or null when it is good
   * (and now used). `epoch` is the caller's current policy epoch, from the world's policy service:
   * a lease dies when the epoch moves (SPEC section 7).
   */
  check(
    lease: unknown,
    tool: string,
    now: number,
    epoch: number,
  ): { problem: LeaseProblem | null; leaseId: string | null } {
    if (lease === undefined || lease === null) return { problem: 'MISSING', leaseId: null };
    if (typeof lease !== 'object' || Array.isArray(lease)) return { problem: 'MALFORMED', leaseId: null };
    const { mac, ...fields } = lease as Record<string, unknown>;
    const leaseId = typeof fields.leaseId === 'string' ? fields.leaseId : null;
    if (typeof mac !== 'string' || leaseId === null || typeof fields.notAfter !== 'number')
      return { problem: 'MALFORMED', leaseId };
    if (!this.#macMatches(fields, mac)) return { problem: 'BAD_MAC', leaseId };
    if (now > fields.notAfter) return { problem: 'EXPIRED', leaseId };
    if (fields.tool !== tool) return { problem: 'WRONG_TOOL', leaseId };
    if (fields.policyEpoch !== epoch) return { problem: 'EPOCH_MOVED', leaseId };
    if (this.#used.has(leaseId)) return { problem: 'REUSED', leaseId };
    this.#used.add(leaseId);
    return { problem: null, leaseId };
  }

  #macMatches(fields: Record<string, unknown>, mac: string): boolean {
    const expected = createHmac('sha256', Buffer.from(this.key, 'utf8'))
      .update(canonicalize(fields) ?? '', 'utf8')
      .digest();
    const given = Buffer.from(mac, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
