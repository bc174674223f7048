/**
 * I39, a run is never executed against a breaking contract it did not pin, whatever the server
 * claims; nor refused while it is served the contract it pinned (SPEC section 9; seed 004: "diff
 * 分类按规则而不是按 semver"; "Run 固定精确版本 ... 不看到定义漂移"). Judged in a round where a server
 * changed a tool's contract (F36's `contract_changed`: the world's ground truth of what it listed
 * before and after and the change's true class by section 9's rules, never the version the
 * server claimed):
 *
 * - every `call_executed` of such a tool, joined to its plan (call-origin.ts, then the world's
 *   `plan_made` of the decision's session and planId: what the run pinned), whose executed
 *   descriptor is reached from the pinned one through the server's contract changes before it:
 *   when a change on that path is `breaking` and the core's active generation at the call's gate
 *   decision (rebuilt from its publishes, never from the decision's claims) already listed the
 *   executed descriptor, the core knew the contract had changed and executed the run's call
 *   against it all the same (`BREAKING_CONTRACT_EXECUTED`, anchored at the executed call). A call
 *   sent before the core could know (the server changed under it, the core had not listed the new
 *   contract yet) is not the core's to refuse: the server's revision pin, where it checks one, is
 *   the defence there, and such a call is not judged. A `compatible` path is not judged either: an
 *   old call stays valid under a compatible contract (the reference core refuses it all the same,
 *   `STALE_CATALOG`, since a run never sees a definition drift; see the second rule).
 * - every gate refusal for drift (`STALE_CATALOG`, `VERSION_INCOMPATIBLE`) of a call of such a tool
 *   after its first change, whose pinned descriptor is both the one the core's active generation
 *   lists and the one the server lists to the session's audience at the decision: nothing drifted
 *   under that run, so refusing it as incompatible is an over-refusal (`PINNED_CONTRACT_REFUSED`,
 *   anchored at the decision). By the seed a run pinned to the version before a change, even a
 *   compatible one, is refused (it never sees a definition drift) and rebound only in a new run;
 *   what is over-refused is a run that pinned exactly what is served. A refusal while the server's
 *   primary is down and its backup serves the tool under another contract (F37) is no
 *   over-refusal: nothing the core can reach serves the pinned contract (seed 1 round 3811 of the
 *   default).
 *
 * Work count: the executed calls and drift refusals of changed tools judged. A round without
 * `contract_changed` is not judged (nothing is counted).
 */
import { latestBefore } from '../internal/seq-search.ts';
import { planRef } from '../internal/plan-ref.ts';
import { activePublishBefore } from '../observations.ts';
import type { CallExecutedEvent, ContractChangedEvent, GateDecisionEvent } from '../trace.ts';
import { callLabel, decisionLabel, shortHex } from '../violation.ts';
import { callOrigin } from './call-origin.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** The gate's and the registry's codes for a call refused because its pinned contract drifted. */
const DRIFT_REFUSALS: ReadonlySet<string> = new Set(['STALE_CATALOG', 'VERSION_INCOMPATIBLE']);

/** I39: no run executed against a breaking contract it did not pin; none refused while served its own. */
export function checkDisguisedChanges(context: CheckContext, findings: Findings): void {
  const changes = context.truth.contractChanges;
  if (changes.length === 0) return;
  const changed = new Set(changes.map((change) => toolRef(change.server, change.tool)));
  for (const call of context.truth.callsExecuted) {
    if (!changed.has(toolRef(call.server, call.tool))) continue;
    findings.count('I39');
    judgeExecuted(context, call, findings);
  }
  for (const decision of context.observed.gateDecisions) {
    if (!DRIFT_REFUSALS.has(decision.decision)) continue;
    judgeRefusal(context, decision, findings);
  }
}

const toolRef = (server: string, tool: string): string => JSON.stringify([server, tool]);

