/**
 * What every invariant group receives: the indexes built once per trace (`CheckContext`) and the
 * collector it reports into (`Findings`).
 *
 * Workflow: check.ts builds one context and one `Findings` per trace, calls each group's check
 * function in turn, then asks `Findings` for the verdict.
 */
import type { GroundTruth } from '../ground-truth.ts';
import type { TriggerOutcome } from '../internal/rollback-outcome.ts';
import type { Observations } from '../observations.ts';
import type { ResultJudgement } from '../result-checks.ts';
import type { SurfaceTurns } from '../surface-turns.ts';
import type { TraceBounds, TraceHeader } from '../trace.ts';
import { INVARIANT_IDS, sortViolations, type InvariantId, type VerdictId, type Violation } from '../violation.ts';

/** Read-only inputs of one check: header, scenario bounds, ground truth and observations. */
export interface CheckContext {
  readonly header: TraceHeader;
  readonly bounds: TraceBounds;
  readonly truth: GroundTruth;
  readonly observed: Observations;
  /** The round's model turns (SPEC section 8), indexed from world events. */
  readonly surface: SurfaceTurns;
  /** The round's owed rollback triggers (F19) with what answered them (internal/rollback-outcome.ts). */
  readonly rollbacks: readonly TriggerOutcome[];
  /** The round's structured results (F33) with the oracle's verdict on each and the core's outcome (result-checks.ts). */
  readonly results: readonly ResultJudgement[];
  /**
   * Virtual ms at which the round stopped: the `round_end`'s `t`, or the last event's for a
   * truncated trace (0 for no events). What was still pending then is censored there.
   */
  readonly endT: number;
}

/** One invariant group: examines the context and reports into `findings`. */
export type InvariantGroupCheck = (context: CheckContext, findings: Findings) => void;

/** Collects violations and per-invariant work counts for one round. */
export class Findings {
  private readonly violations: Violation[] = [];
  private readonly checked = new Map<InvariantId, number>(INVARIANT_IDS.map((id) => [id, 0]));

  constructor(private readonly round: number) {}

  /** Records one violation anchored at `seq` (null when no single event carries the blame). */
  add(invariant: VerdictId, seq: number | null, code: string, evidence: string): void {
    this.violations.push({ invariant, round: this.round, seq, code, evidence });
  }

  /** Records that `invariant` examined `items` more items (default one: a publish, a scan, a key). */
  count(invariant: InvariantId, items = 1): void {
    this.checked.set(invariant, (this.checked.get(invariant) ?? 0) + items);
  }

  /** The sorted violations and the work counts, as fresh objects the caller may keep. */
  result(): { violations: Violation[]; checked: Record<InvariantId, number> } {
    const checked = Object.fromEntries(this.checked) as Record<InvariantId, number>;
    return { violations: sortViolations(this.violations), checked };
  }
}
