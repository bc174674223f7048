/**
 * Disclosed calls, I9 (SPEC sections 7 and 11): no call to a tool that was never disclosed to that
 * session (reject-on-novel).
 *
 * Ground truth is the world's `disclosure` events: what each session was shown, by descriptor
 * digest. Judged twice:
 * - every gate ADMIT: its plan's descriptor digest must have been shown to the decision's session
 *   by a disclosure earlier in the trace (the plan is what the session chose; whether the active
 *   generation still has that digest is I8's question);
 * - every `call_executed`: joined to its receipt and gate decision (call-origin.ts), the digest
 *   the receipt binds must have been shown to that session before the call. A call that cannot be
 *   joined to a session (no lease, no receipt, no decision), or whose receipt binds no digest
 *   (I6's violation), is judged against every session of its server and audience: it passes if any disclosure before it, by that server to that
 *   audience, showed its descriptor digest or its tool name (the name the server's true views give a
 *   disclosed digest: never the core's publish, whose names are the core's word, so a core cannot
 *   claim it showed a name it never served; issue 27), since the server executes by name and the world's digest is that of
 *   the server's current descriptor.
 * - every `call_refused_by_server` (issue 27: a call the server refused reached it all the same;
 *   a client with no gate, or whose gate let a never-shown name through, sent it): joined the
 *   same way when it carried a lease whose receipt and decision exist (the digest the receipt
 *   binds must have been shown to the session), else judged by name against every session of its
 *   server and audience (a refusal records no digest: the server may not even have the tool).
 *   A core that emits no gate decisions or receipts is judged all the same: the world saw the call.
 *
 * Codes: `UNDISCLOSED_TOOL_ADMITTED` (anchored at the ADMIT), `UNDISCLOSED_TOOL_EXECUTED`
 * (anchored at the executed call), `UNDISCLOSED_TOOL_SENT` (anchored at the refusal).
 * Work count: ADMIT decisions plus executed calls plus refused calls.
 */
import type { CallExecutedEvent, CallRefusedByServerEvent } from '../trace.ts';
import { callLabel, decisionLabel, shortHex, shortKey } from '../violation.ts';
import { callOrigin } from './call-origin.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** What disclosures showed to all sessions of one (server, audience): first seq per digest and per name. */
interface AudienceShown {
  readonly digests: Map<string, number>;
  readonly names: Map<string, number>;
}

/** Checks I9 over every ADMIT, every executed call and every call a server refused. */
export function checkDisclosedCalls(context: CheckContext, findings: Findings): void {
  for (const decision of context.observed.gateDecisions) {
    if (decision.decision !== 'ADMIT') continue;
    findings.count('I9');
    if (
      shownBefore(context.truth.firstShownToSession.get(decision.session), decision.planDescriptorDigest, decision.seq)
    )
      continue;
    findings.add(
      'I9',
      decision.seq,
      'UNDISCLOSED_TOOL_ADMITTED',
      `${decisionLabel(decision)} admits ${JSON.stringify(decision.tool)} (${shortHex(decision.planDescriptorDigest)}) for key ${shortKey(decision.key)}, but no disclosure before it showed that descriptor to the session`,
    );
  }
  const byAudience = new AudienceIndex(context);
  for (const call of context.truth.callsExecuted) {
    findings.count('I9');
    checkExecuted(context, call, byAudience, findings);
  }
  for (const call of context.truth.callsRefused) {
    findings.count('I9');
    checkRefused(context, call, byAudience, findings);
  }
}

/** One refused call: against its session when its lease joins to one, else by name against its audience. */
function checkRefused(
  context: CheckContext,
  call: CallRefusedByServerEvent,
  byAudience: AudienceIndex,
  findings: Findings,
): void {
  const { receipt, decision, gap } = callOrigin(context.observed, call);
  const digest = receipt?.descriptorDigest;
  const label = refusedLabel(call);
  if (receipt !== null && decision !== null && typeof digest === 'string') {
    if (shownBefore(context.truth.firstShownToSession.get(decision.session), digest, call.seq)) return;
    findings.add(
      'I9',
      call.seq,
      'UNDISCLOSED_TOOL_SENT',
      `${label} for session ${JSON.stringify(decision.session)} (receipt seq ${receipt.seq}, gate decision seq ${decision.seq}) binds descriptor ${shortHex(digest)}, which no disclosure before it showed the session`,
    );
    return;
  }
  if (byAudience.sawName(call.server, call.audience, call.tool, call.seq)) return;
  const why = gap ?? `its receipt seq ${receipt?.seq ?? '?'} binds no descriptor digest`;
  findings.add(
    'I9',
    call.seq,
    'UNDISCLOSED_TOOL_SENT',
    `${label}: ${why}, and no disclosure before it showed ${JSON.stringify(call.tool)} to any session of ${call.server} ${call.audience}`,
  );
}

