/**
 * Every coverage probe (SPEC section 11), in report order, and the probes one round hits. The
 * fault registry (sim/faults/) names, for each fault, the probes that show its defence was
 * exercised; a test checks that every name there is a probe here and every probe here is named.
 */
import { abaServedInsideWalkProbe } from './aba-served-inside-walk.ts';
import { cursorLoopServedProbe } from './cursor-loop-served.ts';
import { scopeMixedServedProbe } from './scope-mixed-served.ts';
import { scopeMixedRefused } from './scope-mixed-refused.ts';
import { publicVariesServedProbe } from './public-varies-served.ts';
import { listenStreamFaultedProbe } from './listen-stream-faulted.ts';
import { notificationDroppedAtGatewayProbe } from './notification-dropped-at-gateway.ts';
import { changedWithinTtlProbe } from './changed-within-ttl.ts';
import { revocationWhileCallInFlightProbe } from './revocation-while-call-in-flight.ts';
import { asKnownEvent, type KnownEvent, type TraceEvent } from '../trace.ts';
import { abaInsideWalkProbe } from './aba-inside-walk.ts';
import { argsRefused } from './args-refused.ts';
import { casConflictLost } from './cas-conflict-lost.ts';
import { catalogLimitQuarantined } from './catalog-limit-quarantined.ts';
import { cursorInvalidated } from './cursor-invalidated.ts';
import { cursorLoopQuarantined } from './cursor-loop-quarantined.ts';
import { defectQuarantined } from './defect-quarantined.ts';
import { disconnectedMidWalk } from './disconnected-mid-walk.ts';
import { equivocationDetected } from './equivocation-detected.ts';
import { expiredRefused } from './expired-refused.ts';
import { identityRotatedMidWalk } from './identity-rotated-mid-walk.ts';
import { listChangedMidWalk } from './list-changed-mid-walk.ts';
import { pageLimitQuarantined } from './page-limit-quarantined.ts';
import { quarantinedToolRefused } from './quarantined-tool-refused.ts';
import { recheckCaughtChange } from './recheck-caught-change.ts';
import { revocationWhileLeaseLiveProbe } from './revocation-while-lease-live.ts';
import { revisionMovedMidWalk } from './revision-moved-mid-walk.ts';
import { revokedRefused } from './revoked-refused.ts';
import { stalePinRefusedByServer } from './stale-pin-refused-by-server.ts';
import { stalePlanRefused } from './stale-plan-refused.ts';
import { authRefusedIncomplete } from './auth-refused-incomplete.ts';
import { refreshedDuringBurstProbe } from './refreshed-during-burst.ts';
import { SURFACE_PROBES } from './surface.ts';
import { tenantTwinsPublishedProbe } from './tenant-twins-published.ts';
import { undisclosedRefused } from './undisclosed-refused.ts';
import { unversionedPublished } from './unversioned-published.ts';
import { unversionedWriteRefused } from './unversioned-write-refused.ts';
import { rollbackMissingToolDelivered } from './rollback-missing-tool-delivered.ts';
import { rollbackEscalationDelivered } from './rollback-escalation-delivered.ts';
import { rolledBackToFresh } from './rolled-back-to-fresh.ts';
import { rollbackDisabled } from './rollback-disabled.ts';
import { emergencyDisableOrdered } from './emergency-disable-ordered.ts';
import { emergencyDisableCallRefused } from './emergency-disable-call-refused.ts';
import { versionChangedCalled } from './version-changed-called.ts';
import { outputViolationRefused } from './output-violation-refused.ts';
import { deprecationOrdered } from './deprecation-ordered.ts';
import { deprecatedNotBound } from './deprecated-not-bound.ts';
import { aliasFlipped } from './alias-flipped.ts';
import { disguisedBreakListed } from './disguised-break-listed.ts';
import { disguisedBreakRefused } from './disguised-break-refused.ts';
import { backupSameContractUsed } from './backup-same-contract-used.ts';
import { backupOtherContractRefused } from './backup-other-contract-refused.ts';
import { removalWhileReferenced } from './removal-while-referenced.ts';
import { announcedStillBound } from './announced-still-bound.ts';
import type { Probe } from './probe.ts';
import { hostRestartedMidScan } from './host-restarted-mid-scan.ts';
import { hostCrashedInPublish } from './host-crashed-in-publish.ts';
import { hostCrashedAfterCommit } from './host-crashed-after-commit.ts';
import { hostCrashedAfterLease } from './host-crashed-after-lease.ts';
import { hostCrashedCallsInFlight } from './host-crashed-calls-in-flight.ts';

