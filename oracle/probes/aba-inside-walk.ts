/** Coverage probe `aba-inside-walk`: an A-B-A change happened while a scan was running. */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/**
 * A revision was reverted (A-B-A: its content equals the one two revisions back) while some scan
 * was between its start and its end.
 */
function abaInsideWalk(events: readonly KnownEvent[]): boolean {
  const open = new Set<string>();
  const seen = new Map<string, string[]>();
  for (const e of events) {
    if (e.type === 'scan_started') open.add(e.scanId);
    if (e.type === 'scan_ended') open.delete(e.scanId);
    if (e.type !== 'revision' || open.size === 0) continue;
    const content = JSON.stringify(e.views);
    const history = seen.get(e.server) ?? [];
    if (history.length >= 2 && history.at(-2) === content && history.at(-1) !== content) return true;
    history.push(content);
    seen.set(e.server, history.slice(-2));
  }
  return false;
}

/** An A-B-A change inside a scan. */
export const abaInsideWalkProbe: Probe = {
  name: 'aba-inside-walk',
  basis: 'reference',
  description: 'an A-B-A change happened while a scan was running',
  hit: abaInsideWalk,
};
