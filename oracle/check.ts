/**
 * The oracle's entry point (SPEC section 11): judge one round's trace, invariant by invariant.
 *
 * Workflow: build the ground-truth model and the observation indexes once (one pass each, linear
 * in the number of events), run each invariant group over them (each looks things up by map or
 * binary search, never by rescanning the trace), then compute the round's metrics from the same
 * indexes; return the sorted violations with per-invariant work counts and the metrics. Nothing
 * here reads the clock, randomness or global state, and the input is never mutated, so the same
 * events always give the same verdict.
 */
import { buildGroundTruth } from './ground-truth.ts';
import type { CheckContext, InvariantGroupCheck } from './invariants/check-context.ts';
import { Findings } from './invariants/check-context.ts';
import { checkAuthGated } from './invariants/auth-gated.ts';
import { checkCatalogLimits } from './invariants/catalog-limits.ts';
import { checkCompleteness } from './invariants/completeness.ts';
import { checkCoreConduct } from './invariants/core-conduct.ts';
import { checkDefectAdmission } from './invariants/defect-admission.ts';
import { checkDisclosedCalls } from './invariants/disclosed-calls.ts';
import { checkGenerationUse } from './invariants/generation-use.ts';
import { checkHostRestart } from './invariants/host-restart.ts';
import { checkListChanged } from './invariants/list-changed.ts';
import { checkLiveness } from './invariants/liveness.ts';
import { checkPlanDigest } from './invariants/plan-digest.ts';
import { checkPointerHistory } from './invariants/pointer-history.ts';
import { checkReceipts } from './invariants/receipts.ts';
import { checkRevocation } from './invariants/revocation.ts';
import { checkRollback } from './invariants/rollback.ts';
import { triggerOutcomes } from './internal/rollback-outcome.ts';
import { checkScanTermination } from './invariants/scan-termination.ts';
import { checkSurface } from './invariants/surface.ts';
import { checkEmergencyDisable } from './invariants/emergency-disable.ts';
import { checkInvalidCursor } from './invariants/invalid-cursor.ts';
import { checkListenStreams } from './invariants/listen-streams.ts';
import { checkPolling } from './invariants/polling.ts';
import { checkVersions } from './invariants/versions.ts';
import { checkDisguisedChanges } from './invariants/disguised-changes.ts';
import { checkBackups } from './invariants/backups.ts';
import { checkAliases } from './invariants/aliases.ts';
import { checkRemoval } from './invariants/removal.ts';
import { checkDeprecation } from './invariants/deprecation.ts';
import { checkOutputSchema } from './invariants/output-schema.ts';
import { judgeResults } from './result-checks.ts';
import { buildSurfaceTurns } from './surface-turns.ts';
import { checkTenantIsolation } from './invariants/tenant-isolation.ts';
import { checkUnconfirmedWrites } from './invariants/unconfirmed-writes.ts';
import { computeMetrics, type RoundMetrics } from './metrics.ts';
import { buildObservations } from './observations.ts';
import type { Trace, TraceEvent, TraceHeader } from './trace.ts';
import type { InvariantId, Violation } from './violation.ts';

/**
 * The oracle's judgement of one round.
 * - `round`: the header's round number.
 * - `violations`: every violation found, sorted by seq (null last), then invariant number, code,
 *   evidence; empty means the core was right on every invariant checked.
 * - `checked`: per invariant, how many items it examined (I1: ELIGIBLE publishes, I2: publishes,
 *   I3: calls executed by unversioned servers, I4: disclosures, I5: published tools and gate
 *   decisions carrying a planted defect (a DUPLICATE_NAME one only next to a namesake), I6:
 *   executed calls plus receipts plus receipt outcomes, I7: ADMITs (none without a revocation
 *   bound) plus `policy_seen` events, I8: ADMITs, I9: ADMITs plus executed calls, I10: publishes
 *   plus lost compare-and-swaps, I11: disclosures, ADMITs against a published generation, and
 *   rollbacks, I12: (server, audience) session keys of a settled round plus their probes that
 *   must be admitted, I13: scans seen by the world plus scans started by the core plus pages the
 *   core read; I14-I17 of a host restart, see invariants/host-restart.ts; I21, I28, I29 of a
 *   rollback trigger (triggered rollbacks, rollback publishes, owed triggers; invariants/rollback.ts); I27: publishes plus
 *   disclosures plus ADMITs; I22: surfaces the model received, I23: dispatched turns, I24:
 *   reserved turns, I25: turns with a capacity, I26: harmless turns within their capacity; I36:
 *   structured results judged), so a
 *   report can show the oracle did work.
 * - `metrics`: the round's measurements (see metrics.ts), plain JSON.
 */
export interface Verdict {
  readonly round: number;
  readonly violations: Violation[];
  readonly checked: Record<InvariantId, number>;
  readonly metrics: RoundMetrics;
}

/** The invariant groups, run in this order (the order does not affect the sorted verdict). */
const INVARIANT_GROUPS: readonly InvariantGroupCheck[] = [
  checkCompleteness,
  checkUnconfirmedWrites,
  checkTenantIsolation,
  checkDefectAdmission,
  checkReceipts,
  checkRevocation,
  checkPlanDigest,
  checkDisclosedCalls,
  checkPointerHistory,
  checkGenerationUse,
  checkLiveness,
  checkScanTermination,
  checkListChanged,
  checkAuthGated,
  checkCoreConduct,
  checkHostRestart,
  checkCatalogLimits,
  checkRollback,
  checkSurface,
  checkEmergencyDisable,
  checkInvalidCursor,
  checkListenStreams,
  checkPolling,
  checkDeprecation,
  checkVersions,
  checkAliases,
  checkRemoval,
  checkOutputSchema,
  checkDisguisedChanges,
  checkBackups,
];

/**
 * The indexes every invariant group reads, built once from a header and its events (one pass
 * each): the ground truth, the observations, the model turns, the rollback triggers and the
 * round's end. The black-box judge (host-wire.ts) builds its context here too, so both judge
 * with the same indexes.
 */
export function buildCheckContext(header: TraceHeader, events: readonly TraceEvent[]): CheckContext {
  const truth = buildGroundTruth(events);
  const observed = buildObservations(events);
  return {
    header,
    bounds: header.bounds,
    truth,
    observed,
    surface: buildSurfaceTurns(events),
    rollbacks: triggerOutcomes(events),
    results: judgeResults(truth, observed),
    endT: truth.roundEnd?.t ?? events[events.length - 1]?.t ?? 0,
  };
}

/** Judges a parsed trace (see `parseTrace`). Never throws on a trace `parseTrace` accepted. */
export function checkTrace(trace: Trace): Verdict {
  return checkEvents(trace.header, trace.events);
}

/**
 * Judges a round from a header and events handed over in memory, without serialising them. The
 * events must already follow docs/TRACE.md (`seq` = index, shapes as documented): unlike
 * `parseTrace`, this does not validate them: the simulator's recorder already checked every
 * observation at its sink, and its world events are typed by the contract. An event whose `src`
 * does not match its type (possible only through a cast) is not read.
 */
export function checkEvents(header: TraceHeader, events: readonly TraceEvent[]): Verdict {
  const context = buildCheckContext(header, events);
  const findings = new Findings(header.round);
  for (const group of INVARIANT_GROUPS) group(context, findings);
  return { round: header.round, ...findings.result(), metrics: computeMetrics(context) };
}
