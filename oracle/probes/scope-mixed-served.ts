/**
 * Coverage probe `scope-mixed-served` (world): a modern-era server served one walk (server,
 * audience, the request's scanId) pages with two different `cacheScope`s (F24). Read from the
 * world's `page_served` events alone, so it shows the disagreement reached the core whatever the
 * core then did with it; `scope-mixed-refused` is the reference core's answer to it.
 */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

function scopeMixedServed(events: readonly KnownEvent[]): boolean {
  const scopes = new Map<string, string>();
  for (const e of events) {
    if (e.type !== 'page_served' || e.cacheScope === undefined || e.scanId === null) continue;
    const walk = `${e.server}|${e.audience}|${e.scanId}`;
    const first = scopes.get(walk);
    if (first === undefined) scopes.set(walk, e.cacheScope);
    else if (first !== e.cacheScope) return true;
  }
  return false;
}

/** A server served one walk pages with two `cacheScope`s. */
export const scopeMixedServedProbe: Probe = {
  name: 'scope-mixed-served',
  basis: 'world',
  description: 'a modern server served one walk pages with two different cacheScopes',
  hit: scopeMixedServed,
};
