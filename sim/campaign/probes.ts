/**
 * Coverage probes (SPEC section 11): named situations a campaign must reach, because a defence
 * that was never exercised proves nothing. Each probe is a predicate over one round's trace
 * events (what the core observed and what the world did); a round hits a probe at most once.
 *
 * Probes are judged on the reference core only: `catsim run` fails a campaign of at least the
 * scenario's `probeGateRounds` rounds that misses one.
 */
import type { TraceEvent } from '../trace/recorder.ts';

/** A named probe and how it is recognised in a round. */
export interface Probe {
  name: string;
  description: string;
  hit(events: readonly TraceEvent[]): boolean;
}

const ended = (reason: string) => (events: readonly TraceEvent[]) => events.some((e) => e.type === 'scan_ended' && e.reason === reason);
const decided = (decision: string, kind?: string) => (events: readonly TraceEvent[]) => {
  const kinds = new Map(events.filter((e) => e.type === 'plan_made').map((e) => [`${e.session as string}#${e.planId as string}`, e.kind]));
  return events.some((e) => e.type === 'gate_decision' && e.decision === decision && (kind === undefined || kinds.get(`${e.session as string}#${e.planId as string}`) === kind));
};

/** A revision was reverted (A-B-A) while a scan of that server was between its first page and its end. */
function abaInsideWalk(events: readonly TraceEvent[]): boolean {
  const open = new Map<string, number>();
  const seen = new Map<string, string[]>();
  for (const e of events) {
    if (e.type === 'scan_started') open.set(e.scanId as string, e.seq);
    if (e.type === 'scan_ended') open.delete(e.scanId as string);
    if (e.type !== 'revision' || open.size === 0) continue;
    const server = e.server as string;
    const content = JSON.stringify(e.views);
    const history = seen.get(server) ?? [];
    if (history.length >= 2 && history.at(-2) === content && history.at(-1) !== content) return true;
    history.push(content);
    seen.set(server, history.slice(-2));
  }
  return false;
}

/** A policy change revoked a tool while a receipt for that tool was still waiting for its outcome. */
function revocationWhileLeaseLive(events: readonly TraceEvent[]): boolean {
  const live = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'receipt') live.set(e.leaseId as string, e.tool as string);
    if (e.type === 'receipt_outcome') live.delete(e.leaseId as string);
    if (e.type === 'policy_changed' && (e.revoked as string[]).some((name) => [...live.values()].includes(name))) return true;
  }
  return false;
}

/** Every probe, in report order. */
export const PROBES: readonly Probe[] = [
  { name: 'cursor-loop-quarantined', description: 'a scan quarantined for a cursor requested twice', hit: ended('CURSOR_REPEATED') },
  { name: 'page-limit-quarantined', description: 'a scan quarantined at the page limit (never-ending pages)', hit: ended('PAGE_LIMIT') },
  { name: 'revision-moved-mid-walk', description: 'a scan ended INCOMPLETE because the revision moved between pages', hit: ended('REVISION_MOVED') },
  { name: 'recheck-caught-change', description: 'the final recheck caught a change after the last page', hit: ended('RECHECK_REVISION_MOVED') },
  { name: 'list-changed-mid-walk', description: 'a notification during a scan ended it INCOMPLETE', hit: ended('LIST_CHANGED') },
  { name: 'cursor-invalidated', description: 'a restart invalidated a cursor mid-walk (-32602)', hit: ended('CURSOR_INVALID') },
  { name: 'identity-rotated-mid-walk', description: 'an identity rotation ended a scan INCOMPLETE', hit: ended('IDENTITY_CHANGED') },
  { name: 'disconnected-mid-walk', description: 'a cut connection ended a scan INCOMPLETE', hit: ended('DISCONNECTED') },
  { name: 'equivocation-detected', description: 'the same revision proved with two contents was quarantined', hit: ended('EQUIVOCATION') },
  { name: 'aba-inside-walk', description: 'an A-B-A change happened while a scan was running', hit: abaInsideWalk },
  { name: 'cas-conflict-lost', description: 'a racing refresher lost the compare-and-swap', hit: (events) => events.some((e) => e.type === 'cas_conflict') },
  { name: 'unversioned-published', description: 'an unversioned source published as UNVERSIONED_OBSERVATION', hit: (events) => events.some((e) => e.type === 'published' && e.status === 'UNVERSIONED_OBSERVATION') },
  { name: 'defect-quarantined', description: 'a planted defective tool published with a quarantine verdict', hit: (events) => events.some((e) => e.type === 'published' && e.tools.some((t) => t.verdict !== 'ok')) },
  { name: 'expired-refused', description: 'a disclosure or call refused because the generation expired', hit: (events) => events.some((e) => (e.type === 'disclosure_refused' && e.code === 'CATALOG_EXPIRED') || (e.type === 'gate_decision' && e.decision === 'CATALOG_EXPIRED')) },
  { name: 'stale-plan-refused', description: 'a stale planner (F10) refused STALE_CATALOG', hit: decided('STALE_CATALOG', 'stale') },
  { name: 'undisclosed-refused', description: 'a guessed tool name (F17) refused UNDISCLOSED_TOOL', hit: decided('UNDISCLOSED_TOOL', 'guessed') },
  { name: 'revoked-refused', description: 'a call refused POLICY_REVOKED', hit: decided('POLICY_REVOKED') },
  { name: 'unversioned-write-refused', description: 'a non-READ call on an unversioned source refused without confirmation', hit: decided('UNVERSIONED_WRITE') },
  { name: 'quarantined-tool-refused', description: 'a call to a quarantined tool refused', hit: decided('TOOL_QUARANTINED') },
  { name: 'args-refused', description: 'a call with invalid arguments refused', hit: decided('ARGS_INVALID') },
  { name: 'revocation-while-lease-live', description: 'a revocation while a lease for that tool was live', hit: revocationWhileLeaseLive },
  { name: 'stale-pin-refused-by-server', description: 'a server refused a call for a stale revision pin', hit: (events) => events.some((e) => e.type === 'call_refused_by_server' && e.code === 'STALE_PIN') },
];

/** The names of the probes one round hits. */
export function probesHit(events: readonly TraceEvent[]): string[] {
  return PROBES.filter((probe) => probe.hit(events)).map((probe) => probe.name);
}
