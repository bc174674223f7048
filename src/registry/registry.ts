/**
 * The single acceptance point (SPEC section 6): `publish(snapshot, expectedGeneration)` is one
 * compare-and-swap on the active pointer of a catalog key. Caches, prompt builders and planners
 * read only that pointer.
 */
import type { Clock, ObservationSink } from '../ports.ts';
import { keyName, type CatalogKey } from '../keys.ts';
import { digestOfSnapshot, type ToolCatalogSnapshot } from '../snapshot/snapshot.ts';
import type { DigestMemos } from '../snapshot/digests.ts';
import { catalogReceiptOf, type GenerationRecord, type PointerStore } from './store.ts';

/** Why a publish was refused. `CAS_CONFLICT`: another publisher moved the pointer first. */
export type PublishRefusal =
  | 'CAS_CONFLICT'
  | 'NOT_PROVEN'
  | 'REVISION_REGRESSION'
  | 'POLICY_EPOCH_MOVED'
  | 'IDENTITY_MOVED'
  | 'TRUST_CHANGED'
  | 'CATALOG_LIMIT';

/** Why a key serves nothing right now (SPEC section 7 codes). */
export type ServeRefusal = 'INCOMPLETE_DISCOVERY' | 'CATALOG_EXPIRED' | 'SERVER_DISABLED';

/** What {@link CatalogRegistry.serve} returns: the generation to use, or why there is none. */
export type ServeResult = { ok: true; record: GenerationRecord } | { ok: false; code: ServeRefusal };

/** The outcome of {@link CatalogRegistry.rollback}. */
export type RollbackResult =
  | { ok: true; record: GenerationRecord }
  | { ok: false; code: 'DISABLED' | 'NOTHING_PUBLISHED' };

/** The outcome of {@link CatalogRegistry.publish}. */
export type PublishResult =
  | { ok: true; record: GenerationRecord }
  | { ok: false; code: PublishRefusal; actualGeneration: number };

/** What must still hold at publish time, as it was at discovery start. */
export interface PublishGuards {
  policyEpoch: number;
  identity: string;
  trustConfigDigest: string;
}

/**
 * The registry of published generations over a {@link PointerStore}.
 *
 * The store keeps, per key, the generations, the pointer, the catalog receipt of every pointer
 * move and whether the key is DISABLED (a rollback found no earlier generation that qualifies; a
 * later successful publish re-enables it), so all of that survives a restart on a durable store.
 * The registry itself keeps only how many unfinished plans hold each superseded generation
 * (retention, SPEC section 6): plans live in the process, and end with it.
 */
export class CatalogRegistry {
  readonly #retained = new Map<string, Map<number, number>>();

  /** `memos`: the host's digest memos (src/memos.ts), which only save work; without them each snapshot digest is computed whole. */
  constructor(
    private readonly store: PointerStore,
    private readonly clock: Clock,
    private readonly sink: ObservationSink,
    private readonly memos?: DigestMemos,
  ) {}

  /** The active generation of a key, or undefined before the first publish. */
  active(key: CatalogKey): GenerationRecord | undefined {
    return this.store.active(this.storeKey(key));
  }

  /**
   * The store key of a catalog key: `<identity>|<tenant>.<role>`. Every part is part of the key,
   * so one tenant's snapshot can never be served to another (I4).
   */
  protected storeKey(key: CatalogKey): string {
    return keyName(key);
  }

  /**
   * The generation a caller may use now, applying the serving rules of SPEC sections 6 and 7:
   * nothing while DISABLED, nothing before the first publish, nothing past `expiresAt` (a
   * failed refresh keeps the current generation serving only until then).
   */
  serve(key: CatalogKey): ServeResult {
    if (this.isDisabled(key)) return { ok: false, code: 'SERVER_DISABLED' };
    const active = this.active(key);
    if (active === undefined) return { ok: false, code: 'INCOMPLETE_DISCOVERY' };
    if (this.clock.now() > active.snapshot.expiresAt) return { ok: false, code: 'CATALOG_EXPIRED' };
    return { ok: true, record: active };
  }

