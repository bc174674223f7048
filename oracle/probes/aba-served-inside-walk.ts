/**
 * Coverage probe `aba-served-inside-walk` (world): a server's true catalog went A, B, A again
 * between two pages of one walk: after the walk's first page was served and before a later page of
 * the same walk was. Read from the world's `revision` and `page_served` events alone; a walk the
 * client abandoned (no later page) never counts, so the situation is one the client really walked
 * through. `aba-inside-walk` is the same situation measured against the scans a core reports; this
 * one holds for any core, however it reports its scans.
 */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** One walk of a server being served: the last two catalog contents since its first page, and whether they went A-B-A. */
interface WalkState {
  readonly server: string;
  contents: string[];
  aba: boolean;
}

/** Whether some walk (server|audience|scanId) was served a page after an A-B-A since its first page. */
function abaServedInsideWalk(events: readonly KnownEvent[]): boolean {
  const current = new Map<string, string>();
  const walks = new Map<string, WalkState>();
  for (const e of events) {
    if (e.type === 'revision') {
      const content = JSON.stringify(e.views);
      current.set(e.server, content);
      for (const walk of walks.values()) if (walk.server === e.server) see(walk, content);
    }
    if (e.type !== 'page_served') continue;
    const id = `${e.server}|${e.audience}|${e.scanId ?? ''}`;
    if (e.cursorIn === null) {
      walks.set(id, { server: e.server, contents: [current.get(e.server) ?? ''], aba: false });
    } else if (walks.get(id)?.aba === true) return true;
    if (e.cursorOut === null) walks.delete(id);
  }
  return false;
}

/** Adds a content to a walk's history; A-B-A when it equals the one before the last and differs from the last. */
function see(walk: WalkState, content: string): void {
  const [before, last] = walk.contents.length >= 2 ? walk.contents.slice(-2) : [undefined, walk.contents.at(-1)];
  if (before === content && last !== content) walk.aba = true;
  walk.contents = [...walk.contents, content].slice(-2);
}

/** An A-B-A change of a server's catalog happened between two pages the world served one walk. */
export const abaServedInsideWalkProbe: Probe = {
  name: 'aba-served-inside-walk',
  basis: 'world',
  description: 'an A-B-A change of a server happened between two pages of one walk it served',
  hit: abaServedInsideWalk,
};
