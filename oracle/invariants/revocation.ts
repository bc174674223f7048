/**
 * Revocation, I7 (SPEC sections 7 and 11): no admission of a revoked tool later than B after the
 * revocation, B being the scenario's `revocationBoundMs` (header bounds; a trace without it is not
 * judged here).
 *
 * Ground truth is the world's `policy_changed` events: each names the tools it `revoked` from and
 * `granted` to one audience. For every gate ADMIT, the audience is the one in the decision's
 * catalog key (`<identity>|<tenant>.<role>`) and the tool its `tool` name; the latest change of
 * that (audience, tool) strictly before the decision decides. When it is a revocation at `r` and
 * the decision's `t > r + B`, the core admitted a revoked tool too late (exactly `r + B` is still
 * within the bound). A grant after the revocation, before the decision, makes it held again. A
 * tool the audience was never granted is not I7's question: no revocation starts a bound for it.
 *
 * The propagation delays the report gives for I7 are read from the core's `policy_seen` events, so
 * those must be true to the policy service's record: a core can only see an epoch the service had
 * set for that audience (a `policy_changed` before it), and only by push when a push of that epoch
 * was delivered before it (a lost push reaches nobody). A poll answers with the current epoch,
 * which the first rule covers. These are judged whether or not the trace carries B.
 *
 * Codes: `REVOKED_TOOL_ADMITTED`, anchored at the ADMIT, naming the revoking change, how late the
 * admission was, and the policy epoch the gate says it used; `EPOCH_NOT_SET` and
 * `PUSH_NOT_DELIVERED`, anchored at the `policy_seen`.
 * Work count: ADMIT decisions judged (none when the trace has no bound) plus `policy_seen` events.
 */
import { parseCatalogKey } from '../catalog-key.ts';
import { epochRef } from '../ground-truth.ts';
import { latestBefore } from '../internal/seq-search.ts';
import type { PolicyChangedEvent } from '../trace.ts';
import { decisionLabel } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** One change of whether an audience holds a tool. */
interface HoldingChange {
  readonly seq: number;
  readonly revoked: boolean;
  readonly change: PolicyChangedEvent;
}

/** Per audience, per tool name, its holding changes in trace order. */
type HoldingHistory = Map<string, Map<string, HoldingChange[]>>;

/** Checks I7 over every ADMIT, when the trace carries the bound B. */
export function checkRevocation(context: CheckContext, findings: Findings): void {
  checkPolicySeen(context, findings);
  const boundMs = context.bounds.revocationBoundMs;
  if (boundMs === undefined) return;
  const history = holdingHistory(context.truth.policyChanges);
  for (const decision of context.observed.gateDecisions) {
    if (decision.decision !== 'ADMIT') continue;
    findings.count('I7');
    const { audience } = parseCatalogKey(decision.key);
    const latest = latestBefore(history.get(audience)?.get(decision.tool) ?? [], decision.seq);
    if (latest === null || !latest.revoked) continue;
    const sinceMs = decision.t - latest.change.t;
    if (sinceMs <= boundMs) continue;
    findings.add(
      'I7',
      decision.seq,
      'REVOKED_TOOL_ADMITTED',
      `${decisionLabel(decision)} admits ${JSON.stringify(decision.tool)} for ${audience} at t=${decision.t}, ${sinceMs} ms after policy_changed seq ${latest.seq} (epoch ${latest.change.epoch}) revoked it at t=${latest.change.t}: ${sinceMs - boundMs} ms past the bound of ${boundMs} ms (the gate used policy epoch ${decision.policyEpoch})`,
    );
  }
}

/** Every epoch the core says it saw was set by the policy service, and pushed if it says so. */
function checkPolicySeen(context: CheckContext, findings: Findings): void {
  for (const seen of context.observed.policySeen) {
    findings.count('I7');
    const ref = epochRef(seen.audience, seen.epoch);
    const what = `policy_seen seq ${seen.seq} (${seen.audience} epoch ${seen.epoch} by ${seen.via})`;
    const set = context.truth.epochSetBy.get(ref);
    if (set === undefined || set.seq > seen.seq) {
      findings.add(
        'I7',
        seen.seq,
        'EPOCH_NOT_SET',
        `${what}: the policy service had not set that epoch for ${seen.audience} before it`,
      );
      continue;
    }
    const push = context.truth.deliveredPushOf.get(ref);
    if (seen.via === 'push' && (push === undefined || push.seq > seen.seq)) {
      findings.add('I7', seen.seq, 'PUSH_NOT_DELIVERED', `${what}: no push of that epoch was delivered before it`);
    }
  }
}

/**
 * Indexes every revocation and grant by (audience, tool), in one pass over the policy changes.
 * A name listed both revoked and granted by one change counts as granted (pushed last).
 */
function holdingHistory(changes: readonly PolicyChangedEvent[]): HoldingHistory {
  const history: HoldingHistory = new Map();
  for (const change of changes) {
    let byTool = history.get(change.audience);
    if (byTool === undefined) {
      byTool = new Map();
      history.set(change.audience, byTool);
    }
    for (const name of change.revoked) pushChange(byTool, name, { seq: change.seq, revoked: true, change });
    for (const name of change.granted) pushChange(byTool, name, { seq: change.seq, revoked: false, change });
  }
  return history;
}

function pushChange(byTool: Map<string, HoldingChange[]>, name: string, entry: HoldingChange): void {
  const list = byTool.get(name);
  if (list === undefined) byTool.set(name, [entry]);
  else list.push(entry);
}