  /** Whether the key is DISABLED. */
  isDisabled(key: CatalogKey): boolean {
    return this.store.disabledReason(this.storeKey(key)) !== undefined;
  }

  /** A generation of a key while it is retained or active; undefined once RETIRED. */
  generation(key: CatalogKey, catalogGeneration: number): GenerationRecord | undefined {
    const record = this.store.generation(this.storeKey(key), catalogGeneration);
    if (record === undefined) return undefined;
    const active = this.active(key)?.catalogGeneration;
    return catalogGeneration === active || this.#holds(key, catalogGeneration) > 0
      ? record
      : { ...record, status: 'RETIRED' };
  }

  /** An unfinished plan binds to a generation: it stays readable until released. */
  retain(key: CatalogKey, catalogGeneration: number): void {
    const holds = this.#holdsOf(key);
    holds.set(catalogGeneration, (holds.get(catalogGeneration) ?? 0) + 1);
  }

  /** The plan finished (or was refused); a superseded generation with no holders is RETIRED. */
  release(key: CatalogKey, catalogGeneration: number): void {
    const holds = this.#holdsOf(key);
    const count = (holds.get(catalogGeneration) ?? 0) - 1;
    if (count > 0) holds.set(catalogGeneration, count);
    else holds.delete(catalogGeneration);
  }

