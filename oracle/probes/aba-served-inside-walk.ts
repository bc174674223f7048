/**
 * Coverage probe `aba-served-inside-walk` (world): a server's true catalog went A, B, A again
 * while a multi-page walk of that server was between its first and last page, all read from the
 * world's `revision` and `page_served` events. `aba-inside-walk` is the same situation measured
 * against the scans a core reports; this one holds for any core, however it reports its scans.
 */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** Walks (server|audience|scanId) served a first page with a cursor out and not yet a last page, by server. */
function abaServedInsideWalk(events: readonly KnownEvent[]): boolean {
  const open = new Map<string, Set<string>>();
  const seen = new Map<string, string[]>();
  for (const e of events) {
    if (e.type === 'page_served') {
      const walks = open.get(e.server) ?? new Set<string>();
      open.set(e.server, walks);
      const walk = `${e.audience}|${e.scanId ?? ''}`;
      if (e.cursorOut === null) walks.delete(walk);
      else walks.add(walk);
    }
    if (e.type !== 'revision' || (open.get(e.server)?.size ?? 0) === 0) continue;
    const content = JSON.stringify(e.views);
    const history = seen.get(e.server) ?? [];
    if (history.length >= 2 && history.at(-2) === content && history.at(-1) !== content) return true;
    history.push(content);
    seen.set(e.server, history.slice(-2));
  }
  return false;
}

/** An A-B-A change of a server's catalog happened while the world was serving a walk of it. */
export const abaServedInsideWalkProbe: Probe = {
  name: 'aba-served-inside-walk',
  basis: 'world',
  description: 'an A-B-A change of a server happened while it was serving a multi-page walk',
  hit: abaServedInsideWalk,
};
