/**
 * The campaign's measurements of one round (SPEC sections 7 and 11), reported next to the
 * violations: what the gate decided, how fast revocations reached the core, how many executed
 * calls had their receipt, how often a planted UNKNOWN_DIALECT tool was admitted, and how many of
 * the probes a correct core must admit were admitted. Plain JSON, the same for the same trace.
 */
import { admittedTool } from './observations.ts';
import { planRef } from './internal/plan-ref.ts';
import type { CheckContext } from './invariants/check-context.ts';
import { receiptProblem } from './invariants/receipts.ts';
import { uncheckedResults } from './invariants/output-schema.ts';
import { unversionedReceipts } from './invariants/versions.ts';
import { revocationDelays } from './revocation-delays.ts';

/**
 * One round's metrics.
 * - `decisions`: gate decisions by decision (`ADMIT` or a refusal code), keys in code-unit order.
 * - `revocationDelaysMs`: the propagation delay of every revoking policy change, ascending (see
 *   revocation-delays.ts; censored ones included, at their lower bound). Summarise with
 *   `percentile`.
 * - `revocationsCensored`: how many of those the core never saw by the end of the round.
 * - `receipts`: calls the servers executed, and how many of them had exactly one receipt binding
 *   generation, descriptor digest and policy epoch (I6).
 * - `unknownDialectAdmissions`: ADMITs of a tool whose descriptor digest (in the generation
 *   active at the decision) was planted with UNKNOWN_DIALECT (each is also an I5 violation).
 * - `probes`: the probes ground truth says must be admitted, and how many got an ADMIT (same
 *   session and planId); counted in every round, settled or not.
 * - `surface`: the round's model turns (SPEC section 8; see {@link SurfaceMetrics}).
 * - `rollbackTriggers` (only in a round with F19 triggers): the triggers by what became of them:
 *   `unsupported` (the core has no `rollback`: not judged), `host_down`, and for delivered ones
 *   `rolled back`, `DISABLED`, `ignored` (an I29 violation), `crashed` (a host crash came first)
 *   or `nothing owed` (no live publish of the key).
 */
export interface RoundMetrics {
  readonly decisions: Record<string, number>;
  readonly revocationDelaysMs: number[];
  readonly revocationsCensored: number;
  readonly receipts: { readonly executed: number; readonly covered: number };
  readonly unknownDialectAdmissions: number;
  readonly probes: { readonly expected: number; readonly admitted: number };
  readonly surface: SurfaceMetrics;
  readonly rollbackTriggers?: Record<string, number>;
  /** F26's emergency disables by delivery (`delivered`, `unsupported`, `host_down`); only in a round with any. */
  readonly emergencyDisables?: Record<string, number>;
  /**
   * F33's structured results (only in a round with any): `sent` by the servers, `violating` their
   * schema (the oracle's own validation), and `unchecked`: results whose outcome the core wrote
   * without `output` (it does not check results: not judged by I36). Unlike the other metrics,
   * `unchecked` reads what the core left out of its outcomes: leaving it out makes the round
   * NOT JUDGED on `results`, never a pass.
   */
  readonly results?: { readonly sent: number; readonly violating: number; readonly unchecked: number };
  /**
   * Receipts of calls to a server the operator described (F32) in a round where the core named no
   * version in any receipt, so I35 judged none of them; only in a round with any. Like `results`'
   * `unchecked`, it reads what the core left out: leaving versions out makes the round NOT JUDGED
   * on `versions`, never a pass.
   */
  readonly unversionedReceipts?: number;
  /** F31's deprecation orders by delivery (`delivered`, `unsupported`, `host_down`); only in a round with any. */
  readonly deprecationOrders?: Record<string, number>;
  /** F34's alias orders by delivery (`delivered`, `unsupported`, `host_down`); only in a round with any. */
  readonly aliasOrders?: Record<string, number>;
  /** F35's lifecycle orders by delivery (`delivered`, `unsupported`, `host_down`); only in a round with any. */
  readonly lifecycleOrders?: Record<string, number>;
  /** F37's outages of a primary by whether the core was handed the backup (`offered`, `unsupported`); only in a round with any. */
  readonly backupOutages?: Record<string, number>;
}