export type { Probe } from './probe.ts';

/** Every probe, in report order. */
export const PROBES: readonly Probe[] = [
  cursorLoopQuarantined,
  pageLimitQuarantined,
  revisionMovedMidWalk,
  recheckCaughtChange,
  listChangedMidWalk,
  cursorInvalidated,
  identityRotatedMidWalk,
  disconnectedMidWalk,
  equivocationDetected,
  abaInsideWalkProbe,
  casConflictLost,
  unversionedPublished,
  defectQuarantined,
  expiredRefused,
  stalePlanRefused,
  undisclosedRefused,
  revokedRefused,
  unversionedWriteRefused,
  quarantinedToolRefused,
  argsRefused,
  revocationWhileLeaseLiveProbe,
  stalePinRefusedByServer,
  tenantTwinsPublishedProbe,
  hostRestartedMidScan,
  hostCrashedInPublish,
  hostCrashedAfterCommit,
  hostCrashedAfterLease,
  hostCrashedCallsInFlight,
  catalogLimitQuarantined,
  refreshedDuringBurstProbe,
  authRefusedIncomplete,
  rollbackMissingToolDelivered,
  rollbackEscalationDelivered,
  rolledBackToFresh,
  rollbackDisabled,
  emergencyDisableOrdered,
  emergencyDisableCallRefused,
  deprecationOrdered,
  deprecatedNotBound,
  aliasFlipped,
  removalWhileReferenced,
  announcedStillBound,
  versionChangedCalled,
  outputViolationRefused,
  disguisedBreakListed,
  disguisedBreakRefused,
  backupSameContractUsed,
  backupOtherContractRefused,
  cursorLoopServedProbe,
  abaServedInsideWalkProbe,
  revocationWhileCallInFlightProbe,
  scopeMixedServedProbe,
  scopeMixedRefused,
  publicVariesServedProbe,
  listenStreamFaultedProbe,
  notificationDroppedAtGatewayProbe,
  changedWithinTtlProbe,
  ...SURFACE_PROBES,
];

/** The names of the probes that read only what the world did (`basis: 'world'`): the probe gate holds every core to them. */
export const WORLD_PROBE_NAMES: readonly string[] = PROBES.filter((probe) => probe.basis === 'world').map(
  (probe) => probe.name,
);

/** The names of the probes one round hits, in report order. Events of unknown types are not read. */
export function probesHit(events: readonly TraceEvent[]): string[] {
  const known = knownEvents(events);
  return PROBES.filter((probe) => probe.hit(known)).map((probe) => probe.name);
}

/**
 * `events` itself when every event is known (as in every trace the simulator writes), so that
 * the indexes kept by array (surface turns, rollback outcomes) are shared with `checkEvents` of
 * the same array; otherwise the known events, in order, in a new array.
 */
function knownEvents(events: readonly TraceEvent[]): readonly KnownEvent[] {
  if (events.every((event) => asKnownEvent(event) !== null)) return events as readonly KnownEvent[];
  const known: KnownEvent[] = [];
  for (const event of events) {
    const narrowed = asKnownEvent(event);
    if (narrowed !== null) known.push(narrowed);
  }
  return known;
}
