/**
 * Mutant registries: the reference registry with exactly one defence removed (SPEC section 12).
 */
import type { CatalogKey } from '../../src/keys.ts';
import { CatalogRegistry } from '../../src/registry/registry.ts';

/** Catalog key without tenant: keyed by identity and role only, so tenants share one pointer. */
export class KeyWithoutTenantRegistry extends CatalogRegistry {
  protected override storeKey(key: CatalogKey): string {
    return `${key.identity}|*.${key.role}`;
  }
}
