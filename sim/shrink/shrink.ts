/**
 * Shrinking a failing round (SPEC section 11): greedy delta debugging on the plan. Starting from
 * the failing plan, try each single-step reduction (sim/shrink/reductions.ts) in order; keep the
 * first that still breaks the same invariant, and start over from it; stop when no reduction
 * keeps the failure (a local minimum) or the attempt budget runs out. Every attempt is one
 * deterministic round, so the result is the same on every machine.
 */
import { checkEvents, type Violation } from '../../oracle/index.ts';
import type { CoreFactory } from '../cores/adapter.ts';
import type { RoundPlan } from '../plan/types.ts';
import { runRound, type RoundRun } from '../round.ts';
import { planSize, reductionsOf } from './reductions.ts';

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
  sizeBefore: number;
  sizeAfter: number;
}

/** The violations of one plan on one core. */
export async function violationsOf(plan: RoundPlan, core: CoreFactory, coreName: string): Promise<{ run: RoundRun; violations: Violation[] }> {
  const run = await runRound(plan, core, coreName);
  return { run, violations: checkEvents(run.header, run.events).violations };
}

/**
 * Shrinks `plan`, which must break `invariant` (default: the first violation's), within
 * `attemptsMax` rounds. @throws Error when the plan does not fail at all.
 */
export async function shrinkPlan(plan: RoundPlan, core: CoreFactory, coreName: string, options: { invariant?: string; attemptsMax?: number } = {}): Promise<ShrinkResult> {
  let best = await violationsOf(plan, core, coreName);
  const invariant = options.invariant ?? best.violations[0]?.invariant;
  if (invariant === undefined || !best.violations.some((v) => v.invariant === invariant)) throw new Error(`the plan does not break ${invariant ?? 'any invariant'}`);
  let current = plan;
  const steps: string[] = [];
  let attempts = 0;
  const attemptsMax = options.attemptsMax ?? 400;
  let progressed = true;
  while (progressed && attempts < attemptsMax) {
    progressed = false;
    for (const reduction of reductionsOf(current)) {
      if (attempts >= attemptsMax) break;
      attempts += 1;
      const tried = await violationsOf(reduction.plan, core, coreName);
      if (!tried.violations.some((v) => v.invariant === invariant)) continue;
      current = reduction.plan;
      best = tried;
      steps.push(reduction.name);
      progressed = true;
      break;
    }
  }
  return { invariant, plan: current, run: best.run, violations: best.violations.filter((v) => v.invariant === invariant), steps, attempts, sizeBefore: planSize(plan), sizeAfter: planSize(current) };
}
