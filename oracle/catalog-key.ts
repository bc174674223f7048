/**
 * The catalog key as traces write it: `"<identity>|<tenant>.<role>"` (docs/TRACE.md, core events;
 * SPEC section 1).
 */

/** A catalog key split into the server identity and the audience class `tenant.role`. */
export interface CatalogKey {
  readonly identity: string;
  readonly audience: string;
}

/**
 * Splits a key at its last `|`, because an audience never contains one while an identity (a URL
 * plus fingerprint, for HTTP servers) might. A key without `|` yields the whole string as the
 * identity and an empty audience, which then matches no server and no view.
 */
export function parseCatalogKey(key: string): CatalogKey {
  const bar = key.lastIndexOf('|');
  if (bar < 0) return { identity: key, audience: '' };
  return { identity: key.slice(0, bar), audience: key.slice(bar + 1) };
}

/** Joins an identity and an audience into the key form traces use. */
export function formatCatalogKey(identity: string, audience: string): string {
  return `${identity}|${audience}`;
}
