/**
 * `CatalogHost` on the SQLite store: what a call writes to the lease ledger and the call receipts
 * (the lease, its consumption with the receipt before the call leaves, the outcome), and a second
 * host started on the same database after the first one closed: it republishes over the
 * generation it finds, and numbers its leases after the ones already issued. (The disclosures of
 * the first host's sessions are not in the store: the second host discloses again.)
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../registry/sqlite-store.ts';
import { afterThisTest, tempDir } from '../registry/testing/temp-dirs.ts';
import { LEASE_META_KEY } from './codes.ts';
import type { SignedLease } from './lease.ts';
import { startHarness, toolWith, type Harness } from './testing/host-harness.ts';

const READ = toolWith('read_file', { path: { type: 'string' } });

const harnesses: Harness[] = [];
afterEach(async () => { for (const harness of harnesses.splice(0)) await harness.close(); });

async function hostOn(path: string): Promise<{ h: Harness; store: ReturnType<typeof openSqliteStore> }> {
  const store = openSqliteStore({ path });
  afterThisTest(() => store.close());
  const h = await startHarness({ tools: [READ], effectClasses: { read_file: 'READ' }, revision: 7, store });
  harnesses.push(h);
  return { h, store };
}

describe('CatalogHost on a SQLite store', () => {
  it('records the lease, consumes it with the receipt as the call leaves, then records the outcome', async () => {
    const { h, store } = await hostOn(join(tempDir(), 'catalog.db'));
    h.grant(['read_file']);
    await h.time.advance(250);
    const record = h.disclose('s1');
    const plan = h.plan(record, 'read_file');
    const request = h.request(plan, { arguments: { path: '/etc/motd' } });
    const result = await h.host.call(request);
    expect(result).toMatchObject({ admitted: true, leaseId: 'lease-0', outcome: 'ok' });
    const sent = h.pair.calls[0]?.meta?.[LEASE_META_KEY] as SignedLease;
    expect(store.leases()).toEqual([{ lease: sent, consumedAt: 250 }]);
    const { type: _type, t: _t, ...receiptEvent } = h.of('receipt')[0] ?? {};
    expect(store.callReceipts()).toEqual([{ ...receiptEvent, writtenAt: 250, outcome: 'ok', outcomeAt: 250 }]);
    expect(store.callReceipt('lease-0')).toMatchObject({ callId: request.callId, key: 'fp:a|acme.dev', tool: 'read_file', generation: 1, policyEpoch: 1, pin: 7 });
  });

  it('a host started on the same database after the first closed publishes generation 2 over it and issues lease-1 next', async () => {
    const path = join(tempDir(), 'catalog.db');
    const first = await hostOn(path);
    first.h.grant(['read_file']);
    await first.h.host.call(first.h.request(first.h.plan(first.h.disclose('s1'), 'read_file'), { arguments: { path: '/a' } }));
    await first.h.close();
    harnesses.splice(0);
    first.store.close();

    const second = await hostOn(path);
    expect(second.store.catalogReceipts('fp:a|acme.dev').map((receipt) => [receipt.previousGeneration, receipt.catalogGeneration])).toEqual([[0, 1], [1, 2]]);
    expect(second.h.of('published').map((event) => event.generation)).toEqual([2]);
    second.h.grant(['read_file']);
    const result = await second.h.host.call(second.h.request(second.h.plan(second.h.disclose('s1'), 'read_file'), { arguments: { path: '/b' } }));
    expect(result).toMatchObject({ admitted: true, leaseId: 'lease-1', outcome: 'ok' });
    expect(second.store.callReceipts().map((receipt) => [receipt.leaseId, receipt.generation, receipt.outcome])).toEqual([['lease-0', 1, 'ok'], ['lease-1', 2, 'ok']]);
    expect(second.store.leases().map((record) => record.consumedAt !== null)).toEqual([true, true]);
  });
});
