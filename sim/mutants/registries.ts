/**
 * Mutant registries and stores: the reference registry with exactly one defence removed
 * (SPEC section 12).
 */
import type { CatalogKey } from '../../src/keys.ts';
import { CatalogRegistry, type ServeResult } from '../../src/registry/registry.ts';
import { InMemoryRegistryStore, type CatalogReceipt, type GenerationRecord } from '../../src/registry/store.ts';

/** Catalog key without tenant: keyed by identity and role only, so tenants share one pointer. */
export class KeyWithoutTenantRegistry extends CatalogRegistry {
  protected override storeKey(key: CatalogKey): string {
    return `${key.identity}|*.${key.role}`;
  }
}

/** Publish without CAS: the pointer is never compared, so racers overwrite each other. */
export class NoCasRegistry extends CatalogRegistry {
  protected override pointerHolds(): boolean {
    return true;
  }
}

/**
 * A store whose write is blind (no compare): the other half of publishing without CAS. Its
 * pointer half keeps every write, duplicates included; the lease ledger is the reference one.
 */
export class BlindStore extends InMemoryRegistryStore {
  readonly #history = new Map<string, GenerationRecord[]>();
  readonly #receipts = new Map<string, CatalogReceipt[]>();
  readonly #disabled = new Map<string, string>();

  override active(key: string): GenerationRecord | undefined {
    return this.#history.get(key)?.at(-1);
  }

  override generation(key: string, catalogGeneration: number): GenerationRecord | undefined {
    return this.#history.get(key)?.findLast((record) => record.catalogGeneration === catalogGeneration);
  }

  override compareAndSet(key: string, _expectedGeneration: number, next: GenerationRecord, receipt: CatalogReceipt): boolean {
    this.#history.set(key, [...(this.#history.get(key) ?? []), next]);
    let receipts = this.#receipts.get(key);
    if (receipts === undefined) this.#receipts.set(key, (receipts = []));
    receipts.push(receipt);
    this.#disabled.delete(key);
    return true;
  }

  override catalogReceipts(key: string): CatalogReceipt[] {
    return [...(this.#receipts.get(key) ?? [])];
  }

  override disabledReason(key: string): string | undefined {
    return this.#disabled.get(key);
  }

  override disable(key: string, reason: string): void {
    this.#disabled.set(key, reason);
  }
}

/** Serving an expired generation: `expiresAt` is never looked at. */
export class ServeExpiredRegistry extends CatalogRegistry {
  override serve(key: CatalogKey): ServeResult {
    const served = super.serve(key);
    if (served.ok || served.code !== 'CATALOG_EXPIRED') return served;
    const active = this.active(key);
    return active === undefined ? served : { ok: true, record: active };
  }
}
