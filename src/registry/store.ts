/**
 * The registry's store port: one active pointer per catalog key, moved only by compare-and-swap.
 * A host may put a durable store behind it; {@link InMemoryRegistryStore} keeps it in memory.
 */
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

/** The store port. All methods are synchronous, so one call is one atomic step. */
export interface RegistryStore {
  /** The active generation of a key, or undefined before the first publish. */
  active(key: string): GenerationRecord | undefined;
  /** A generation by number, while retained. */
  generation(key: string, catalogGeneration: number): GenerationRecord | undefined;
  /**
   * Moves the pointer of `key` to `next` if it still holds `expectedGeneration` (0: nothing
   * published). Returns false, changing nothing, otherwise.
   */
  compareAndSet(key: string, expectedGeneration: number, next: GenerationRecord): boolean;
}

/** An in-memory {@link RegistryStore} keeping every generation of every key. */
export class InMemoryRegistryStore implements RegistryStore {
  readonly #history = new Map<string, GenerationRecord[]>();

  active(key: string): GenerationRecord | undefined {
    return this.#history.get(key)?.at(-1);
  }

  generation(key: string, catalogGeneration: number): GenerationRecord | undefined {
    return this.#history.get(key)?.[catalogGeneration - 1];
  }

  compareAndSet(key: string, expectedGeneration: number, next: GenerationRecord): boolean {
    const history = this.#history.get(key) ?? [];
    if (history.length !== expectedGeneration || next.catalogGeneration !== expectedGeneration + 1) return false;
    history.push(next);
    this.#history.set(key, history);
    return true;
  }
}
