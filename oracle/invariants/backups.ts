/**
 * I40, a backup endpoint runs a call only under the contract its run pinned (SPEC section 9; seed
 * 004: "备实现必须通过同版本 contract tests"; issue 30 item 4: "a backup endpoint is used only if it
 * serves the same contract version"). Judged in a round where a server's primary went down while
 * its backup served on (F37's `primary_down`, whose `contract` is the plan's ground truth of what
 * the backup serves for its tool):
 *
 * - every `call_executed` the world wrote for a backup endpoint (`endpoint: 'backup'`: the world's
 *   record of which endpoint really ran the call, with the descriptor the backup lists), joined to
 *   its plan (call-origin.ts, then the world's `plan_made` of the decision's session and planId:
 *   the descriptor its run pinned), must have run exactly that descriptor; a backup that ran
 *   another contract is `BACKUP_CONTRACT_EXECUTED`, anchored at the executed call. A call that
 *   cannot be joined to a decision is I6's to report (a call without a receipt), not judged here.
 *
 * Nothing here reads the core's receipts or its claims about endpoints: what ran where is the
 * world's. A round whose outages were written `unsupported` (a core without `attachBackup`) has no
 * backup execution to judge, and the verdict says NOT JUDGED: backups (oracle/not-judged.ts).
 *
 * Work count: the backup executions judged. A round without `primary_down` is not judged (nothing
 * is counted).
 */
import { planRef } from '../internal/plan-ref.ts';
import type { CallExecutedEvent, PrimaryDownEvent } from '../trace.ts';
import { callLabel, shortHex } from '../violation.ts';
import { callOrigin } from './call-origin.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** I40: no backup endpoint executed a call under another contract than its run pinned. */
export function checkBackups(context: CheckContext, findings: Findings): void {
  const outages = context.truth.primaryDowns;
  if (outages.length === 0) return;
  for (const call of context.truth.callsExecuted) {
    if (call.endpoint !== 'backup') continue;
    findings.count('I40');
    judgeBackupCall(context, call, outages, findings);
  }
}

/** The rule, on one call a backup executed. */
function judgeBackupCall(
  context: CheckContext,
  call: CallExecutedEvent,
  outages: readonly PrimaryDownEvent[],
  findings: Findings,
): void {
  const { decision } = callOrigin(context.observed, call);
  const plan = decision === null ? undefined : context.truth.plans.get(planRef(decision.session, decision.planId));
  if (plan === undefined || call.descriptorDigest === plan.descriptorDigest) return;
  const outage = outages.filter((down) => down.server === call.server && down.seq < call.seq).at(-1);
  const contract =
    outage === undefined
      ? ''
      : ` (the plan's ground truth: ${outage.backupIdentity} serves ${JSON.stringify(outage.tool)} with the ${outage.contract} contract)`;
  findings.add(
    'I40',
    call.seq,
    'BACKUP_CONTRACT_EXECUTED',
    `${callLabel(call)} ran on the backup endpoint under descriptor ${shortHex(call.descriptorDigest ?? '')}, but its run pinned ${shortHex(plan.descriptorDigest)} (plan ${JSON.stringify(plan.planId)} of session ${JSON.stringify(plan.session)}, seq ${plan.seq})${contract}`,
  );
}
