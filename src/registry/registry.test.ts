/**
 * The registry's rules, run against both store implementations: the in-memory one and the
 * SQLite one on a fresh database in a temporary directory (removed after each test).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../ports.ts';
import { buildSnapshot, digestOfSnapshot } from '../snapshot/snapshot.ts';
import { DEFAULT_TRUST, trustDigest } from '../validation/trust.ts';
import { pageDigest } from '../snapshot/digests.ts';
import { CoreMemos } from '../memos.ts';
import { CatalogRegistry } from './registry.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { InMemoryRegistryStore, type RegistryStore } from './store.ts';
import { afterThisTest, tempDir } from './testing/temp-dirs.ts';

const key = { identity: 'fp:a', tenant: 'acme', role: 'dev' };
const guards = { policyEpoch: 1, identity: 'fp:a', trustConfigDigest: trustDigest(DEFAULT_TRUST) };

function snapshot(scanId: string, revision: number | null, policyEpoch = 1) {
  const tools = [{ name: 'echo', inputSchema: { type: 'object' } }];
  return buildSnapshot(
    {
      key,
      endpointDigest: 'e',
      protocolVersion: '2025-11-25',
      scanId,
      discoveryState: revision === null ? 'UNVERSIONED_OBSERVATION' : 'SNAPSHOT_PROVEN',
      discoveryStartedAt: 100,
      policyEpoch,
      sourceRevision: revision,
      generationTtlMs: 1000,
      trust: DEFAULT_TRUST,
      pages: [
        {
          cursorIn: null,
          cursorOut: null,
          revision,
          pageDigest: pageDigest({ cursorIn: null, cursorOut: null, revision, tools }),
          tools,
        },
      ],
    },
    new CoreMemos(),
  );
}

function sqliteStore(): RegistryStore {
  const store = openSqliteStore({ path: join(tempDir(), 'catalog.db') });
  afterThisTest(() => store.close());
  return store;
}

const STORES: [string, () => RegistryStore][] = [
  ['in memory', () => new InMemoryRegistryStore()],
  ['SQLite', sqliteStore],
];

describe.each(STORES)('CatalogRegistry on the %s store', (_name, newStore) => {
  function registry(clock = { now: () => 500 }) {
    const events: Observation[] = [];
    const store = newStore();
    return { events, clock, store, registry: new CatalogRegistry(store, clock, { emit: (e) => events.push(e) }) };
  }

  describe('CatalogRegistry.publish (compare-and-swap)', () => {
    it('of two racers expecting generation 0, exactly one publishes and the other gets CAS_CONFLICT', () => {
      const { registry: r, events } = registry();
      const first = r.publish(snapshot('scan-0', 3), 0, guards);
      const second = r.publish(snapshot('scan-1', 3), 0, guards);
      expect(first.ok && first.record.catalogGeneration).toBe(1);
      expect(second).toEqual({ ok: false, code: 'CAS_CONFLICT', actualGeneration: 1 });
      expect(events.map((e) => e.type)).toEqual(['published', 'cas_conflict']);
      expect(events[1]).toEqual({
        type: 'cas_conflict',
        key: 'fp:a|acme.dev',
        scanId: 'scan-1',
        expectedGeneration: 0,
        actualGeneration: 1,
      });
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
      expect(r.publish(snapshot('b', 4), 1, guards)).toEqual({
        ok: false,
        code: 'REVISION_REGRESSION',
        actualGeneration: 1,
      });
      expect(r.publish(snapshot('c', 6), 1, { ...guards, policyEpoch: 2 })).toEqual({
        ok: false,
        code: 'POLICY_EPOCH_MOVED',
        actualGeneration: 1,
      });
      expect(r.publish(snapshot('d', 6), 1, { ...guards, identity: 'fp:b' })).toEqual({
        ok: false,
        code: 'IDENTITY_MOVED',
        actualGeneration: 1,
      });
      expect(r.publish(snapshot('e', 6), 1, { ...guards, trustConfigDigest: 'x' })).toEqual({
        ok: false,
        code: 'TRUST_CHANGED',
        actualGeneration: 1,
      });
    });
  });

  describe('serving rules, rollback and DISABLED (SPEC section 6)', () => {
    // Snapshots are discovered at 100 with a TTL of 1000, so each expires at 1100.
    it('serves the active generation until expiresAt, then CATALOG_EXPIRED; nothing before the first publish', () => {
      let now = 500;
      const { registry: r } = registry({ now: () => now });
      expect(r.serve(key)).toEqual({ ok: false, code: 'INCOMPLETE_DISCOVERY' });
      r.publish(snapshot('a', 3), 0, guards);
      expect(r.serve(key).ok).toBe(true);
      now = 1100;
      expect(r.serve(key).ok).toBe(true);
      now = 1101;
      expect(r.serve(key)).toEqual({ ok: false, code: 'CATALOG_EXPIRED' });
    });

    it('rolls back to the latest unexpired earlier generation as generation N+1, marked rolledBackFrom', () => {
      const { registry: r, events } = registry();
      r.publish(snapshot('a', 3), 0, guards);
      r.publish(snapshot('b', 4), 1, guards);
      const rolled = r.rollback(key, 'bad tool in generation 2', guards);
      expect(
        rolled.ok && [rolled.record.catalogGeneration, rolled.record.rolledBackFrom, rolled.record.snapshot.scanId],
      ).toEqual([3, 1, 'a']);
      expect(events.at(-1)).toMatchObject({
        type: 'published',
        generation: 3,
        scanId: 'a',
        sourceRevision: 3,
        rolledBackFrom: 1,
      });
    });

    it('becomes DISABLED when no earlier generation is unexpired: nothing is served until a later publish', () => {
      let now = 500;
      const { registry: r, events } = registry({ now: () => now });
      r.publish(snapshot('a', 3), 0, guards);
      r.publish(snapshot('b', 4), 1, guards);
      now = 1200;
      expect(r.rollback(key, 'operator', guards)).toEqual({ ok: false, code: 'DISABLED' });
      expect(events.at(-1)).toEqual({ type: 'server_disabled', key: 'fp:a|acme.dev', reason: 'operator' });
      expect(r.serve(key)).toEqual({ ok: false, code: 'SERVER_DISABLED' });
      now = 600;
      r.publish(snapshot('c', 5), 2, guards);
      expect(r.isDisabled(key)).toBe(false);
      expect(r.serve(key).ok).toBe(true);
    });

    it('rolls back only to a generation discovered under the policy epoch, identity and trust that hold now (the publish guards)', () => {
      // Generation 1 was discovered at epoch 1, generations 2 and 3 at epoch 2.
      const setUp = () => {
        const made = registry();
        made.registry.publish(snapshot('a', 3, 1), 0, guards);
        made.registry.publish(snapshot('b', 4, 2), 1, { ...guards, policyEpoch: 2 });
        made.registry.publish(snapshot('c', 5, 2), 2, { ...guards, policyEpoch: 2 });
        return made;
      };
      const atEpoch2 = setUp().registry.rollback(key, 'missing-tool rate rose', { ...guards, policyEpoch: 2 });
      expect(
        atEpoch2.ok && [
          atEpoch2.record.catalogGeneration,
          atEpoch2.record.rolledBackFrom,
          atEpoch2.record.snapshot.scanId,
        ],
      ).toEqual([4, 2, 'b']);
      // At epoch 3 neither generation 2 nor generation 1 was discovered under the policy holding now.
      const atEpoch3 = setUp();
      expect(atEpoch3.registry.rollback(key, 'privilege escalation', { ...guards, policyEpoch: 3 })).toEqual({
        ok: false,
        code: 'DISABLED',
      });
      expect(atEpoch3.events.at(-1)).toEqual({
        type: 'server_disabled',
        key: 'fp:a|acme.dev',
        reason: 'privilege escalation',
      });
      expect(setUp().registry.rollback(key, 'operator', { ...guards, policyEpoch: 2, identity: 'fp:b' })).toEqual({
        ok: false,
        code: 'DISABLED',
      });
      expect(
        setUp().registry.rollback(key, 'operator', { ...guards, policyEpoch: 2, trustConfigDigest: 'other' }),
      ).toEqual({ ok: false, code: 'DISABLED' });
    });

    it('never rolls back to a generation an earlier rollback rolled away, nor to the content being rolled away', () => {
      const { registry: r } = registry();
      r.publish(snapshot('a', 3), 0, guards);
      r.publish(snapshot('b', 4), 1, guards);
      r.publish(snapshot('c', 5), 2, guards);
      const first = r.rollback(key, 'missing-tool rate rose', guards);
      expect(first.ok && [first.record.catalogGeneration, first.record.rolledBackFrom]).toEqual([4, 2]);
      // Generation 3 was rolled away by 4; generation 2 is the content of 4 itself: back to 1.
      const second = r.rollback(key, 'privilege escalation', guards);
      expect(
        second.ok && [second.record.catalogGeneration, second.record.rolledBackFrom, second.record.snapshot.scanId],
      ).toEqual([5, 1, 'a']);
      // Now a (active), b (generation 4, rolled away by 5) and c (3, rolled away by 4) are all judged bad.
      expect(r.rollback(key, 'operator', guards)).toEqual({ ok: false, code: 'DISABLED' });
    });

    it('rolls away the flagged generation and every later one (a refresh that published while the caller polled)', () => {
      const { registry: r } = registry();
      r.publish(snapshot('a', 3), 0, guards);
      r.publish(snapshot('b', 4), 1, guards);
      r.publish(snapshot('c', 5), 2, guards);
      // The trigger flagged generation 2; generation 3 came after it: both are rolled away.
      const rolled = r.rollback(key, 'missing-tool rate rose', guards, 2);
      expect(
        rolled.ok && [rolled.record.catalogGeneration, rolled.record.rolledBackFrom, rolled.record.snapshot.scanId],
      ).toEqual([4, 1, 'a']);
    });

    it('answers NOTHING_PUBLISHED for a key with no generation, and changes nothing', () => {
      const { registry: r, events } = registry();
      expect(r.rollback(key, 'operator', guards)).toEqual({ ok: false, code: 'NOTHING_PUBLISHED' });
      expect(events).toEqual([]);
      expect(r.isDisabled(key)).toBe(false);
    });

    it('writes one catalog receipt per pointer move (with the reason of a rollback), none for a refusal', () => {
      const { registry: r, store } = registry();
      const a = snapshot('a', 3);
      const b = snapshot('b', 4);
      r.publish(a, 0, guards);
      r.publish(b, 1, guards);
      expect(r.publish(snapshot('c', 2), 2, guards)).toMatchObject({ ok: false, code: 'REVISION_REGRESSION' });
      r.rollback(key, 'missing-tool rate rose', guards);
      const common = { key: 'fp:a|acme.dev', publishedAt: 500 };
      expect(store.catalogReceipts('fp:a|acme.dev')).toEqual([
        {
          ...common,
          catalogGeneration: 1,
          previousGeneration: 0,
          scanId: 'a',
          sourceRevision: 3,
          pageRoot: a.pageRoot,
          snapshotDigest: digestOfSnapshot(a),
          rolledBackFrom: null,
          reason: null,
        },
        {
          ...common,
          catalogGeneration: 2,
          previousGeneration: 1,
          scanId: 'b',
          sourceRevision: 4,
          pageRoot: b.pageRoot,
          snapshotDigest: digestOfSnapshot(b),
          rolledBackFrom: null,
          reason: null,
        },
        {
          ...common,
          catalogGeneration: 3,
          previousGeneration: 2,
          scanId: 'a',
          sourceRevision: 3,
          pageRoot: a.pageRoot,
          snapshotDigest: digestOfSnapshot(a),
          rolledBackFrom: 1,
          reason: 'missing-tool rate rose',
        },
      ]);
      expect(store.catalogReceipts('fp:b|acme.dev')).toEqual([]);
    });

    it('keeps the DISABLED mark in the store until a publish clears it', () => {
      let now = 500;
      const { registry: r, store } = registry({ now: () => now });
      r.publish(snapshot('a', 3), 0, guards);
      now = 1200;
      r.rollback(key, 'privilege escalation', guards);
      expect(store.disabledReason('fp:a|acme.dev')).toBe('privilege escalation');
      now = 600;
      r.publish(snapshot('b', 4), 1, guards);
      expect(store.disabledReason('fp:a|acme.dev')).toBeUndefined();
    });

    it('keeps a superseded generation readable while a plan holds it, then RETIRED', () => {
      const { registry: r } = registry();
      r.publish(snapshot('a', 3), 0, guards);
      r.retain(key, 1);
      r.publish(snapshot('b', 4), 1, guards);
      expect(r.generation(key, 1)?.status).toBe('ELIGIBLE');
      r.release(key, 1);
      expect(r.generation(key, 1)?.status).toBe('RETIRED');
      expect(r.generation(key, 2)?.status).toBe('ELIGIBLE');
    });
  });
});
