/**
 * A readable timeline of one trace: one line per event, time first. Every event type of the
 * contract has its line (the compiler checks that none is missing).
 */
import type { TraceEvent, TraceEventOf, TraceEventType } from '../../contract/trace/types.ts';

const short = (value: unknown): string =>
  typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? value.slice(0, 10) : String(value);
const cursor = (value: unknown): string => (value === null || value === undefined ? '∅' : JSON.stringify(value));

const FORMATS: { readonly [T in TraceEventType]: (e: TraceEventOf<T>) => string } = {
  server_up: (e) =>
    `${e.server} up as ${e.identity} (boot ${e.boot}${e.versioned ? '' : ', unversioned'}${e.traits.length > 0 ? `, traits ${e.traits.join(' ')}` : ''})`,
  revision: (e) =>
    `${e.server} now at revision ${e.revision}: ${Object.entries(e.views)
      .map(([a, tools]) => `${a}=[${tools.map((t) => t.name).join(',')}]`)
      .join(' ')}`,
  page_served: (e) =>
    `${e.server} served ${e.audience} ${e.scanId} page ${cursor(e.cursorIn)} → ${cursor(e.cursorOut)} rev ${e.reported ?? '-'} (true ${e.revision}), ${e.tools.length} tools${e.cacheScope === undefined ? '' : `, ttl ${e.ttlMs} ms ${e.cacheScope}`}`,
  page_refused: (e) => `${e.server} refused ${e.audience} ${e.scanId} page ${cursor(e.cursorIn)} with ${e.code}`,
  notification_sent: (e) => `${e.server} sent tools/list_changed to ${e.audience}${e.delivered ? '' : ' (dropped)'}`,
  notification_delivered: (e) => `tools/list_changed from ${e.server} reached the core's client as ${e.audience}`,
  listen_acknowledged: (e) =>
    `${e.server} acknowledged listen ${e.subscriptionId} of ${e.audience}${e.toolsListChanged ? '' : ' (tools not honoured)'}`,
  listen_requested: (e) =>
    `the core's client asked ${e.server} to listen (${e.subscriptionId}) as ${e.audience} on connection ${e.connection}`,
  listen_silenced: (e) => `${e.server} stopped delivering on listen ${e.subscriptionId} of ${e.audience} (not ended)`,
  listen_ended: (e) => `listen ${e.subscriptionId} of ${e.audience} on ${e.server} ended (${e.how})`,
  quiet: () => 'T_heal: faults stop, quiet tail begins',
  round_end: (e) => `round ends ${e.status} (${e.reason})`,
  scan_started: (e) => `${e.scanId} starts on ${e.key} (expects generation ${e.expectedGeneration})`,
  page_read: (e) =>
    `${e.scanId} read${e.recheck ? ' recheck' : ''} page ${cursor(e.cursorIn)} → ${cursor(e.cursorOut)} rev ${e.revision ?? '-'}, ${e.toolCount} tools`,
  scan_ended: (e) =>
    `${e.scanId} ends ${e.state}${e.reason === 'OK' ? '' : ` (${e.reason})`}${e.state === 'QUARANTINED' ? ': its refresh loop stops' : ''}`,
  published: (e) =>
    `publish ${e.key} generation ${e.generation} ${e.status} rev ${e.sourceRevision ?? '-'} from ${e.scanId}: [${e.tools.map((t) => t.name).join(',')}] root ${short(e.pageRoot)}`,
  cas_conflict: (e) =>
    `${e.scanId} lost the CAS on ${e.key} (expected ${e.expectedGeneration}, found ${e.actualGeneration})`,
  server_disabled: (e) => `${e.key} DISABLED: ${e.reason}`,
  session_opened: (e) => `${e.server} session opened for ${e.audience} (identity ${e.identity})`,
  disconnected: (e) => `${e.server} connection of ${e.audience} cut`,
  identity_rotated: (e) => `${e.server} rotated its identity to ${e.identity}`,
  defect_planted: (e) => `${e.server} planted ${e.defect} in tool ${short(e.digest)}`,
  disclosure: (e) => `${e.session} shown generation ${e.generation} of ${e.key} (${e.tools.length} tools)`,
  disclosure_refused: (e) => `${e.session} shown nothing: ${e.code}`,
  model_request: (e) =>
    `model request ${e.n} ${e.method} ${e.path}: ${e.status}, ${e.tools.length} tools, ${e.answer.kind}${e.answer.name === null ? '' : ` ${e.answer.name}`}`,
  effect_policy: (e) => `trusted effect classes for ${Object.keys(e.classes).length} tools`,
  policy_changed: (e) =>
    `policy of ${e.audience} now epoch ${e.epoch}${e.revoked.length > 0 ? `, revoked ${e.revoked.join(',')}` : ''}${e.granted.length > 0 && e.epoch !== 1 ? `, granted ${e.granted.join(',')}` : ''}`,
  rollback_triggered: (e) => `ROLLBACK TRIGGER ${e.kind} for ${e.key} (${e.delivery})`,
  emergency_disabled: (e) => `EMERGENCY DISABLE ${e.server} ${e.tool} (${e.delivery})`,
  deprecation_ordered: (e) => `DEPRECATE ${e.server} ${e.tool} (${e.descriptorDigests.length} versions, ${e.delivery})`,
  alias_ordered: (e) =>
    `ALIAS ${e.action} ${e.server} ${e.tool}${e.release === null ? '' : ` release ${e.release}`}${e.change === null ? '' : ` (${e.change}${e.migration ? ', migration' : ''})`} (${e.delivery})`,
  lifecycle_ordered: (e) =>
    `LIFECYCLE ${e.step} ${e.server} ${e.tool} (${e.descriptorDigests.length} versions, ${e.delivery}${e.answer === null ? '' : `: ${e.answer}${e.code === null ? '' : ` ${e.code}`}`})`,
  primary_down: (e) =>
    `PRIMARY DOWN ${e.server} until ${e.untilMs} ms; backup ${e.backupIdentity} (${e.backupBuild}) serves ${e.tool} with the ${e.contract} contract (${e.backup})`,
  primary_up: (e) => `PRIMARY UP ${e.server}`,
  operator_manifest: (e) => `operator manifest of ${e.server} (tool ids ${e.toolIdPrefix}*)`,
  contract_changed: (e) =>
    `CONTRACT ${e.server} ${e.tool} ${e.from.slice(0, 12)} -> ${e.to.slice(0, 12)}: ${e.change} (${e.rule}), claims ${e.claimFrom} -> ${e.claimTo}`,
  policy_push: (e) => `policy push ${e.audience} epoch ${e.epoch}${e.delivered ? '' : ' (lost)'}`,
  policy_seen: (e) => `core sees ${e.audience} epoch ${e.epoch} by ${e.via}`,
  plan_made: (e) =>
    `${e.session} plans ${e.planId} (${e.kind}) ${e.tool} from generation ${e.generation}${e.expectAdmit === true ? ', must be admitted' : ''}`,
  confirmation: (e) => `${e.session} human confirms ${e.planId}`,
  gate_decision: (e) =>
    `gate ${e.decision} ${e.callId} ${e.tool} (generation ${e.generation ?? '-'}, epoch ${e.policyEpoch})`,
  receipt: (e) =>
    `receipt ${e.leaseId} for ${e.callId} ${e.tool} pin ${e.pin ?? '-'}${e.version === undefined ? '' : ` version ${e.version === null ? '-' : `${e.version.toolId} v${e.version.version}`}`}`,
  receipt_outcome: (e) =>
    `outcome of ${e.leaseId}: ${e.outcome}${e.output === undefined ? '' : ` (output ${e.output})`}`,
  call_sent: (e) => `the core sent ${e.tool || '(no name)'} to ${e.server} for ${e.audience}`,
  call_executed: (e) =>
    `${e.server}${e.endpoint === 'backup' ? "'s backup" : ''} executed ${e.tool} for ${e.audience} (lease ${e.leaseId ?? '-'}, pin ${e.pin ?? '-'}, rev ${e.revision})`,
  result_sent: (e) =>
    `${e.server} answered ${e.tool} for ${e.audience} with structured content ${JSON.stringify(e.structuredContent)} (lease ${e.leaseId ?? '-'})`,
  call_refused_by_server: (e) => `${e.server} refused ${e.tool} for ${e.audience}: ${e.code}`,
  core_failed: (e) => `CORE FAILED in ${e.during} (${e.reason}): ${e.error}`,
  surface_unsupported: (e) => `the core has no tool surface stage: ${e.turns} model turns not run`,
  model_turn: (e) =>
    `${e.session} model turn ${e.requestId} on generation ${e.generation}: hooks [${e.hooks.join(',')}]${e.late === null ? '' : `, late ${e.late}`}${e.capacity === null ? '' : `, ${e.capacity.limit} ${e.capacity.available} (needs ${e.capacity.requiredMin}-${e.capacity.requiredMax})`}, baseline [${e.baseline.map((t) => `${t.name}${t.contested ? '?' : ''}`).join(',')}]`,
  request_surface: (e) => `${e.requestId} after ${e.stage}: [${e.tools.map((t) => t.name).join(',')}]`,
  request_settled: (e) =>
    `${e.requestId} settled ${e.settlement}${e.code === null ? '' : ` ${e.code}`}${e.check === null ? '' : ` ${e.check}`}${e.field === null ? '' : ` ${e.field}`}${e.limit === null ? '' : ` ${e.limit}`}${e.accepted ? '' : ' (refused: already settled)'}`,
  model_received: (e) => `model received ${e.requestId}: [${e.tools.map((t) => t.name).join(',')}]`,
  model_turn_ended: (e) => `${e.requestId} model turn ended`,
  host_crashed: (e) =>
    `HOST CRASHED (boot ${e.boot}, ${e.point})${e.cut === null ? '' : `, cut the publish of ${e.cut.key} generation ${e.cut.generation}`}`,
  host_restarted: (e) =>
    `host restarted (boot ${e.boot}) on ${e.committed.length} committed pointer(s), ${e.receipts.length} call receipt(s)`,
};

/** One line per event: `  t=   123ms #45 world  ...`. */
export function formatTimeline(events: readonly TraceEvent[]): string {
  return events
    .map((event) => {
      const body = (FORMATS[event.type] as (e: TraceEvent) => string)(event);
      return `  t=${String(event.t).padStart(6)}ms #${String(event.seq).padEnd(4)} ${event.src.padEnd(5)} ${body}`;
    })
    .join('\n');
}