/**
 * The model turns of a round (F22), from the world's events only:
 * - `turns`: requests reserved; `dispatched`: those the model received;
 * - `refused`: first settlements `preDispatchRejected`, by `CHECK FIELD` for SURFACE_MISMATCH
 *   (`early count`, `final description`, ...), `CAPACITY_EXCEEDED LIMIT`, or the code;
 * - `settledOnce`, `settledTwice` (two or more attempts), `unsettled` (none);
 * - `capacityShort` (a capacity below what the uncontested baseline needs) and how many of those
 *   ended CAPACITY_EXCEEDED; `capacityFits` (holding the whole baseline) and how many of those the
 *   model received;
 * - `unsupportedTurns`: turns planned for a core without a surface stage (none was run).
 */
export interface SurfaceMetrics {
  turns: number;
  dispatched: number;
  refused: Record<string, number>;
  settledOnce: number;
  settledTwice: number;
  unsettled: number;
  capacityShort: number;
  capacityExceeded: number;
  capacityFits: number;
  capacityFitsDispatched: number;
  unsupportedTurns: number;
}

/** Computes the metrics from the indexes a check already built (linear in the events). */
export function computeMetrics(context: CheckContext): RoundMetrics {
  const delays = revocationDelays(context.truth.policyChanges, context.observed, context.endT);
  const calls = context.truth.callsExecuted;
  return {
    decisions: decisionCounts(context),
    revocationDelaysMs: delays.map((delay) => delay.delayMs).sort((a, b) => a - b),
    revocationsCensored: delays.filter((delay) => delay.censored).length,
    receipts: {
      executed: calls.length,
      covered: calls.filter((call) => receiptProblem(context.observed, call) === null).length,
    },
    unknownDialectAdmissions: unknownDialectAdmissions(context),
    probes: probeCounts(context),
    surface: surfaceMetrics(context),
    ...rollbackTriggerCounts(context),
    ...emergencyDisableCounts(context),
    ...resultCounts(context),
    ...unversionedReceiptCount(context),
    ...deprecationOrderCounts(context),
    ...aliasOrderCounts(context),
    ...lifecycleOrderCounts(context),
    ...backupOutageCounts(context),
  };
}

/** The round's structured results (F33); nothing for a round without any. */
function resultCounts(context: CheckContext): { results?: RoundMetrics['results'] } {
  if (context.results.length === 0) return {};
  const violating = context.results.filter(({ errors }) => errors !== null && errors.length > 0).length;
  return { results: { sent: context.results.length, violating, unchecked: uncheckedResults(context) } };
}

/** The receipts I35 could not judge for want of versions; nothing for a round without any. */
function unversionedReceiptCount(context: CheckContext): { unversionedReceipts?: number } {
  const count = unversionedReceipts(context);
  return count === 0 ? {} : { unversionedReceipts: count };
}

/**
 * How many of `items` have each value of `key`, or nothing when there are none: the round's orders
 * by delivery (F26 emergency disables, F31 deprecations, F34 alias orders, F35 lifecycle orders),
 * its F37 outages by whether the core was handed the backup.
 */
