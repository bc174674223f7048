/**
 * Rollback, I21, I28, I29 (F19; seed 001's rollout rule: "if the missing-tool rate rises or one
 * privilege escalation occurs, CAS the active pointer back to the previous still-fresh generation
 * and stop issuing new leases; if the old catalog cannot prove current authorization either,
 * close the server rather than fall back to a stale full set").
 *
 * Ground truth: each `rollback_triggered` the world delivered to the core (a trigger the core
 * could not hear, `unsupported` or `host_down`, asks nothing), the policy changes of the world
 * (`policy_changed`) and the pages the world served each scan (`page_served`, by scanId). A
 * trigger is owed an outcome as oracle/internal/rollback-outcome.ts defines: its key had a
 * publish and was not DISABLED; a host crash before the outcome ends what is owed.
 * - I21, a rollback goes only to a fresh, authorized generation: the generation a triggered
 *   rollback republishes (`rolledBackFrom`) is earlier than the one active at the trigger
 *   (`ROLLBACK_NOT_EARLIER`), unexpired when the rollback is published (`ROLLBACK_TO_EXPIRED`;
 *   `expiresAt` as its own publish wrote it, as I11 reads it), and authorized under the policy
 *   holding at the trigger: no `policy_changed` of the key's audience came after the scan that
 *   discovered it started (its first page request the world answered; the core's `scan_started`
 *   when the world saw none) and up to the trigger (`ROLLBACK_TO_UNAUTHORIZED`). The grants a
 *   scan's content was discovered under are the world's, never the epoch the core recorded.
 * - I28, nothing is leased for the rolled-away generation: after any rollback publish, no
 *   `receipt` and no ADMIT `gate_decision` of the key binds the generation that was active just
 *   before it (`LEASE_FOR_ROLLED_AWAY`).
 * - I29, a delivered trigger is answered, and a DISABLED key serves nothing: every owed trigger is
 *   followed in its window by a rollback or a `server_disabled` of its key (`TRIGGER_IGNORED`);
 *   after a trigger's `server_disabled` and until the key's next publish, no call leaves for it
 *   (`CALL_WHILE_DISABLED`): judged on the world's `call_sent` to the trigger's server and the
 *   key's audience while the server presented the key's identity, then, when the world saw none,
 *   on the core's `receipt`s of the key (disclosures and ADMITs while DISABLED are I11's).
 *
 * Work counts: I21 triggered rollbacks, I28 rollback publishes, I29 owed triggers.
 */
import type { TriggerOutcome } from '../internal/rollback-outcome.ts';
import type { PublishedEvent } from '../trace.ts';
import { rolledBackFromOf } from '../trace.ts';
import { activePublishBefore, publishOfGeneration } from '../observations.ts';
import { publishLabel, shortKey } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** The server identity of a catalog key `<identity>|<tenant>.<role>`. */
function identityOf(key: string): string {
  return key.slice(0, key.lastIndexOf('|'));
}

/** The audience (`tenant.role`) of a catalog key `<identity>|<tenant>.<role>`. */
function audienceOf(key: string): string {
  return key.slice(key.lastIndexOf('|') + 1);
}

/** Checks I21, I28 and I29 over the round's triggers and rollbacks. */
export function checkRollback(context: CheckContext, findings: Findings): void {
  for (const outcome of context.rollbacks) {
    checkAnswered(context, outcome, findings);
    if (outcome.outcome?.type === 'published') checkTarget(context, outcome, outcome.outcome, findings);
  }
  checkRolledAwayLeases(context, findings);
}

/** I21: the republished generation is earlier, unexpired and discovered under the policy holding at the trigger. */
function checkTarget(
  context: CheckContext,
  outcome: TriggerOutcome,
  rollback: PublishedEvent,
  findings: Findings,
): void {
  findings.count('I21');
  const from = rolledBackFromOf(rollback) as number;
  const { trigger, activeAtTrigger } = outcome;
  const what = `${publishLabel(rollback)} answers the ${trigger.kind} trigger at seq ${trigger.seq} by rolling back to generation ${from}`;
  if (from >= activeAtTrigger.generation) {
    findings.add(
      'I21',
      rollback.seq,
      'ROLLBACK_NOT_EARLIER',
      `${what}, not earlier than generation ${activeAtTrigger.generation} active at the trigger`,
    );
    return;
  }
  const source = publishOfGeneration(context.observed, rollback.key, from, rollback.seq);
  if (source === null) return; // I10 judges a rollback to a generation never published.
  if (rollback.t > source.expiresAt) {
    findings.add(
      'I21',
      rollback.seq,
      'ROLLBACK_TO_EXPIRED',
      `${what} at t=${rollback.t}, past its expiresAt ${source.expiresAt} (publish seq ${source.seq})`,
    );
  }
  const startSeq =
    context.truth.scans.get(source.scanId)?.requests[0]?.seq ?? context.observed.scanStarts.get(source.scanId)?.seq;
  if (startSeq === undefined) return;
  const audience = audienceOf(rollback.key);
  const change = context.truth.policyChanges.find(
    (event) => event.audience === audience && event.seq > startSeq && event.seq <= trigger.seq,
  );
  if (change !== undefined) {
    findings.add(
      'I21',
      rollback.seq,
      'ROLLBACK_TO_UNAUTHORIZED',
      `${what}, discovered by scan ${source.scanId} (from seq ${startSeq}) before the policy of ${audience} moved to epoch ${change.epoch} at seq ${change.seq}: it cannot prove the authorization holding at the trigger`,
    );
  }
}

