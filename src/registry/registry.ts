/**
 * The single acceptance point (SPEC section 6): `publish(snapshot, expectedGeneration)` is one
 * compare-and-swap on the active pointer of a catalog key. Caches, prompt builders and planners
 * read only that pointer.
 */
import type { Clock, ObservationSink } from '../ports.ts';
import { keyName, type CatalogKey } from '../keys.ts';
import { digestOfSnapshot, type ToolCatalogSnapshot } from '../snapshot/snapshot.ts';
import type { GenerationRecord, RegistryStore } from './store.ts';

/** Why a publish was refused. `CAS_CONFLICT`: another publisher moved the pointer first. */
export type PublishRefusal = 'CAS_CONFLICT' | 'NOT_PROVEN' | 'REVISION_REGRESSION' | 'POLICY_EPOCH_MOVED' | 'IDENTITY_MOVED' | 'TRUST_CHANGED';

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

/** The registry of published generations over a {@link RegistryStore}. */
export class CatalogRegistry {
  constructor(
    private readonly store: RegistryStore,
    private readonly clock: Clock,
    private readonly sink: ObservationSink,
  ) {}

  /** The active generation of a key, or undefined before the first publish. */
  active(key: CatalogKey): GenerationRecord | undefined {
    return this.store.active(keyName(key));
  }

  /** The active generation number of a key (0 before the first publish). */
  generationOf(key: CatalogKey): number {
    return this.active(key)?.catalogGeneration ?? 0;
  }

  /**
   * Publishes a proven (or complete unversioned) snapshot if the pointer still holds
   * `expectedGeneration`, its revision is not lower than the active one's, and `guards` (read
   * now) equal what the snapshot recorded at discovery start. Emits `published` or
   * `cas_conflict` / `publish_refused`.
   */
  publish(snapshot: ToolCatalogSnapshot, expectedGeneration: number, guards: PublishGuards): PublishResult {
    const key = keyOf(snapshot);
    const active = this.store.active(key);
    const refusal = this.#refusal(snapshot, expectedGeneration, guards, active);
    if (refusal !== undefined) return this.#refuse(snapshot, expectedGeneration, refusal, active?.catalogGeneration ?? 0);
    const record: GenerationRecord = {
      catalogGeneration: expectedGeneration + 1,
      status: snapshot.discoveryState === 'SNAPSHOT_PROVEN' ? 'ELIGIBLE' : 'UNVERSIONED_OBSERVATION',
      snapshot,
      snapshotDigest: digestOfSnapshot(snapshot),
      publishedAt: this.clock.now(),
      rolledBackFrom: null,
    };
    if (!this.store.compareAndSet(key, expectedGeneration, record)) {
      return this.#refuse(snapshot, expectedGeneration, 'CAS_CONFLICT', this.store.active(key)?.catalogGeneration ?? 0);
    }
    this.#emitPublished(key, record);
    return { ok: true, record };
  }

  #refusal(snapshot: ToolCatalogSnapshot, expected: number, guards: PublishGuards, active: GenerationRecord | undefined): PublishRefusal | undefined {
    if ((active?.catalogGeneration ?? 0) !== expected) return 'CAS_CONFLICT';
    if (snapshot.discoveryState === 'SNAPSHOT_PROVEN' && snapshot.sourceRevision === null) return 'NOT_PROVEN';
    const activeRevision = active?.snapshot.sourceRevision;
    if (snapshot.sourceRevision !== null && typeof activeRevision === 'number' && snapshot.sourceRevision < activeRevision) return 'REVISION_REGRESSION';
    if (guards.policyEpoch !== snapshot.policyEpoch) return 'POLICY_EPOCH_MOVED';
    if (guards.identity !== snapshot.serverIdentity) return 'IDENTITY_MOVED';
    if (guards.trustConfigDigest !== snapshot.trustConfigDigest) return 'TRUST_CHANGED';
    return undefined;
  }

  #refuse(snapshot: ToolCatalogSnapshot, expected: number, code: PublishRefusal, actual: number): PublishResult {
    const key = keyOf(snapshot);
    if (code === 'CAS_CONFLICT') {
      this.sink.emit({ type: 'cas_conflict', key, scanId: snapshot.scanId, expectedGeneration: expected, actualGeneration: actual });
    } else {
      this.sink.emit({ type: 'publish_refused', key, scanId: snapshot.scanId, code });
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
      status: record.status,
      sourceRevision: snapshot.sourceRevision,
      snapshotDigest: record.snapshotDigest,
      pageRoot: snapshot.pageRoot,
      pages: snapshot.pages.map((page) => ({ cursorIn: page.cursorIn, cursorOut: page.cursorOut, pageDigest: page.digest })),
      tools: snapshot.tools.map((tool) => ({ name: tool.name, descriptorDigest: tool.descriptorDigest, verdict: tool.verdict })),
      expiresAt: snapshot.expiresAt,
    });
  }
}

function keyOf(snapshot: ToolCatalogSnapshot): string {
  return keyName({ identity: snapshot.serverIdentity, tenant: snapshot.tenant, role: snapshot.role });
}