  #holds(key: CatalogKey, catalogGeneration: number): number {
    return this.#retained.get(this.storeKey(key))?.get(catalogGeneration) ?? 0;
  }

  #holdsOf(key: CatalogKey): Map<number, number> {
    const name = this.storeKey(key);
    let holds = this.#retained.get(name);
    if (holds === undefined) this.#retained.set(name, (holds = new Map()));
    return holds;
  }

  /**
   * Rollback (SPEC section 6; seed 001's rollout rule): one CAS step publishing generation N+1
   * with the content of the latest earlier generation that is still unexpired AND still
   * authorized now: `guards` (the policy epoch, the server identity and the trust configuration
   * digest as they hold now, read by the caller just before) equal what that generation recorded
   * at discovery start, exactly as {@link publish} checks a fresh snapshot. Content judged bad never
   * qualifies: a generation whose snapshot digest is the active one's (the content being rolled
   * away) or that of a generation an earlier rollback rolled away. The republish carries `rolledBackFrom`. If none
   * qualifies the key becomes DISABLED (`server_disabled`): nothing is served, and there is no
   * fallback to a stale or unauthorized full set. A later successful publish re-enables the key.
   * The republish and its catalog receipt (carrying `reason`) are one store write; so is the
   * DISABLED mark. Leases stop for the rolled-away generation at once: the gate admits only
   * against the active generation (src/admission/gate.ts, `generationFor`).
   *
   * `flaggedGeneration` (default: the active one) is the generation the trigger judged bad, read
   * when the trigger came: if later generations were published since (a refresh racing the
   * caller's policy poll), they are rolled away with it, so the rollback never lands on the
   * flagged content itself.
   * @throws the store's write error (nothing is published or emitted then).
   */
  rollback(key: CatalogKey, reason: string, guards: PublishGuards, flaggedGeneration?: number): RollbackResult {
    const name = this.storeKey(key);
    const active = this.store.active(name);
    if (active === undefined) return { ok: false, code: 'NOTHING_PUBLISHED' };
    const source = this.#rollbackSource(
      name,
      active,
      guards,
      Math.min(flaggedGeneration ?? active.catalogGeneration, active.catalogGeneration),
    );
    if (source === undefined) {
      this.store.disable(name, reason);
      this.sink.emit({ type: 'server_disabled', key: name, reason });
      return { ok: false, code: 'DISABLED' };
    }
    const record: GenerationRecord = {
      ...source,
      catalogGeneration: active.catalogGeneration + 1,
      publishedAt: this.clock.now(),
      rolledBackFrom: source.catalogGeneration,
    };
    if (!this.store.compareAndSet(name, active.catalogGeneration, record, catalogReceiptOf(record, reason)))
      return this.rollback(key, reason, guards, flaggedGeneration);
    this.#emitPublished(name, record);
    return { ok: true, record };
  }

  #rollbackSource(
    name: string,
    active: GenerationRecord,
    guards: PublishGuards,
    flagged: number,
  ): GenerationRecord | undefined {
    const newer: GenerationRecord[] = [active];
    const earlier: GenerationRecord[] = [];
    for (let generation = active.catalogGeneration - 1; generation >= 1; generation -= 1) {
      const record = this.store.generation(name, generation);
      if (record !== undefined) (generation >= flagged ? newer : earlier).push(record);
    }
    // Content judged bad: the flagged generation and every later one, and every generation an
    // earlier rollback rolled away (the one just below a rollback's own generation).
    const rolledAway = new Set(newer.map((record) => record.snapshotDigest));
    for (const record of [...newer, ...earlier]) {
      if (record.rolledBackFrom === null) continue;
      const away = this.store.generation(name, record.catalogGeneration - 1);
      if (away !== undefined) rolledAway.add(away.snapshotDigest);
    }
    return earlier.find(
      (candidate) => !rolledAway.has(candidate.snapshotDigest) && this.rollbackQualifies(candidate, guards),
    );
  }

  /**
   * Whether an earlier generation may be rolled back to now: unexpired, and discovered under the
   * policy epoch, server identity and trust configuration that hold now (`guards`). A
   * checker-validation mutant (`rollback-to-stale`) overrides exactly this.
   */
  protected rollbackQualifies(candidate: GenerationRecord, guards: PublishGuards): boolean {
    const { snapshot } = candidate;
    return snapshot.expiresAt >= this.clock.now() && guardMoved(snapshot, guards) === undefined;
  }

  /** The active generation number of a key (0 before the first publish). */
  generationOf(key: CatalogKey): number {
    return this.active(key)?.catalogGeneration ?? 0;
  }

  /**
   * Publishes a proven (or complete unversioned) snapshot if the pointer still holds
   * `expectedGeneration`, its revision is not lower than the active one's, and `guards` (read
   * now) equal what the snapshot recorded at discovery start. The generation (with its source
   * revision and page root), the pointer and the catalog receipt are one store write. Emits
   * `published`, or `cas_conflict` when the pointer moved; the other refusals are only returned
   * (the trace contract has no event for them: they change nothing, so no invariant could judge
   * one).
   * @throws the store's write error (nothing is published or emitted then).
   */
  publish(snapshot: ToolCatalogSnapshot, expectedGeneration: number, guards: PublishGuards): PublishResult {
    const key = this.storeKey(keyOfSnapshot(snapshot));
    const active = this.store.active(key);
    const refusal = this.#refusal(snapshot, expectedGeneration, guards, active);
    if (refusal !== undefined)
      return this.#refuse(snapshot, expectedGeneration, refusal, active?.catalogGeneration ?? 0);
    const record: GenerationRecord = {
      key,
      catalogGeneration: expectedGeneration + 1,
      status: snapshot.discoveryState === 'SNAPSHOT_PROVEN' ? 'ELIGIBLE' : 'UNVERSIONED_OBSERVATION',
      snapshot,
      snapshotDigest: digestOfSnapshot(snapshot, this.memos),
      publishedAt: this.clock.now(),
      rolledBackFrom: null,
    };
    if (!this.store.compareAndSet(key, expectedGeneration, record, catalogReceiptOf(record, null))) {
      return this.#refuse(snapshot, expectedGeneration, 'CAS_CONFLICT', this.store.active(key)?.catalogGeneration ?? 0);
    }
    this.#emitPublished(key, record);
    return { ok: true, record };
  }

  /**
   * The compare of the compare-and-swap: the pointer still holds the generation the publisher
   * read when its scan started. A checker-validation mutant overrides exactly this.
   */
  protected pointerHolds(active: GenerationRecord | undefined, expectedGeneration: number): boolean {
    return (active?.catalogGeneration ?? 0) === expectedGeneration;
  }

  #refusal(
    snapshot: ToolCatalogSnapshot,
    expected: number,
    guards: PublishGuards,
    active: GenerationRecord | undefined,
  ): PublishRefusal | undefined {
    if (!this.pointerHolds(active, expected)) return 'CAS_CONFLICT';
    if (snapshot.discoveryState === 'SNAPSHOT_PROVEN' && snapshot.sourceRevision === null) return 'NOT_PROVEN';
    const activeRevision = active?.snapshot.sourceRevision;
    if (
      snapshot.sourceRevision !== null &&
      typeof activeRevision === 'number' &&
      snapshot.sourceRevision < activeRevision
    )
      return 'REVISION_REGRESSION';
    return guardMoved(snapshot, guards);
  }

  #refuse(snapshot: ToolCatalogSnapshot, expected: number, code: PublishRefusal, actual: number): PublishResult {
    if (code === 'CAS_CONFLICT') {
      const key = this.storeKey(keyOfSnapshot(snapshot));
      this.sink.emit({
        type: 'cas_conflict',
        key,
        scanId: snapshot.scanId,
        expectedGeneration: expected,
        actualGeneration: actual,
      });
    }
    return { ok: false, code, actualGeneration: actual };
  }

  #emitPublished(key: string, record: GenerationRecord): void {
    const { snapshot } = record;
    this.sink.emit({
      type: 'published',
      key,
      scanId: snapshot.scanId,
      generation: record.catalogGeneration,
      status: publishedStatus(record),
      sourceRevision: snapshot.sourceRevision,
      snapshotDigest: record.snapshotDigest,
      pageRoot: snapshot.pageRoot,
      pages: snapshot.pages.map((page) => ({
        cursorIn: page.cursorIn,
        cursorOut: page.cursorOut,
        pageDigest: page.digest,
      })),
      tools: snapshot.tools.map((tool) => ({
        name: tool.name,
        descriptorDigest: tool.descriptorDigest,
        verdict: tool.verdict,
      })),
      expiresAt: snapshot.expiresAt,
      rolledBackFrom: record.rolledBackFrom,
    });
  }
}

