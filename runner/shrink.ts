/**
 * Shrinking a failing round (SPEC section 11): greedy delta debugging on the plan. Starting from
 * the failing plan, try each single-step reduction (sim/shrink/reductions.ts) in order; keep the
 * first that still breaks the same invariant, and start over from it; stop when no reduction
 * keeps the failure (a local minimum) or the attempt budget runs out. Every attempt is one
 * deterministic round, so the result is the same on every machine.
 *
 * Every plan the shrinker runs carries the fault labels of what it still contains (the registry's
 * `faultsPresentIn`), not the labels of the round it came from: a reduction that removes a fault's
 * last trace removes its label too, so a shrunk plan never claims a fault it no longer holds.
 */
import { checkEvents, INVARIANT_IDS, type Violation } from '../oracle/index.ts';
import type { CoreFactory } from '../sim/guard/adapter.ts';
import type { RoundPlan } from '../sim/plan/types.ts';
import { runRound, type RoundRun } from '../sim/round.ts';
import { planSize, reductionsOf } from '../sim/shrink/reductions.ts';
import { faultsPresentIn } from '../sim/faults/index.ts';

/** `plan` labelled with the faults it still contains. */
export function relabelled(plan: RoundPlan): RoundPlan {
  return { ...plan, faults: faultsPresentIn(plan) };
}

/** The outcome of shrinking. */
export interface ShrinkResult {
  /** The invariant the shrunk plan still breaks. */
  invariant: string;
  plan: RoundPlan;
  run: RoundRun;
  violations: Violation[];
  /** The reductions kept, in order. */
  steps: string[];
  attempts: number;
  /** Whether `signal` stopped the shrink before it was done (the plan is the best found so far). */
  interrupted: boolean;
  sizeBefore: number;
  sizeAfter: number;
}

/**
 * What a shrink's round came to: its run and violations, or `abandoned` (the round has no trace:
 * it was stopped past its time limit or died of heap exhaustion), with the `CORE_FAILED` violation
 * that says so.
 */
export type ShrinkAttempt = { run: RoundRun; violations: Violation[] } | { abandoned: Violation };

/** Thrown by {@link shrinkPlan} when the plan's own round is abandoned: there is no trace to shrink. */
export class AbandonedPlanError extends Error {
  /** The `CORE_FAILED TIMED_OUT` or `OUT_OF_MEMORY` violation of the plan's round. */
  readonly violation: Violation;

  constructor(violation: Violation) {
    super(
      `its round was abandoned (${violation.invariant} ${violation.code}: ${violation.evidence}), so it has no trace to shrink`,
    );
    this.violation = violation;
  }
}

/** The violations of one plan on one core. */
export async function violationsOf(
  plan: RoundPlan,
  core: CoreFactory,
  coreName: string,
): Promise<{ run: RoundRun; violations: Violation[] }> {
  const run = await runRound(plan, core, coreName);
  return { run, violations: checkEvents(run.header, run.events).violations };
}

/**
 * Thrown by {@link shrinkPlan} when the plan's round does not break the invariant asked for (or,
 * with none asked for, passes).
 */
export class PlanDoesNotBreakError extends Error {
  override readonly name = 'PlanDoesNotBreakError';

  /**
   * @param invariant the invariant asked for (undefined: any)
   * @param broken the verdict ids the round does break, in the order of their first violation
   */
  constructor(
    readonly invariant: string | undefined,
    readonly broken: readonly string[],
  ) {
    super(
      `the plan does not break ${invariant ?? 'any invariant'}${broken.length === 0 ? '' : ` (it breaks ${broken.join(', ')})`}`,
    );
  }
}

/**
 * Shrinks `plan`, which must break `invariant` (default: the first violation's), within
 * `attemptsMax` rounds; an aborted `signal` stops it between rounds with the smallest plan found
 * so far (`interrupted`). `runPlan` runs each round (the CLI runs them on a worker thread that
 * bounds their time and memory); default {@link violationsOf} in this thread. A reduced plan
 * whose round is abandoned does not keep the failure (it has no trace).
 * @throws AbandonedPlanError when the plan's own round is abandoned; PlanDoesNotBreakError when
 *   it does not break `invariant` (without one: when it does not fail at all).
 */
export async function shrinkPlan(
  plan: RoundPlan,
  core: CoreFactory,
  coreName: string,
  options: {
    invariant?: string;
    attemptsMax?: number;
    signal?: AbortSignal;
    runPlan?: (plan: RoundPlan) => Promise<ShrinkAttempt>;
  } = {},
): Promise<ShrinkResult> {
  const runPlan = options.runPlan ?? ((candidate: RoundPlan) => violationsOf(candidate, core, coreName));
  let current = relabelled(plan);
  const first = await runPlan(current);
  if ('abandoned' in first) throw new AbandonedPlanError(first.abandoned);
  let best = first;
  const invariant = options.invariant ?? best.violations[0]?.invariant;
  if (invariant === undefined || !best.violations.some((v) => v.invariant === invariant))
    throw new PlanDoesNotBreakError(invariant, verdictIdsOf(best.violations));
  const steps: string[] = [];
  let attempts = 0;
  const attemptsMax = options.attemptsMax ?? 400;
  let progressed = true;
  while (progressed && attempts < attemptsMax) {
    progressed = false;
    for (const reduction of reductionsOf(current)) {
      if (attempts >= attemptsMax || options.signal?.aborted === true) break;
      attempts += 1;
      const candidate = relabelled(reduction.plan);
      const tried = await runPlan(candidate);
      if ('abandoned' in tried || !tried.violations.some((v) => v.invariant === invariant)) continue;
      current = candidate;
      best = tried;
      steps.push(reduction.name);
      progressed = true;
      break;
    }
  }
  const interrupted = options.signal?.aborted === true;
  return {
    invariant,
    plan: current,
    run: best.run,
    violations: best.violations.filter((v) => v.invariant === invariant),
    steps,
    attempts,
    interrupted,
    sizeBefore: planSize(plan),
    sizeAfter: planSize(current),
  };
}

/** The verdict ids among `violations`, once each, in report order (I1..I40, then CORE_FAILED). */
function verdictIdsOf(violations: readonly Violation[]): string[] {
  const order = (id: string): number => {
    const index = (INVARIANT_IDS as readonly string[]).indexOf(id);
    return index < 0 ? INVARIANT_IDS.length : index;
  };
  return [...new Set(violations.map((v) => v.invariant as string))].sort((a, b) => order(a) - order(b));
}
