/**
 * A readable timeline of one trace: one line per event, time first.
 */

type Event = { seq: number; t: number; src: string; type: string; [field: string]: unknown };

const short = (value: unknown): string => (typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? value.slice(0, 10) : String(value));
const cursor = (value: unknown): string => (value === null || value === undefined ? '∅' : JSON.stringify(value));

const FORMATS: Record<string, (e: Event) => string> = {
  server_up: (e) => `${e.server} up as ${e.identity} (boot ${e.boot}${e.versioned ? '' : ', unversioned'}${(e.traits as string[]).length > 0 ? `, traits ${(e.traits as string[]).join(' ')}` : ''})`,
  revision: (e) => `${e.server} now at revision ${e.revision}: ${Object.entries(e.views as Record<string, { name: string }[]>).map(([a, tools]) => `${a}=[${tools.map((t) => t.name).join(',')}]`).join(' ')}`,
  page_served: (e) => `${e.server} served ${e.audience} ${e.scanId} page ${cursor(e.cursorIn)} → ${cursor(e.cursorOut)} rev ${e.reported ?? '-'} (true ${e.revision}), ${(e.tools as unknown[]).length} tools`,
  page_refused: (e) => `${e.server} refused ${e.audience} ${e.scanId} page ${cursor(e.cursorIn)} with ${e.code}`,
  notification_sent: (e) => `${e.server} sent tools/list_changed to ${e.audience}${e.delivered ? '' : ' (dropped)'}`,
  quiet: () => 'T_heal: faults stop, quiet tail begins',
  round_end: (e) => `round ends ${e.status} (${e.reason})`,
  scan_started: (e) => `${e.scanId} starts on ${e.key} (expects generation ${e.expectedGeneration})`,
  page_read: (e) => `${e.scanId} read${e.recheck ? ' recheck' : ''} page ${cursor(e.cursorIn)} → ${cursor(e.cursorOut)} rev ${e.revision ?? '-'}, ${e.toolCount} tools`,
  scan_ended: (e) => `${e.scanId} ends ${e.state}${e.reason === 'OK' ? '' : ` (${e.reason})`}`,
  published: (e) => `publish ${e.key} generation ${e.generation} ${e.status} rev ${e.sourceRevision ?? '-'} from ${e.scanId}: [${(e.tools as { name: string }[]).map((t) => t.name).join(',')}] root ${short(e.pageRoot)}`,
  cas_conflict: (e) => `${e.scanId} lost the CAS on ${e.key} (expected ${e.expectedGeneration}, found ${e.actualGeneration})`,
  publish_refused: (e) => `${e.scanId} publish refused on ${e.key}: ${e.code}`,
  key_quarantined: (e) => `${e.audience} quarantined after ${e.scanId}: ${e.reason}`,
};

/** One line per event: `  t=   123ms #45 world  ...`. */
export function formatTimeline(events: readonly Event[]): string {
  return events.map((event) => {
    const format = FORMATS[event.type];
    const body = format === undefined ? `${event.type} ${JSON.stringify(event)}` : format(event);
    return `  t=${String(event.t).padStart(6)}ms #${String(event.seq).padEnd(4)} ${event.src.padEnd(5)} ${body}`;
  }).join('\n');
}
