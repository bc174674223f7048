/**
 * Coverage probe `refreshed-during-burst`: a scan of a key started in the middle of a burst of
 * `list_changed` deliveries to it (F20's situation): at least 5 deliveries to that (server,
 * audience) in the 100 ms before the scan started, and another within 100 ms after it. A
 * refresher whose debounce resets on every notification never gets there.
 */
import { formatCatalogKey } from '../catalog-key.ts';
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

const WINDOW_MS = 100;
const DELIVERIES_BEFORE = 5;

function refreshedDuringBurst(events: readonly KnownEvent[]): boolean {
  const identity = new Map<string, string>();
  const deliveries = new Map<string, number[]>();
  for (const e of events) {
    if (e.type === 'server_up' || e.type === 'identity_rotated') identity.set(e.server, e.identity);
    if (e.type !== 'notification_delivered') continue;
    const key = formatCatalogKey(identity.get(e.server) ?? '', e.audience);
    const times = deliveries.get(key);
    if (times === undefined) deliveries.set(key, [e.t]);
    else times.push(e.t);
  }
  return events.some((e) => e.type === 'scan_started' && inBurst(deliveries.get(e.key) ?? [], e.t));
}

/** Whether `t` has enough deliveries just before it and one just after it. */
function inBurst(times: readonly number[], t: number): boolean {
  const before = times.filter((d) => d <= t && d > t - WINDOW_MS).length;
  return before >= DELIVERIES_BEFORE && times.some((d) => d > t && d <= t + WINDOW_MS);
}

/** A refresh in the middle of a notification burst. */
export const refreshedDuringBurstProbe: Probe = {
  name: 'refreshed-during-burst',
  basis: 'reference',
  description: 'a scan of a key started in the middle of a burst of list_changed deliveries to it',
  hit: refreshedDuringBurst,
};
