import { describe, expect, it } from 'vitest';
import type { Observation } from '../ports.ts';
import { buildSnapshot } from '../snapshot/snapshot.ts';
import { DEFAULT_TRUST, trustDigest } from '../validation/trust.ts';
import { pageDigest } from '../snapshot/digests.ts';
import { CatalogRegistry } from './registry.ts';
import { InMemoryRegistryStore } from './store.ts';

const key = { identity: 'fp:a', tenant: 'acme', role: 'dev' };

function snapshot(scanId: string, revision: number | null, policyEpoch = 1) {
  const tools = [{ name: 'echo', inputSchema: { type: 'object' } }];
  return buildSnapshot({
    key, endpointDigest: 'e', protocolVersion: '2025-11-25', scanId,
    discoveryState: revision === null ? 'UNVERSIONED_OBSERVATION' : 'SNAPSHOT_PROVEN',
    discoveryStartedAt: 100, policyEpoch, sourceRevision: revision, generationTtlMs: 1000, trust: DEFAULT_TRUST,
    pages: [{ cursorIn: null, cursorOut: null, revision, pageDigest: pageDigest({ cursorIn: null, cursorOut: null, revision, tools }), tools }],
  });
}

function registry() {
  const events: Observation[] = [];
  return { events, registry: new CatalogRegistry(new InMemoryRegistryStore(), { now: () => 500 }, { emit: (e) => events.push(e) }) };
}

const guards = { policyEpoch: 1, identity: 'fp:a', trustConfigDigest: trustDigest(DEFAULT_TRUST) };

describe('CatalogRegistry.publish (compare-and-swap)', () => {
  it('of two racers expecting generation 0, exactly one publishes and the other gets CAS_CONFLICT', () => {
    const { registry: r, events } = registry();
    const first = r.publish(snapshot('scan-0', 3), 0, guards);
    const second = r.publish(snapshot('scan-1', 3), 0, guards);
    expect(first.ok && first.record.catalogGeneration).toBe(1);
    expect(second).toEqual({ ok: false, code: 'CAS_CONFLICT', actualGeneration: 1 });
    expect(events.map((e) => e.type)).toEqual(['published', 'cas_conflict']);
    expect(events[1]).toEqual({ type: 'cas_conflict', key: 'fp:a|acme.dev', scanId: 'scan-1', expectedGeneration: 0, actualGeneration: 1 });
    expect(r.generationOf(key)).toBe(1);
  });

  it('moves generations 1, 2, 3 and records the status', () => {
    const { registry: r } = registry();
    r.publish(snapshot('a', 3), 0, guards);
    r.publish(snapshot('b', null), 1, guards);
    const third = r.publish(snapshot('c', 4), 2, guards);
    expect(third.ok && [third.record.catalogGeneration, third.record.status]).toEqual([3, 'ELIGIBLE']);
  });

  it('refuses a lower source revision, a moved policy epoch, a rotated identity and changed trust', () => {
    const { registry: r } = registry();
    r.publish(snapshot('a', 5), 0, guards);
    expect(r.publish(snapshot('b', 4), 1, guards)).toEqual({ ok: false, code: 'REVISION_REGRESSION', actualGeneration: 1 });
    expect(r.publish(snapshot('c', 6), 1, { ...guards, policyEpoch: 2 })).toEqual({ ok: false, code: 'POLICY_EPOCH_MOVED', actualGeneration: 1 });
    expect(r.publish(snapshot('d', 6), 1, { ...guards, identity: 'fp:b' })).toEqual({ ok: false, code: 'IDENTITY_MOVED', actualGeneration: 1 });
    expect(r.publish(snapshot('e', 6), 1, { ...guards, trustConfigDigest: 'x' })).toEqual({ ok: false, code: 'TRUST_CHANGED', actualGeneration: 1 });
  });
});
