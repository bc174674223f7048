/**
 * Coverage probe `public-varies-served` (world): a server served a page marked `cacheScope:
 * public` while its current revision showed two of its audiences different tools (F25's claim
 * that a shared cache could believe). Read from the world's `revision` and `page_served` events
 * alone; I4 judges whether the core shared anything because of it.
 */
import type { KnownEvent, RevisionEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** Whether the views of `revision` differ between some two audiences (by descriptor digests, in order). */
function variesByAudience(revision: RevisionEvent): boolean {
  const views = Object.values(revision.views).map((view) => view.map((tool) => tool.digest).join(','));
  return views.some((view) => view !== views[0]);
}

function publicVariesServed(events: readonly KnownEvent[]): boolean {
  const varies = new Map<string, boolean>();
  for (const e of events) {
    if (e.type === 'revision') varies.set(e.server, variesByAudience(e));
    else if (e.type === 'page_served' && e.cacheScope === 'public' && varies.get(e.server) === true) return true;
  }
  return false;
}

/** A server served a `public` page while its audiences saw different tools. */
export const publicVariesServedProbe: Probe = {
  name: 'public-varies-served',
  basis: 'world',
  description: 'a server marked a page public while its audiences saw different tools',
  hit: publicVariesServed,
};
