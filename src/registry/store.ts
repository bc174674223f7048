/**
 * The store port of the catalog core: everything a host must not lose when its process ends.
 *
 * Two halves, one store (so that a host has one durable place and one file to back up):
 * - {@link PointerStore}, the registry's half: per catalog key, every published generation, the
 *   active pointer (moved only by compare-and-swap, SPEC section 6), the catalog receipt of each
 *   pointer move, and whether the key is DISABLED;
 * - {@link AdmissionLedger}, the gate's half: every lease issued, whether it was consumed (a lease
 *   is single-use), and the receipt of every call that left the core with its later outcome
 *   (SPEC section 7).
 *
 * Every method is synchronous, so one call is one atomic step; every write method is one
 * transaction of a durable implementation. The store reads no clock and draws no randomness:
 * every time it records comes from the caller (ms, host clock). Implementations:
 * {@link InMemoryRegistryStore} (unit tests and the simulator; loses everything with the process)
 * and `SqliteRegistryStore` (`openSqliteStore({ path })` in sqlite-store.ts, what an embedding
 * host should use).
 */
import type { CallOutcome } from '../admission/codes.ts';
import type { SignedLease } from '../admission/lease.ts';
import type { ToolCatalogSnapshot } from '../snapshot/snapshot.ts';

/** Registry status of a generation (SPEC section 4). */
export type GenerationStatus = 'ELIGIBLE' | 'UNVERSIONED_OBSERVATION' | 'RETIRED';

/** One published generation of one catalog key. */
export interface GenerationRecord {
  /** The store key the generation was published under (`<identity>|<tenant>.<role>`). */
  key: string;
  /** 1, 2, ... per key; each successful publish (rollbacks included) is the previous + 1. */
  catalogGeneration: number;
  status: GenerationStatus;
  snapshot: ToolCatalogSnapshot;
  snapshotDigest: string;
  /** Host clock, ms. */
  publishedAt: number;
  /** The generation whose content a rollback republished, else null. */
  rolledBackFrom: number | null;
}

/**
 * The catalog receipt of one pointer move (SPEC section 6; seed 001: "the source revision, page
 * root, pointer, and catalog receipt are written in the same transaction"): what was published,
 * from which scan, over which generation. One per successful publish or rollback, never for a
 * refused one.
 */
export interface CatalogReceipt {
  key: string;
  /** The generation the pointer moved to. */
  catalogGeneration: number;
  /** The generation it held before: the compare-and-swap's expected generation (0: none). */
  previousGeneration: number;
  /** The scan whose snapshot was published (for a rollback: the scan of the republished content). */
  scanId: string;
  sourceRevision: number | null;
  pageRoot: string;
  snapshotDigest: string;
  /** Host clock, ms. */
  publishedAt: number;
  /** The generation a rollback republished, else null. */
  rolledBackFrom: number | null;
  /** Why a rollback was made (the caller's reason); null for a publish. */
  reason: string | null;
}

/** The catalog receipt of publishing `record` (its pointer moved from generation - 1). */
export function catalogReceiptOf(record: GenerationRecord, reason: string | null): CatalogReceipt {
  const { snapshot } = record;
  return {
    key: record.key,
    catalogGeneration: record.catalogGeneration,
    previousGeneration: record.catalogGeneration - 1,
    scanId: snapshot.scanId,
    sourceRevision: snapshot.sourceRevision,
    pageRoot: snapshot.pageRoot,
    snapshotDigest: record.snapshotDigest,
    publishedAt: record.publishedAt,
    rolledBackFrom: record.rolledBackFrom,
    reason,
  };
}