/** The status a record is published with; a RETIRED record is never published (it is a view of an old one). */
function publishedStatus(record: GenerationRecord): 'ELIGIBLE' | 'UNVERSIONED_OBSERVATION' {
  if (record.status === 'RETIRED')
    throw new Error(`internal: generation ${record.catalogGeneration} of ${record.key} published as RETIRED`);
  return record.status;
}

function keyOfSnapshot(snapshot: ToolCatalogSnapshot): CatalogKey {
  return { identity: snapshot.serverIdentity, tenant: snapshot.tenant, role: snapshot.role };
}

/**
 * Which of the facts a snapshot recorded at discovery start no longer holds under `guards` (read
 * now): the policy epoch, the server identity, the trust configuration; undefined when all hold.
 * A publish is refused with that code; a rollback source does not qualify.
 */
function guardMoved(
  snapshot: ToolCatalogSnapshot,
  guards: PublishGuards,
): 'POLICY_EPOCH_MOVED' | 'IDENTITY_MOVED' | 'TRUST_CHANGED' | undefined {
  if (guards.policyEpoch !== snapshot.policyEpoch) return 'POLICY_EPOCH_MOVED';
  if (guards.identity !== snapshot.serverIdentity) return 'IDENTITY_MOVED';
  if (guards.trustConfigDigest !== snapshot.trustConfigDigest) return 'TRUST_CHANGED';
  return undefined;
}