function tally<T>(items: readonly T[], key: (item: T) => string): Record<string, number> | undefined {
  if (items.length === 0) return undefined;
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** The round's deprecation orders (F31) by delivery; nothing for a round without any. */
function deprecationOrderCounts(context: CheckContext): { deprecationOrders?: Record<string, number> } {
  const counts = tally(context.truth.deprecations, (order) => order.delivery);
  return counts === undefined ? {} : { deprecationOrders: counts };
}

/** The round's alias orders (F34) by delivery; nothing for a round without any. */
function aliasOrderCounts(context: CheckContext): { aliasOrders?: Record<string, number> } {
  const counts = tally(context.truth.aliasOrders, (order) => order.delivery);
  return counts === undefined ? {} : { aliasOrders: counts };
}

/** The round's outages of a primary (F37) by whether the core was handed the backup; nothing for a round without any. */
function backupOutageCounts(context: CheckContext): { backupOutages?: Record<string, number> } {
  const counts = tally(context.truth.primaryDowns, (outage) => outage.backup);
  return counts === undefined ? {} : { backupOutages: counts };
}

/** The round's lifecycle orders (F35) by delivery; nothing for a round without any. */
function lifecycleOrderCounts(context: CheckContext): { lifecycleOrders?: Record<string, number> } {
  const counts = tally(context.truth.lifecycleOrders, (order) => order.delivery);
  return counts === undefined ? {} : { lifecycleOrders: counts };
}

/** The round's emergency disables (F26) by delivery; nothing for a round without any. */
function emergencyDisableCounts(context: CheckContext): { emergencyDisables?: Record<string, number> } {
  const counts = tally(context.truth.emergencyDisables, (order) => order.delivery);
  return counts === undefined ? {} : { emergencyDisables: counts };
}

/** What became of the round's rollback triggers (F19); nothing for a round without any. */
function rollbackTriggerCounts(context: CheckContext): { rollbackTriggers?: Record<string, number> } {
  const triggers = context.truth.rollbackTriggers;
  if (triggers.length === 0) return {};
  const counts: Record<string, number> = {};
  const owed = new Map(context.rollbacks.map((outcome) => [outcome.trigger.seq, outcome]));
  for (const trigger of triggers) {
    const outcome = owed.get(trigger.seq);
    const label =
      trigger.delivery !== 'delivered'
        ? trigger.delivery
        : outcome === undefined
          ? 'nothing owed'
          : outcome.outcome?.type === 'published'
            ? 'rolled back'
            : outcome.outcome?.type === 'server_disabled'
              ? 'DISABLED'
              : outcome.crashed
                ? 'crashed'
                : 'ignored';
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return { rollbackTriggers: counts };
}

/** Empty surface metrics (a round without model turns). */
export function noSurfaceMetrics(): SurfaceMetrics {
  return {
    turns: 0,
    dispatched: 0,
    refused: {},
    settledOnce: 0,
    settledTwice: 0,
    unsettled: 0,
    capacityShort: 0,
    capacityExceeded: 0,
    capacityFits: 0,
    capacityFitsDispatched: 0,
    unsupportedTurns: 0,
  };
}

function surfaceMetrics(context: CheckContext): SurfaceMetrics {
  const metrics = noSurfaceMetrics();
  metrics.unsupportedTurns = context.surface.unsupported?.turns ?? 0;
  for (const { turn, settlements, received } of context.surface.turns) {
    metrics.turns += 1;
    if (received.length > 0) metrics.dispatched += 1;
    if (settlements.length === 0) metrics.unsettled += 1;
    else if (settlements.length === 1) metrics.settledOnce += 1;
    else metrics.settledTwice += 1;
    const first = settlements[0];
    if (first?.settlement === 'preDispatchRejected') {
      const key =
        first.code === 'SURFACE_MISMATCH'
          ? `${first.check ?? '?'} ${first.field ?? '?'}`
          : first.code === 'CAPACITY_EXCEEDED'
            ? `CAPACITY_EXCEEDED ${first.limit ?? '?'}`
            : (first.code ?? '(outside the core API)');
      metrics.refused[key] = (metrics.refused[key] ?? 0) + 1;
    }
    const { capacity } = turn;
    if (capacity === null) continue;
    if (capacity.requiredMin > capacity.available) {
      metrics.capacityShort += 1;
      if (first?.code === 'CAPACITY_EXCEEDED') metrics.capacityExceeded += 1;
    } else if (capacity.requiredMax <= capacity.available) {
      metrics.capacityFits += 1;
      if (received.length > 0) metrics.capacityFitsDispatched += 1;
    }
  }
  metrics.refused = Object.fromEntries(
    Object.entries(metrics.refused).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return metrics;
}

function decisionCounts(context: CheckContext): Record<string, number> {
  const counts = new Map<string, number>();
  for (const decision of context.observed.gateDecisions)
    counts.set(decision.decision, (counts.get(decision.decision) ?? 0) + 1);
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function unknownDialectAdmissions(context: CheckContext): number {
  let count = 0;
  for (const decision of context.observed.gateDecisions) {
    if (decision.decision !== 'ADMIT') continue;
    const digest = admittedTool(context.observed, decision).descriptorDigest;
    if (context.truth.defects.get(digest)?.defect === 'UNKNOWN_DIALECT') count += 1;
  }
  return count;
}

function probeCounts(context: CheckContext): { expected: number; admitted: number } {
  let expected = 0;
  let admitted = 0;
  for (const probes of context.truth.expectedProbesByKey.values()) {
    for (const probe of probes) {
      expected += 1;
      const decisions = context.observed.decisionsByPlan.get(planRef(probe.session, probe.planId)) ?? [];
      if (decisions.some((decision) => decision.decision === 'ADMIT')) admitted += 1;
    }
  }
  return { expected, admitted };
}