/** The registry's half of the store: generations, active pointers, catalog receipts, DISABLED keys. */
export interface PointerStore {
  /** The active generation of a key, or undefined before the first publish. */
  active(key: string): GenerationRecord | undefined;
  /** A generation by number (every generation is kept; the registry decides what is RETIRED). */
  generation(key: string, catalogGeneration: number): GenerationRecord | undefined;
  /**
   * Moves the pointer of `key` to `next` if it still holds `expectedGeneration` (0: nothing
   * published) and `next.catalogGeneration` is `expectedGeneration + 1`. In one atomic step it
   * writes the generation (with its source revision and page root), the pointer, `receipt`, and
   * clears the key's DISABLED mark (the key serves `next` from now on). Returns false, changing
   * nothing, when the pointer holds another generation.
   * @throws TypeError when `receipt` is not for (`key`, `next.catalogGeneration`); a durable
   *   store's write error (nothing is written then).
   */
  compareAndSet(key: string, expectedGeneration: number, next: GenerationRecord, receipt: CatalogReceipt): boolean;
  /** The catalog receipts of a key, oldest first. */
  catalogReceipts(key: string): CatalogReceipt[];
  /** Why the key is DISABLED, or undefined while it is not. */
  disabledReason(key: string): string | undefined;
  /** Marks the key DISABLED (SPEC section 6: nothing is served until a later successful publish). */
  disable(key: string, reason: string): void;
}

/** One lease in the ledger. */
export interface LeaseRecord {
  lease: SignedLease;
  /** When the call carrying it left the core (host clock, ms), or null while unspent. */
  consumedAt: number | null;
}

/**
 * The receipt of one call that left the core (SPEC section 7), the same fields as the `receipt`
 * observation (docs/TRACE.md) plus the time it was written.
 */
export interface CallReceipt {
  callId: string;
  leaseId: string;
  key: string;
  tool: string;
  generation: number;
  descriptorDigest: string;
  policyEpoch: number;
  /** The disclosure that showed the tool to the session, if any. */
  disclosure: { generation: number; snapshotDigest: string } | null;
  /** The revision pin sent with the call (null for an unversioned generation). */
  pin: number | null;
  /** When the call left the core (host clock, ms); the lease was consumed at this time. */
  writtenAt: number;
}

/** A {@link CallReceipt} with its outcome, once known. */
export interface CallReceiptRecord extends CallReceipt {
  /** How the call ended; null while it is in flight (or was in flight when its process ended). */
  outcome: CallOutcome | null;
  /** When the outcome was recorded (host clock, ms), or null. */
  outcomeAt: number | null;
}

/**
 * The gate's half of the store: the lease ledger and the call receipts.
 *
 * Order of calls for one admitted call: `recordLease` when the gate admits and the lease is
 * issued; `consumeLease(receipt)` just before the call is sent (the call may leave the core only
 * after it returned true, so no call is ever sent without its receipt on record); then
 * `recordOutcome` when the answer (or the timeout) comes. A lease consumed once is never consumed
 * again, also after a restart on the same store.
 */
export interface AdmissionLedger {
  /**
   * Records a freshly issued lease, unspent.
   * @throws Error when a lease with its id is already in the ledger (lease ids never repeat).
   */
  recordLease(lease: SignedLease): void;
  /** A lease by id, with its consumption. */
  lease(leaseId: string): LeaseRecord | undefined;
  /** Every lease, in issue order. */
  leases(): LeaseRecord[];
  /** How many leases were ever recorded: a host numbers its next lease id from it. */
  issuedLeaseCount(): number;
  /**
   * Consumes the lease `receipt.leaseId` at `receipt.writtenAt` and appends `receipt`, in one
   * atomic step. Returns false, writing nothing, when the lease is not in the ledger or was
   * consumed already (single use).
   */
  consumeLease(receipt: CallReceipt): boolean;
  /**
   * Appends the outcome of the call that consumed `leaseId`. Returns false, writing nothing, when
   * there is no receipt for it or its outcome is already recorded (an outcome is written once).
   */
  recordOutcome(leaseId: string, outcome: CallOutcome, at: number): boolean;
  /** The receipt of the call that consumed `leaseId`, with its outcome so far. */
  callReceipt(leaseId: string): CallReceiptRecord | undefined;
  /** Every call receipt, in the order the calls left the core. */
  callReceipts(): CallReceiptRecord[];
}

/** The store port a host is given (see the file header). */
export interface RegistryStore extends PointerStore, AdmissionLedger {}