/** Names a refused call in evidence: `refused call seq 40 (s0 acme.dev refused "x" BAD_LEASE, no lease)`. */
function refusedLabel(call: CallRefusedByServerEvent): string {
  const lease = call.leaseId === null ? 'no lease' : `lease ${JSON.stringify(call.leaseId)}`;
  return `refused call seq ${call.seq} (${call.server} ${call.audience} refused ${JSON.stringify(call.tool)} ${call.code}, ${lease})`;
}

/** One executed call: against its session when it can be joined to one, else against its audience. */
function checkExecuted(
  context: CheckContext,
  call: CallExecutedEvent,
  byAudience: AudienceIndex,
  findings: Findings,
): void {
  const { receipt, decision, gap } = callOrigin(context.observed, call);
  const digest = receipt?.descriptorDigest;
  if (receipt !== null && decision !== null && typeof digest === 'string') {
    if (shownBefore(context.truth.firstShownToSession.get(decision.session), digest, call.seq)) return;
    findings.add(
      'I9',
      call.seq,
      'UNDISCLOSED_TOOL_EXECUTED',
      `${callLabel(call)} for session ${JSON.stringify(decision.session)} (receipt seq ${receipt.seq}, gate decision seq ${decision.seq}) binds descriptor ${shortHex(digest)}, which no disclosure before it showed the session`,
    );
    return;
  }
  if (byAudience.sawTool(call)) return;
  const why = gap ?? `its receipt seq ${receipt?.seq ?? '?'} binds no descriptor digest`;
  const shown = call.descriptorDigest === null ? 'unknown digest' : shortHex(call.descriptorDigest);
  findings.add(
    'I9',
    call.seq,
    'UNDISCLOSED_TOOL_EXECUTED',
    `${callLabel(call)}: ${why}, and no disclosure before it showed ${JSON.stringify(call.tool)} (${shown}) to any session of ${call.server} ${call.audience}`,
  );
}

function shownBefore(firstShown: ReadonlyMap<string, number> | undefined, digest: string, beforeSeq: number): boolean {
  const seq = firstShown?.get(digest);
  return seq !== undefined && seq < beforeSeq;
}

/**
 * What disclosures showed to all sessions of each (server, audience): the first seq per digest and
 * per tool name (named by the server's true views). Built on first use (only when some call has no
 * session), linear in the disclosed tools and the server's views.
 */
class AudienceIndex {
  private shown: Map<string, AudienceShown> | null = null;

  constructor(private readonly context: CheckContext) {}

  /** Whether a disclosure before the call showed its descriptor digest, or its tool name, to the call's audience. */
  sawTool(call: CallExecutedEvent): boolean {
    const shown = this.build().get(audienceRef(call.server, call.audience));
    if (shown === undefined) return false;
    if (call.descriptorDigest !== null && shownBefore(shown.digests, call.descriptorDigest, call.seq)) return true;
    return shownBefore(shown.names, call.tool, call.seq);
  }

  /** Whether a disclosure before `beforeSeq` showed a tool named `tool` to the audience of the server. */
  sawName(server: string, audience: string, tool: string, beforeSeq: number): boolean {
    const shown = this.build().get(audienceRef(server, audience));
    return shown !== undefined && shownBefore(shown.names, tool, beforeSeq);
  }

  private readonly names = new Map<string, Map<string, string>>();

  /** Per descriptor digest, the tool name the server's true views (`revision` events) gave it. */
  private namesOf(serverId: string): ReadonlyMap<string, string> {
    let names = this.names.get(serverId);
    if (names !== undefined) return names;
    names = new Map();
    for (const revision of this.context.truth.servers.get(serverId)?.revisions ?? []) {
      for (const view of revision.views.values())
        for (const tool of view) if (!names.has(tool.digest)) names.set(tool.digest, tool.name);
    }
    this.names.set(serverId, names);
    return names;
  }

  private build(): Map<string, AudienceShown> {
    if (this.shown !== null) return this.shown;
    const byAudience = new Map<string, AudienceShown>();
    for (const disclosure of this.context.truth.disclosures) {
      const ref = audienceRef(disclosure.server, disclosure.audience);
      let shown = byAudience.get(ref);
      if (shown === undefined) {
        shown = { digests: new Map(), names: new Map() };
        byAudience.set(ref, shown);
      }
      const names = this.namesOf(disclosure.server);
      for (const digest of disclosure.tools) {
        if (!shown.digests.has(digest)) shown.digests.set(digest, disclosure.seq);
        // The world's own name for the digest, never the core's publish: a core that publishes
        // nothing still showed names, and one that publishes a false name showed none by it.
        const name = names.get(digest);
        if (name !== undefined && !shown.names.has(name)) shown.names.set(name, disclosure.seq);
      }
    }
    this.shown = byAudience;
    return byAudience;
  }
}

function audienceRef(server: string, audience: string): string {
  return JSON.stringify([server, audience]);
}
