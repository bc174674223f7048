/**
 * Mutant `journal-beside-disk` (F18, issue 27.6): a host that keeps a write-ahead journal of its
 * publishes in a file of its own beside the database, outside the database's transaction, and
 * trusts that journal over the database when it boots again.
 *
 * The world's fence (sim/host/fenced-connection.ts) refuses every write a dead boot makes through
 * the connection it was given, so a host that only writes through it cannot leave a half publish
 * behind. A real host can still break atomicity with a second store the fence does not cover:
 * here the journal entry is written before the publish transaction and removed only when the
 * publish is refused. A crash inside the transaction (`in_publish`) rolls the database back, but the
 * journal keeps the generation it never committed; the next boot serves it as active
 * (I15 UNCOMMITTED_PUBLISH_SERVED) and numbers its scans against it.
 *
 * The journal "file" is kept in a map keyed by the round's clock object (the same object for every
 * boot of a round, a fresh one per round), as cores/mutants/restarts.ts keeps its mutants' memory, so
 * traces stay deterministic on any number of workers.
 */
import type { CatalogKey } from '../../src/keys.ts';
import { CatalogRegistry, type PublishGuards, type PublishResult } from '../../src/registry/registry.ts';
import type { GenerationRecord } from '../../src/registry/store.ts';
import { digestOfSnapshot, type ToolCatalogSnapshot } from '../../src/snapshot/snapshot.ts';

/** The journal beside each round's database: the last generation journaled per store key. */
const JOURNALS = new WeakMap<object, Map<string, GenerationRecord>>();

/** The registry with a journal beside the database that its next boot trusts (see the file header). */
export class JournalBesideDiskRegistry extends CatalogRegistry {
  #journal(): Map<string, GenerationRecord> {
    const clock = (this as unknown as { clock: object }).clock;
    let journal = JOURNALS.get(clock);
    if (journal === undefined) JOURNALS.set(clock, (journal = new Map()));
    return journal;
  }

  /** The defect: a journaled generation newer than the database's pointer is taken as active. */
  override active(key: CatalogKey): GenerationRecord | undefined {
    const stored = super.active(key);
    const journaled = this.#journal().get(this.storeKey(key));
    return journaled !== undefined && journaled.catalogGeneration > (stored?.catalogGeneration ?? 0)
      ? journaled
      : stored;
  }

  /**
   * Journals the generation the publish is about to commit, then publishes. A refused publish
   * takes its entry back; a crash inside the transaction unwinds past that and leaves it.
   */
  override publish(snapshot: ToolCatalogSnapshot, expectedGeneration: number, guards: PublishGuards): PublishResult {
    const key = this.storeKey({ identity: snapshot.serverIdentity, tenant: snapshot.tenant, role: snapshot.role });
    const journal = this.#journal();
    const before = journal.get(key);
    journal.set(key, {
      key,
      catalogGeneration: expectedGeneration + 1,
      status: snapshot.discoveryState === 'SNAPSHOT_PROVEN' ? 'ELIGIBLE' : 'UNVERSIONED_OBSERVATION',
      snapshot,
      snapshotDigest: digestOfSnapshot(snapshot),
      publishedAt: 0,
      rolledBackFrom: null,
    });
    const result = super.publish(snapshot, expectedGeneration, guards);
    if (result.ok) journal.set(key, result.record);
    else if (before === undefined) journal.delete(key);
    else journal.set(key, before);
    return result;
  }
}