/** I29: an owed trigger is answered; after its DISABLE no call of the key leaves until a publish. */
function checkAnswered(context: CheckContext, outcome: TriggerOutcome, findings: Findings): void {
  const { trigger } = outcome;
  if (outcome.outcome === null && outcome.crashed) return;
  findings.count('I29');
  if (outcome.outcome === null) {
    findings.add(
      'I29',
      trigger.seq,
      'TRIGGER_IGNORED',
      `the ${trigger.kind} trigger for key ${shortKey(trigger.key)} (generation ${outcome.activeAtTrigger.generation} active) was delivered, and the core neither rolled back nor DISABLED the key`,
    );
    return;
  }
  if (outcome.outcome.type !== 'server_disabled') return;
  const disabled = outcome.outcome;
  const nextPublish =
    (context.observed.publishedByKey.get(trigger.key) ?? []).find((publish) => publish.seq > disabled.seq)?.seq ??
    Infinity;
  // The world's side first: a call the link saw leave for the key's server and audience while the
  // server presented the key's identity. A core that writes no receipt for it is judged the same.
  const server = context.truth.servers.get(trigger.server);
  const identity = identityOf(trigger.key);
  const sent = (server?.callsSent.get(audienceOf(trigger.key)) ?? []).find(
    (call) =>
      call.seq > disabled.seq && call.seq < nextPublish && server?.identityBefore(call.seq)?.identity === identity,
  );
  if (sent !== undefined) {
    findings.add(
      'I29',
      sent.seq,
      'CALL_WHILE_DISABLED',
      `a tools/call of ${JSON.stringify(sent.tool)} left for ${trigger.server}/${sent.audience} (key ${shortKey(trigger.key)}) at seq ${sent.seq}, after the key was DISABLED at seq ${disabled.seq} (trigger seq ${trigger.seq}) and before any new publish`,
    );
    return;
  }
  const leaked = context.observed.receipts.find(
    (receipt) => receipt.key === trigger.key && receipt.seq > disabled.seq && receipt.seq < nextPublish,
  );
  if (leaked !== undefined) {
    findings.add(
      'I29',
      leaked.seq,
      'CALL_WHILE_DISABLED',
      `receipt of lease ${leaked.leaseId} for key ${shortKey(trigger.key)} after the key was DISABLED at seq ${disabled.seq} (trigger seq ${trigger.seq}) and before any new publish`,
    );
  }
}

/** I28: after a rollback publish, nothing is admitted or leased against the generation it rolled away. */
function checkRolledAwayLeases(context: CheckContext, findings: Findings): void {
  for (const rollback of context.observed.published) {
    if (rolledBackFromOf(rollback) === null) continue;
    const away = activePublishBefore(context.observed, rollback.key, rollback.seq);
    if (away === null) continue;
    findings.count('I28');
    const receipt = context.observed.receipts.find(
      (event) => event.seq > rollback.seq && event.key === rollback.key && event.generation === away.generation,
    );
    const admit = context.observed.gateDecisions.find(
      (event) =>
        event.seq > rollback.seq &&
        event.key === rollback.key &&
        event.decision === 'ADMIT' &&
        event.generation === away.generation,
    );
    const first = [receipt, admit].filter((event) => event !== undefined).sort((a, b) => a.seq - b.seq)[0];
    if (first === undefined) continue;
    const what = first.type === 'receipt' ? `receipt of lease ${first.leaseId}` : `ADMIT of call ${first.callId}`;
    findings.add(
      'I28',
      first.seq,
      'LEASE_FOR_ROLLED_AWAY',
      `${what} binds generation ${away.generation} of key ${shortKey(rollback.key)}, which the rollback at seq ${rollback.seq} rolled away`,
    );
  }
}
