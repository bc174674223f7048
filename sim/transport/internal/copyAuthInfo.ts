/**
 * A deep copy of an SDK `AuthInfo`, so no handler can change what later messages carry.
 * Not `structuredClone`: `resource` is a `URL`, which Node 20 cannot structured-clone.
 */
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { plainClone } from '../../internal/plain-clone.ts';

/** Copies `authInfo`, cloning `scopes`, `extra` and `resource`. */
export function copyAuthInfo(authInfo: AuthInfo): AuthInfo {
  const copy: AuthInfo = { ...authInfo, scopes: [...authInfo.scopes] };
  if (authInfo.extra !== undefined) copy.extra = plainClone(authInfo.extra);
  if (authInfo.resource !== undefined) copy.resource = new URL(authInfo.resource.href);
  return copy;
}
