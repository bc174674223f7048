/**
 * The store port's contract (src/registry/store.ts), the same test for both implementations: the
 * in-memory store and the SQLite store on a fresh database in a temporary directory.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store.ts';
import { InMemoryRegistryStore, type RegistryStore } from './store.ts';
import { callReceiptFor, generationAt, leases, receiptOf, STORE_KEY } from './testing/store-fixtures.ts';
import { afterThisTest, tempDir } from './testing/temp-dirs.ts';

function sqliteStore(): RegistryStore {
  const store = openSqliteStore({ path: join(tempDir(), 'catalog.db') });
  afterThisTest(() => store.close());
  return store;
}

const STORES: [string, () => RegistryStore][] = [
  ['in-memory', () => new InMemoryRegistryStore()],
  ['SQLite', sqliteStore],
];

describe.each(STORES)('the %s store', (_name, newStore) => {
  describe('pointer half', () => {
    it('moves the pointer 0 → 1 → 2 by compare-and-swap and keeps every generation', () => {
      const store = newStore();
      const [first, second] = [generationAt(1, 3), generationAt(2, 4)];
      expect(store.active(STORE_KEY)).toBeUndefined();
      expect(store.compareAndSet(STORE_KEY, 0, first, receiptOf(first))).toBe(true);
      expect(store.compareAndSet(STORE_KEY, 1, second, receiptOf(second))).toBe(true);
      expect(store.active(STORE_KEY)).toEqual(second);
      expect(store.generation(STORE_KEY, 1)).toEqual(first);
      expect(store.generation(STORE_KEY, 3)).toBeUndefined();
      expect(
        store
          .catalogReceipts(STORE_KEY)
          .map((receipt) => [receipt.previousGeneration, receipt.catalogGeneration, receipt.scanId]),
      ).toEqual([
        [0, 1, 'scan-1'],
        [1, 2, 'scan-2'],
      ]);
    });

    it('refuses a stale expected generation and a generation that is not expected + 1, changing nothing', () => {
      const store = newStore();
      const first = generationAt(1, 3);
      store.compareAndSet(STORE_KEY, 0, first, receiptOf(first));
      const racer = generationAt(1, 3);
      expect(store.compareAndSet(STORE_KEY, 0, racer, receiptOf(racer))).toBe(false);
      const skipping = generationAt(3, 5);
      expect(store.compareAndSet(STORE_KEY, 1, skipping, receiptOf(skipping))).toBe(false);
      expect(store.active(STORE_KEY)?.catalogGeneration).toBe(1);
      expect(store.catalogReceipts(STORE_KEY)).toHaveLength(1);
    });

    it('throws a TypeError for a catalog receipt of another publish, writing nothing', () => {
      const store = newStore();
      const first = generationAt(1, 3);
      expect(() => store.compareAndSet(STORE_KEY, 0, first, { ...receiptOf(first), catalogGeneration: 2 })).toThrow(
        new TypeError('catalog receipt (fp:a|acme.dev, 2) does not belong to the publish of (fp:a|acme.dev, 1)'),
      );
      expect(store.active(STORE_KEY)).toBeUndefined();
    });

    it('keeps a DISABLED mark until the next pointer move clears it', () => {
      const store = newStore();
      const [first, second] = [generationAt(1, 3), generationAt(2, 4)];
      store.compareAndSet(STORE_KEY, 0, first, receiptOf(first));
      expect(store.disabledReason(STORE_KEY)).toBeUndefined();
      store.disable(STORE_KEY, 'operator');
      expect(store.disabledReason(STORE_KEY)).toBe('operator');
      expect(store.disabledReason('fp:b|acme.dev')).toBeUndefined();
      store.compareAndSet(STORE_KEY, 1, second, receiptOf(second));
      expect(store.disabledReason(STORE_KEY)).toBeUndefined();
    });
  });

  describe('lease ledger and call receipts', () => {
    it('records leases unspent, in issue order, and refuses an id twice', () => {
      const store = newStore();
      const [a, b] = leases(2) as [ReturnType<typeof leases>[0], ReturnType<typeof leases>[0]];
      store.recordLease(a);
      store.recordLease(b);
      expect(store.issuedLeaseCount()).toBe(2);
      expect(store.lease('h-lease-1')).toEqual({ lease: b, consumedAt: null });
      expect(store.leases().map((record) => record.lease.leaseId)).toEqual(['h-lease-0', 'h-lease-1']);
      expect(() => store.recordLease(a)).toThrow(new Error('lease h-lease-0 is already in the ledger'));
      expect(store.issuedLeaseCount()).toBe(2);
      expect(store.lease('h-lease-9')).toBeUndefined();
    });

    it('consumes a lease once, writing its receipt with it; a second consumption or an unknown lease writes nothing', () => {
      const store = newStore();
      const [lease] = leases(1) as [ReturnType<typeof leases>[0]];
      store.recordLease(lease);
      const receipt = callReceiptFor(lease, 1_200);
      expect(store.consumeLease(receipt)).toBe(true);
      expect(store.lease(lease.leaseId)?.consumedAt).toBe(1_200);
      expect(store.consumeLease({ ...receipt, callId: 'call-again', writtenAt: 1_300 })).toBe(false);
      expect(store.consumeLease({ ...receipt, leaseId: 'h-lease-9' })).toBe(false);
      expect(store.lease(lease.leaseId)?.consumedAt).toBe(1_200);
      expect(store.callReceipts()).toEqual([{ ...receipt, outcome: null, outcomeAt: null }]);
    });

    it('records an outcome once, only for a written receipt', () => {
      const store = newStore();
      const [lease] = leases(1) as [ReturnType<typeof leases>[0]];
      store.recordLease(lease);
      expect(store.recordOutcome(lease.leaseId, 'ok', 1_250)).toBe(false);
      store.consumeLease(callReceiptFor(lease, 1_200));
      expect(store.recordOutcome(lease.leaseId, 'unknown', 2_200)).toBe(true);
      expect(store.recordOutcome(lease.leaseId, 'ok', 2_300)).toBe(false);
      expect(store.callReceipt(lease.leaseId)).toEqual({
        ...callReceiptFor(lease, 1_200),
        outcome: 'unknown',
        outcomeAt: 2_200,
      });
      expect(store.callReceipt('h-lease-9')).toBeUndefined();
    });

    it('hands out copies: changing what it returned changes nothing stored', () => {
      const store = newStore();
      const [lease] = leases(1) as [ReturnType<typeof leases>[0]];
      store.recordLease(lease);
      store.consumeLease(callReceiptFor(lease, 1_200));
      const receipt = store.callReceipt(lease.leaseId);
      if (receipt?.disclosure) receipt.disclosure.generation = 99;
      const record = store.lease(lease.leaseId);
      if (record) record.lease.tool = 'rm';
      expect(store.callReceipt(lease.leaseId)?.disclosure?.generation).toBe(1);
      expect(store.lease(lease.leaseId)?.lease.tool).toBe('echo');
    });
  });
});
