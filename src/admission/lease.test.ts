import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jcs } from '../snapshot/canonical.ts';
import { LeaseIssuer, leaseMac, verifyLease, type LeaseBinding, type SignedLease } from './lease.ts';

const KEY = 'k3y';
const BINDING: LeaseBinding = {
  key: 'fp:a|acme.dev',
  principal: 'alice',
  session: 's1',
  tool: 'read_file',
  resourceScope: 'repo:acme/widgets',
  generation: 3,
  descriptorDigest: 'ab'.repeat(32),
  policyEpoch: 4,
};

function issuer(now = 1_000): LeaseIssuer {
  return new LeaseIssuer({ key: KEY, ttlMs: 5_000, idPrefix: 'h1-lease-', clock: { now: () => now } });
}

describe('LeaseIssuer', () => {
  it('issues deterministic ids and the wire format: fields plus an HMAC-SHA256 over their JCS form', () => {
    const leases = issuer();
    const first = leases.issue(BINDING);
    const second = leases.issue(BINDING);
    expect(first).toEqual({
      schema: 'catsim.lease.v1',
      leaseId: 'h1-lease-0',
      ...BINDING,
      issuedAt: 1_000,
      notAfter: 6_000,
      mac: expect.any(String),
    });
    expect(second.leaseId).toBe('h1-lease-1');
    const { mac, ...fields } = first;
    expect(mac).toBe(
      createHmac('sha256', Buffer.from(KEY, 'utf8'))
        .update(Buffer.from(jcs(fields), 'utf8'))
        .digest('hex'),
    );
    expect(leaseMac(fields, new TextEncoder().encode(KEY))).toBe(mac);
  });
});

describe('verifyLease', () => {
  const lease = (): SignedLease => issuer().issue(BINDING);

  it('accepts a valid lease once and records its id; a refused presentation does not spend it', () => {
    const used = new Set<string>();
    const token = lease();
    expect(verifyLease(token, KEY, 1_000, { used, principal: 'mallory' })).toEqual({
      ok: false,
      reason: 'WRONG_PRINCIPAL',
    });
    expect(used.size).toBe(0);
    expect(verifyLease(token, KEY, 6_000, { used, ...BINDING })).toEqual({ ok: true, lease: token });
    expect([...used]).toEqual(['h1-lease-0']);
    expect(verifyLease(token, KEY, 6_000, { used, ...BINDING })).toEqual({ ok: false, reason: 'REUSED' });
  });

  it('refuses malformed tokens: missing or extra members, wrong types, a non-hex mac', () => {
    const token = lease();
    const { notAfter: _notAfter, ...missing } = token;
    for (const bad of [
      null,
      'lease',
      [],
      missing,
      { ...token, extra: 1 },
      { ...token, generation: '3' },
      { ...token, policyEpoch: 1.5 },
      { ...token, schema: 'v2' },
      { ...token, mac: token.mac.toUpperCase() },
    ]) {
      expect(verifyLease(bad, KEY, 1_000, { used: new Set() })).toEqual({ ok: false, reason: 'MALFORMED' });
    }
  });

  it('checks in order: MAC, expiry, reuse, then each binding', () => {
    const token = lease();
    const used = new Set([token.leaseId]);
    expect(verifyLease(token, 'other-key', 9_999, { used, principal: 'x' })).toEqual({ ok: false, reason: 'BAD_MAC' });
    expect(verifyLease(token, KEY, 6_001, { used, principal: 'x' })).toEqual({ ok: false, reason: 'EXPIRED' });
    expect(verifyLease(token, KEY, 6_000, { used, principal: 'x' })).toEqual({ ok: false, reason: 'REUSED' });
    const fresh = () => new Set<string>();
    expect(verifyLease(token, KEY, 0, { used: fresh(), key: 'fp:b|acme.dev', principal: 'x' })).toEqual({
      ok: false,
      reason: 'WRONG_KEY',
    });
    expect(verifyLease(token, KEY, 0, { used: fresh(), session: 's2', tool: 'x' })).toEqual({
      ok: false,
      reason: 'WRONG_SESSION',
    });
    expect(verifyLease(token, KEY, 0, { used: fresh(), tool: 'write_file' })).toEqual({
      ok: false,
      reason: 'WRONG_TOOL',
    });
    expect(verifyLease(token, KEY, 0, { used: fresh(), resourceScope: 'repo:globex/x' })).toEqual({
      ok: false,
      reason: 'WRONG_SCOPE',
    });
    expect(verifyLease(token, KEY, 0, { used: fresh(), generation: 4 })).toEqual({
      ok: false,
      reason: 'WRONG_GENERATION',
    });
    expect(verifyLease(token, KEY, 0, { used: fresh(), descriptorDigest: 'cd'.repeat(32) })).toEqual({
      ok: false,
      reason: 'WRONG_DESCRIPTOR',
    });
    expect(verifyLease(token, KEY, 0, { used: fresh(), policyEpoch: 5 })).toEqual({ ok: false, reason: 'EPOCH_MOVED' });
  });

  it('refuses any field changed after signing', () => {
    const token = lease();
    for (const tampered of [
      { ...token, notAfter: 60_000 },
      { ...token, policyEpoch: 5 },
      { ...token, session: 's2' },
      { ...token, leaseId: 'h1-lease-9' },
    ]) {
      expect(verifyLease(tampered, KEY, 1_000, { used: new Set() })).toEqual({ ok: false, reason: 'BAD_MAC' });
    }
  });
});
