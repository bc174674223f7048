/**
 * Expected-verdict helpers for the oracle's tests, so that a whole `Verdict` can be compared with
 * `toEqual` (a group that silently stopped counting, or a metric that drifted, then fails).
 */
import { noSurfaceMetrics, type RoundMetrics } from '../metrics.ts';
import { INVARIANT_IDS, type InvariantId } from '../violation.ts';

/** A work-count record naming every invariant: the given counts, zero for the others. */
export function checkedCounts(counts: Partial<Record<InvariantId, number>>): Record<InvariantId, number> {
  return Object.fromEntries(INVARIANT_IDS.map((id) => [id, counts[id] ?? 0])) as Record<InvariantId, number>;
}

/** The metrics of a round without gate decisions, revocations, executed calls or probes. */
export const NO_CALL_METRICS: RoundMetrics = {
  decisions: {},
  revocationDelaysMs: [],
  revocationsCensored: 0,
  receipts: { executed: 0, covered: 0 },
  unknownDialectAdmissions: 0,
  probes: { expected: 0, admitted: 0 },
  surface: noSurfaceMetrics(),
};
