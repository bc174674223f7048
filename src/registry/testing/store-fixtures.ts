/**
 * Data fixtures for the store tests: generations built through the real snapshot code, leases
 * signed by the real issuer, and their call receipts. Free of vitest, so a child process can use
 * them too. Not part of the library.
 */
import { LeaseIssuer, type SignedLease } from '../../admission/lease.ts';
import { CoreMemos } from '../../memos.ts';
import { pageDigest } from '../../snapshot/digests.ts';
import { buildSnapshot, digestOfSnapshot } from '../../snapshot/snapshot.ts';
import { DEFAULT_TRUST } from '../../validation/trust.ts';
import { catalogReceiptOf, type CallReceipt, type CatalogReceipt, type GenerationRecord } from '../store.ts';

/** The catalog key every fixture uses, and its store key. */
export const KEY = { identity: 'fp:a', tenant: 'acme', role: 'dev' };
export const STORE_KEY = 'fp:a|acme.dev';

/** The memos the fixtures' snapshots are built with. */
const MEMOS = new CoreMemos();

/**
 * Generation `generation` of {@link STORE_KEY}: one page with the tools named `toolNames` at
 * `revision` (null: unversioned), discovered at 100 with a TTL of 1,000 ms, published at 500.
 */
export function generationAt(
  generation: number,
  revision: number | null,
  toolNames: readonly string[] = ['echo'],
): GenerationRecord {
  const tools = toolNames.map((name) => ({ name, description: `${name} tool.`, inputSchema: { type: 'object' } }));
  const snapshot = buildSnapshot(
    {
      key: KEY,
      endpointDigest: 'e',
      protocolVersion: '2025-11-25',
      scanId: `scan-${generation}`,
      discoveryState: revision === null ? 'UNVERSIONED_OBSERVATION' : 'SNAPSHOT_PROVEN',
      discoveryStartedAt: 100,
      policyEpoch: 1,
      sourceRevision: revision,
      generationTtlMs: 1_000,
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
    MEMOS,
  );
  return {
    key: STORE_KEY,
    catalogGeneration: generation,
    status: revision === null ? 'UNVERSIONED_OBSERVATION' : 'ELIGIBLE',
    snapshot,
    snapshotDigest: digestOfSnapshot(snapshot),
    publishedAt: 500,
    rolledBackFrom: null,
  };
}

/** The catalog receipt of publishing `record` (no rollback reason). */
export function receiptOf(record: GenerationRecord): CatalogReceipt {
  return catalogReceiptOf(record, null);
}

/** `count` leases `h-lease-0`, ... for tool `echo` of generation 1, issued at 1,000 (TTL 5,000). */
export function leases(count: number): SignedLease[] {
  const issuer = new LeaseIssuer({ key: 'k3y', ttlMs: 5_000, idPrefix: 'h-lease-', clock: { now: () => 1_000 } });
  return Array.from({ length: count }, () =>
    issuer.issue({
      key: STORE_KEY,
      principal: 'alice',
      session: 's1',
      tool: 'echo',
      resourceScope: 'repo:acme/widgets',
      generation: 1,
      descriptorDigest: 'ab'.repeat(32),
      policyEpoch: 4,
    }),
  );
}

/** The receipt of the call that carried `lease`, written at `writtenAt`. */
export function callReceiptFor(lease: SignedLease, writtenAt: number): CallReceipt {
  return {
    callId: `call-${lease.leaseId}`,
    leaseId: lease.leaseId,
    key: lease.key,
    tool: lease.tool,
    generation: lease.generation,
    descriptorDigest: lease.descriptorDigest,
    policyEpoch: lease.policyEpoch,
    disclosure: { generation: 1, snapshotDigest: 'cd'.repeat(32) },
    pin: 3,
    writtenAt,
  };
}
