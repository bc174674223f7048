/**
 * A Mermaid `sequenceDiagram` of one (shrunk) round: the messages between the planner, the core,
 * the servers and the policy service, with revisions and publishes as notes.
 */

type Event = { seq: number; t: number; src: string; type: string; [field: string]: unknown };

const cursor = (value: unknown): string =>
  value === null || value === undefined ? 'none' : JSON.stringify(value).replaceAll('"', "'");

const LINES: Record<string, (e: Event) => string | undefined> = {
  revision: (e) => `Note over ${e.server}: t=${e.t} revision ${e.revision}`,
  page_served: (e) =>
    `${e.server}->>Core: t=${e.t} page ${cursor(e.cursorIn)}→${cursor(e.cursorOut)} rev ${e.reported ?? '-'} (${e.scanId})`,
  page_refused: (e) => `${e.server}-->>Core: t=${e.t} refused ${cursor(e.cursorIn)} (${e.code})`,
  notification_sent: (e) =>
    e.delivered ? `${e.server}-)Core: t=${e.t} list_changed` : `Note over ${e.server}: t=${e.t} list_changed lost`,
  identity_rotated: (e) => `Note over ${e.server}: t=${e.t} identity rotated`,
  disconnected: (e) => `Note over Core,${e.server}: t=${e.t} connection cut`,
  scan_ended: (e) => `Note over Core: t=${e.t} ${e.scanId} ${e.state}${e.reason === 'OK' ? '' : ` ${e.reason}`}`,
  published: (e) => `Note over Core: t=${e.t} publish generation ${e.generation} rev ${e.sourceRevision ?? '-'}`,
  cas_conflict: (e) => `Note over Core: t=${e.t} ${e.scanId} CAS_CONFLICT`,
  policy_changed: (e) => `Note over Policy: t=${e.t} ${e.audience} epoch ${e.epoch}`,
  disclosure: (e) => `Core->>Planner: t=${e.t} shows generation ${e.generation}`,
  plan_made: (e) => `Planner->>Core: t=${e.t} plan ${e.planId} ${e.tool} (${e.kind})`,
  gate_decision: (e) => `Note over Core: t=${e.t} gate ${e.decision} ${e.tool}`,
  call_executed: (e) => `Core->>${e.server}: t=${e.t} executed ${e.tool}`,
  call_refused_by_server: (e) => `${e.server}-->>Core: t=${e.t} refused ${e.tool} ${e.code}`,
};

/** The diagram text; `highlightSeq` marks the violating event. */
export function sequenceDiagram(events: readonly Event[], highlightSeq: number | null): string {
  const servers = [...new Set(events.filter((e) => e.type === 'server_up').map((e) => String(e.server)))];
  const lines = [
    'sequenceDiagram',
    '  participant Planner',
    '  participant Core',
    ...servers.map((s) => `  participant ${s}`),
    '  participant Policy',
  ];
  for (const event of events) {
    const line = LINES[event.type]?.(event);
    if (line !== undefined) lines.push(`  ${line}`);
    if (event.seq === highlightSeq) lines.push(`  Note over Core: ⚠ violation at seq ${event.seq}`);
  }
  return `${lines.join('\n')}\n`;
}
