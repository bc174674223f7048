/**
 * Coverage probe `changed-within-ttl` (world): a server changed an audience's view while a page it
 * had served that audience still said it was fresh (a `page_served` with `ttlMs` > 0 at t, then a
 * `revision` changing that audience's tools before t + `ttlMs`: "Servers MAY change the underlying
 * data before the TTL expires", F30). Read from the world's events alone; I19, I33 and I12 judge
 * whether the core read the change without waiting for the TTL.
 */
import type { KnownEvent, RevisionEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** The tools of each audience of a revision, as one string per audience. */
function viewsOf(revision: RevisionEvent): Map<string, string> {
  return new Map(
    Object.entries(revision.views).map(([audience, view]) => [audience, view.map((tool) => tool.digest).join(',')]),
  );
}

function changedWithinTtl(events: readonly KnownEvent[]): boolean {
  const views = new Map<string, Map<string, string>>();
  // Per server and audience, the latest instant until which a served page said it was fresh.
  const freshUntil = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'page_served' && e.ttlMs !== undefined && e.ttlMs > 0) {
      const ref = JSON.stringify([e.server, e.audience]);
      freshUntil.set(ref, Math.max(freshUntil.get(ref) ?? 0, e.t + e.ttlMs));
    } else if (e.type === 'revision') {
      const before = views.get(e.server);
      const after = viewsOf(e);
      views.set(e.server, after);
      if (before === undefined) continue;
      for (const [audience, tools] of after) {
        const until = freshUntil.get(JSON.stringify([e.server, audience]));
        if (until !== undefined && e.t < until && before.get(audience) !== tools) return true;
      }
    }
  }
  return false;
}

/** A server changed a list while a page of it still said it was fresh. */
export const changedWithinTtlProbe: Probe = {
  name: 'changed-within-ttl',
  basis: 'world',
  description: "a server changed an audience's tools while a page it served that audience still said it was fresh",
  hit: changedWithinTtl,
};