/** The first rule, on one executed call of a changed tool. */
function judgeExecuted(context: CheckContext, call: CallExecutedEvent, findings: Findings): void {
  const { decision } = callOrigin(context.observed, call);
  const plan = decision === null ? undefined : context.truth.plans.get(planRef(decision.session, decision.planId));
  if (decision === null || plan === undefined || call.descriptorDigest === null) return;
  const served = call.descriptorDigest;
  if (plan.descriptorDigest === served) return;
  const breaking = breakingStep(context.truth.contractChanges, call, plan.descriptorDigest, served);
  if (breaking === null) return;
  const active = activePublishBefore(context.observed, decision.key, decision.seq);
  const listed = active?.tools.some((tool) => tool.name === call.tool && tool.descriptorDigest === served) === true;
  if (!listed) return;
  findings.add(
    'I39',
    call.seq,
    'BREAKING_CONTRACT_EXECUTED',
    `${callLabel(call)} ran descriptor ${shortHex(served)}, but its run pinned ${shortHex(plan.descriptorDigest)} (plan ${JSON.stringify(plan.planId)} of session ${JSON.stringify(plan.session)}, seq ${plan.seq}); the change at seq ${breaking.seq} (${breaking.rule}) is breaking though the server claimed ${breaking.claimFrom} -> ${breaking.claimTo}, and generation ${active?.generation} (seq ${active?.seq}), active at ${decisionLabel(decision)}, already listed ${shortHex(served)}`,
  );
}

/**
 * The first breaking change on a path of the server's contract changes (before the call) from
 * `pinned` to `served`, or null when every path is compatible or none leads there.
 */
function breakingStep(
  changes: readonly ContractChangedEvent[],
  call: CallExecutedEvent,
  pinned: string,
  served: string,
): ContractChangedEvent | null {
  const edges = changes.filter(
    (change) => change.server === call.server && change.tool === call.tool && change.seq < call.seq,
  );
  // Depth first over the changes (a few per tool): undefined when `served` is not reached.
  const visit = (
    from: string,
    seen: ReadonlySet<string>,
    breaking: ContractChangedEvent | null,
  ): ContractChangedEvent | null | undefined => {
    if (from === served) return breaking;
    let reachedCompatible = false;
    for (const edge of edges) {
      if (edge.from !== from || seen.has(edge.to)) continue;
      const step = breaking ?? (edge.change === 'breaking' ? edge : null);
      const reached: ContractChangedEvent | null | undefined = visit(edge.to, new Set([...seen, edge.to]), step);
      if (reached) return reached;
      if (reached === null) reachedCompatible = true;
    }
    return reachedCompatible ? null : undefined;
  };
  return visit(pinned, new Set([pinned]), null) ?? null;
}

/**
 * Whether, at `decision`, the primary of `server` was down (F37: from its `primary_down` until
 * `untilMs`) while its backup served the decided tool under another contract: the only endpoint
 * the core could reach did not serve what the run pinned, so refusing the call as incompatible is
 * what I40 asks, not an over-refusal.
 */
function backupServesOtherContract(context: CheckContext, server: string, decision: GateDecisionEvent): boolean {
  return context.truth.primaryDowns.some(
    (down) =>
      down.server === server &&
      down.tool === decision.tool &&
      down.contract === 'other' &&
      down.seq < decision.seq &&
      decision.t < down.untilMs,
  );
}

/** The second rule, on one drift refusal. */
function judgeRefusal(context: CheckContext, decision: GateDecisionEvent, findings: Findings): void {
  const plan = context.truth.plans.get(planRef(decision.session, decision.planId));
  const disclosure = context.truth.disclosures.find((shown) => shown.session === decision.session);
  if (plan === undefined || disclosure === undefined) return;
  const { server, audience } = disclosure;
  const first = context.truth.contractChanges.find(
    (change) => change.server === server && change.tool === decision.tool,
  );
  if (first === undefined || first.seq > decision.seq) return;
  findings.count('I39');
  const pinned = plan.descriptorDigest;
  const active = activePublishBefore(context.observed, decision.key, decision.seq);
  if (active?.tools.some((tool) => tool.name === decision.tool && tool.descriptorDigest === pinned) !== true) return;
  const revision = latestBefore(context.truth.servers.get(server)?.revisions ?? [], decision.seq);
  const view = revision?.views.get(audience) ?? [];
  if (!view.some((tool) => tool.name === decision.tool && tool.digest === pinned)) return;
  if (backupServesOtherContract(context, server, decision)) return;
  findings.add(
    'I39',
    decision.seq,
    'PINNED_CONTRACT_REFUSED',
    `${decisionLabel(decision)} refuses ${JSON.stringify(decision.tool)} ${decision.decision}, but its run pinned ${shortHex(pinned)} (plan seq ${plan.seq}), which generation ${active.generation} (seq ${active.seq}), active then, lists and server ${server} serves to ${audience} (revision ${revision?.revision}): nothing drifted under that run`,
  );
}