/** Throws the TypeError of {@link PointerStore.compareAndSet} for a receipt of another publish. */
export function checkReceiptMatches(key: string, next: GenerationRecord, receipt: CatalogReceipt): void {
  if (receipt.key !== key || next.key !== key || receipt.catalogGeneration !== next.catalogGeneration) {
    throw new TypeError(
      `catalog receipt (${receipt.key}, ${receipt.catalogGeneration}) does not belong to the publish of (${key}, ${next.catalogGeneration})`,
    );
  }
}

/**
 * An in-memory {@link RegistryStore} keeping everything until the process ends. For unit tests
 * and the simulator; a host that must survive a restart uses `openSqliteStore`.
 */
export class InMemoryRegistryStore implements RegistryStore {
  readonly #history = new Map<string, GenerationRecord[]>();
  readonly #catalogReceipts = new Map<string, CatalogReceipt[]>();
  readonly #disabled = new Map<string, string>();
  readonly #leases = new Map<string, LeaseRecord>();
  readonly #receipts = new Map<string, CallReceiptRecord>();

  active(key: string): GenerationRecord | undefined {
    return this.#history.get(key)?.at(-1);
  }

  generation(key: string, catalogGeneration: number): GenerationRecord | undefined {
    return this.#history.get(key)?.[catalogGeneration - 1];
  }

  compareAndSet(key: string, expectedGeneration: number, next: GenerationRecord, receipt: CatalogReceipt): boolean {
    checkReceiptMatches(key, next, receipt);
    const history = this.#history.get(key) ?? [];
    if (history.length !== expectedGeneration || next.catalogGeneration !== expectedGeneration + 1) return false;
    history.push(next);
    this.#history.set(key, history);
    let receipts = this.#catalogReceipts.get(key);
    if (receipts === undefined) this.#catalogReceipts.set(key, (receipts = []));
    receipts.push({ ...receipt });
    this.#disabled.delete(key);
    return true;
  }

  catalogReceipts(key: string): CatalogReceipt[] {
    return (this.#catalogReceipts.get(key) ?? []).map((receipt) => ({ ...receipt }));
  }

  disabledReason(key: string): string | undefined {
    return this.#disabled.get(key);
  }

  disable(key: string, reason: string): void {
    this.#disabled.set(key, reason);
  }

  recordLease(lease: SignedLease): void {
    if (this.#leases.has(lease.leaseId)) throw new Error(`lease ${lease.leaseId} is already in the ledger`);
    this.#leases.set(lease.leaseId, { lease: { ...lease }, consumedAt: null });
  }

  lease(leaseId: string): LeaseRecord | undefined {
    const record = this.#leases.get(leaseId);
    return record === undefined ? undefined : { lease: { ...record.lease }, consumedAt: record.consumedAt };
  }

  leases(): LeaseRecord[] {
    return [...this.#leases.keys()].map((leaseId) => this.lease(leaseId) as LeaseRecord);
  }

  issuedLeaseCount(): number {
    return this.#leases.size;
  }

  consumeLease(receipt: CallReceipt): boolean {
    const record = this.#leases.get(receipt.leaseId);
    if (record === undefined || record.consumedAt !== null) return false;
    record.consumedAt = receipt.writtenAt;
    this.#receipts.set(receipt.leaseId, { ...copyReceipt(receipt), outcome: null, outcomeAt: null });
    return true;
  }

  recordOutcome(leaseId: string, outcome: CallOutcome, at: number): boolean {
    const receipt = this.#receipts.get(leaseId);
    if (receipt === undefined || receipt.outcome !== null) return false;
    receipt.outcome = outcome;
    receipt.outcomeAt = at;
    return true;
  }

  callReceipt(leaseId: string): CallReceiptRecord | undefined {
    const receipt = this.#receipts.get(leaseId);
    return receipt === undefined ? undefined : copyReceipt(receipt);
  }

  callReceipts(): CallReceiptRecord[] {
    return [...this.#receipts.values()].map(copyReceipt);
  }
}

/** A copy, so no caller can change what the store holds. */
function copyReceipt<T extends CallReceipt>(receipt: T): T {
  return { ...receipt, disclosure: receipt.disclosure === null ? null : { ...receipt.disclosure } };
}
