/**
 * Coverage probe `cursor-loop-served` (world): a server answered a `tools/list` page with a
 * `nextCursor` that an earlier page of the same walk was requested with (F5's repeating cursor).
 * Read from the world's `page_served` events alone, so it shows the loop reached the core whatever
 * the core then did with it; `cursor-loop-quarantined` is the reference core's answer to it.
 */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/**
 * A walk is the pages one request identity (server, audience, the request's scanId) was served
 * from a first page (no cursor in) on; the loop is a cursor out already among its cursors in.
 */
function cursorLoopServed(events: readonly KnownEvent[]): boolean {
  const cursorsIn = new Map<string, Set<string>>();
  for (const e of events) {
    if (e.type !== 'page_served') continue;
    const walk = `${e.server}|${e.audience}|${e.scanId ?? ''}`;
    if (e.cursorIn === null) cursorsIn.set(walk, new Set());
    const seen = cursorsIn.get(walk) ?? new Set<string>();
    cursorsIn.set(walk, seen);
    if (e.cursorIn !== null) seen.add(e.cursorIn);
    if (e.cursorOut !== null && seen.has(e.cursorOut)) return true;
  }
  return false;
}

/** A server served a cursor loop inside one walk. */
export const cursorLoopServedProbe: Probe = {
  name: 'cursor-loop-served',
  basis: 'world',
  description: 'a server served a nextCursor that an earlier page of the same walk was requested with',
  hit: cursorLoopServed,
};
