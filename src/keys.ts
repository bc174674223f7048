/**
 * Catalog keys (SPEC section 1): caches, registry pointers and snapshots are per
 * (verified server identity, tenant, role), never per a server's self-reported name.
 */

/** An audience class: a permission class the server can prove for a principal. */
export interface AudienceClass {
  tenant: string;
  role: string;
}

/** (server identity, tenant, role). */
export interface CatalogKey extends AudienceClass {
  /** Who the server provably is: key fingerprint, stdio command digest, or URL + certificate. */
  identity: string;
}

/** The audience class written `tenant.role`. */
export function audienceName(audience: AudienceClass): string {
  return `${audience.tenant}.${audience.role}`;
}

/** The catalog key written `<identity>|<tenant>.<role>` (the form observations use). */
export function keyName(key: CatalogKey): string {
  return `${key.identity}|${audienceName(key)}`;
}
