/**
 * Mutant registries and stores: the reference registry with exactly one defence removed
 * (SPEC section 12).
 */
import type { CatalogKey } from '../../src/keys.ts';
import { CatalogRegistry, type ServeResult } from '../../src/registry/registry.ts';
import { InMemoryRegistryStore, type CatalogReceipt, type GenerationRecord } from '../../src/registry/store.ts';

/**
 * Catalog key without tenant: the store keeps one pointer per (identity, role), so tenants that
 * share a role share one generation history. It lies as a real shared cache would: every record
 * and receipt it hands back carries the key it was asked for, so the trace names each tenant's
 * own key and only what was shown (another tenant's descriptors) betrays the leak (I4 FOREIGN_TOOL).
 */
export class KeyWithoutTenantStore extends InMemoryRegistryStore {
  override active(key: string): GenerationRecord | undefined {
    return relabel(super.active(sharedKey(key)), key);
  }

  override generation(key: string, catalogGeneration: number): GenerationRecord | undefined {
    return relabel(super.generation(sharedKey(key), catalogGeneration), key);
  }

  override compareAndSet(
    key: string,
    expectedGeneration: number,
    next: GenerationRecord,
    receipt: CatalogReceipt,
  ): boolean {
    const shared = sharedKey(key);
    return super.compareAndSet(shared, expectedGeneration, { ...next, key: shared }, { ...receipt, key: shared });
  }

  override catalogReceipts(key: string): CatalogReceipt[] {
    return super.catalogReceipts(sharedKey(key)).map((receipt) => ({ ...receipt, key }));
  }

  override disabledReason(key: string): string | undefined {
    return super.disabledReason(sharedKey(key));
  }

  override disable(key: string, reason: string): void {
    super.disable(sharedKey(key), reason);
  }
}

/**
 * Public lists shared: the store believes a server's `cacheScope: public` (MCP 2026-07-28) and
 * keeps a key whose catalog was published from a public list in one pointer per (identity, role),
 * as a shared cache keyed by server would, from then on (as {@link KeyWithoutTenantStore} does for
 * every key). A key that never published a public list keeps its own pointer. A server that calls
 * a list public although it varies by credential (F25) then shows one tenant another's tools:
 * I4 FOREIGN_TOOL.
 */
export class SharePublicStore extends KeyWithoutTenantStore {
  readonly #shared = new Set<string>();

  override active(key: string): GenerationRecord | undefined {
    return this.#shared.has(key) ? super.active(key) : OWN.active.call(this, key);
  }

  override generation(key: string, catalogGeneration: number): GenerationRecord | undefined {
    return this.#shared.has(key)
      ? super.generation(key, catalogGeneration)
      : OWN.generation.call(this, key, catalogGeneration);
  }

  override compareAndSet(
    key: string,
    expectedGeneration: number,
    next: GenerationRecord,
    receipt: CatalogReceipt,
  ): boolean {
    if (next.snapshot.cacheScope === 'public') this.#shared.add(key);
    return this.#shared.has(key)
      ? super.compareAndSet(key, expectedGeneration, next, receipt)
      : OWN.compareAndSet.call(this, key, expectedGeneration, next, receipt);
  }

  override catalogReceipts(key: string): CatalogReceipt[] {
    return this.#shared.has(key) ? super.catalogReceipts(key) : OWN.catalogReceipts.call(this, key);
  }

  override disabledReason(key: string): string | undefined {
    return this.#shared.has(key) ? super.disabledReason(key) : OWN.disabledReason.call(this, key);
  }

  override disable(key: string, reason: string): void {
    if (this.#shared.has(key)) super.disable(key, reason);
    else OWN.disable.call(this, key, reason);
  }
}

/** The in-memory store's own methods (a key's own pointer), for {@link SharePublicStore}. */
const OWN = InMemoryRegistryStore.prototype;

/** `<identity>|<tenant>.<role>` without its tenant: `<identity>|*.<role>`. */
function sharedKey(key: string): string {
  const bar = key.lastIndexOf('|');
  const role = key.slice(key.lastIndexOf('.') + 1);
  return `${key.slice(0, bar)}|*.${role}`;
}

function relabel(record: GenerationRecord | undefined, key: string): GenerationRecord | undefined {
  return record === undefined ? undefined : { ...record, key };
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

  override compareAndSet(
    key: string,
    _expectedGeneration: number,
    next: GenerationRecord,
    receipt: CatalogReceipt,
  ): boolean {
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
