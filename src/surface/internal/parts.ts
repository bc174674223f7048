/**
 * The parts of the tool surface stage, one per defence, and the reference set. The public
 * `ToolSurfaceStage` always uses {@link REFERENCE_PARTS}; nothing in its configuration can change
 * them. Checker-validation mutants (cores/mutants, SPEC section 12) build a
 * `SurfaceStageEngine` from this internal path with exactly one part replaced, to prove that the
 * oracle catches the loss of that defence. Each part's comment names the mutant it serves.
 */
import type { AdmissionFacts } from '../admission-facts.ts';
import type { Baseline } from '../baseline.ts';
import type { SurfaceCapacity } from '../capacity.ts';
import type { RequestOwner } from '../request-ledger.ts';
import type { SurfaceCheck, SurfaceMismatch } from '../surface-mismatch.ts';
import type { SurfaceRejection } from '../surface-rejection.ts';
import type { SurfaceTool } from '../surface-tool.ts';
import { fitWhole, type FitResult } from './capacity-fit.ts';
import { compareSurface } from './compare.ts';
import { copyJson, deepFreeze } from './json-value.ts';
import { projectFacts } from './projection.ts';
import type { WriteTracker } from './write-tracker.ts';

/** The replaceable parts of the stage. */
export interface SurfaceParts {
  /** Facts → baseline. Reference: deep copy, deep freeze. (Mutant: a shallow baseline, unfrozen.) */
  project(facts: AdmissionFacts): Baseline;
  /**
   * One baseline tool → the tool hooks receive (the working copy is made of these; in tracked
   * mode lazily, when a hook first reaches the tool). Reference: a deep copy. (Mutant: a shallow
   * copy sharing schema objects.)
   */
  copyTool(tool: Readonly<SurfaceTool>): SurfaceTool;
  /** Baseline → what goes on, within a capacity. Reference: all or a shortfall. (Mutant: silent top-N.) */
  fit(baseline: Baseline, capacity: SurfaceCapacity): FitResult;
  /** Which checks run. Reference: both. (Mutant: only the early check.) */
  readonly checks: { readonly early: boolean; readonly final: boolean };
  /** What the final check compares against. Reference: the baseline. (Mutant: a seal made from the final request.) */
  finalExpected(baseline: Baseline, actualTools: unknown): readonly Readonly<SurfaceTool>[];
  /**
   * The comparison. Reference: {@link compareSurface}. (Mutant: hooks allowed to add tools.)
   * `issued`: in frozen mode, the deep-frozen copy the request's hooks received (accepted by
   * identity); in tracked mode, the request's write tracker (what it saw unwritten is not read).
   */
  compare(
    expected: readonly Readonly<SurfaceTool>[],
    actualTools: unknown,
    check: SurfaceCheck,
    issued?: readonly Readonly<SurfaceTool>[] | WriteTracker,
  ): SurfaceMismatch | undefined;
  /**
   * What the model receives. Reference: the baseline's frozen surface, which the final check
   * has just proved equal to the request's tools (so no getter, prototype `toJSON` or late
   * in-place edit of the request can change what is sent). Mutants that let a different surface
   * through send {@link requestSurface} instead.
   */
  dispatchedSurface(baseline: Baseline, actualTools: unknown): readonly Readonly<SurfaceTool>[];
  /** Settles a refusal. Reference: exactly one `preDispatchRejected`. (Mutants: no settlement; a double one.) */
  settleRejected(owner: RequestOwner, rejection: SurfaceRejection): void;
}

/** The reference parts: every defence in place. */
export const REFERENCE_PARTS: SurfaceParts = Object.freeze({
  project: (facts: AdmissionFacts) => projectFacts(facts, { freeze: true }),
  copyTool: (tool: Readonly<SurfaceTool>) => copyJson(tool) as SurfaceTool,
  fit: fitWhole,
  checks: Object.freeze({ early: true, final: true }),
  finalExpected: (baseline: Baseline) => baseline.surface,
  compare: compareSurface,
  dispatchedSurface: (baseline: Baseline) => baseline.surface,
  settleRejected: (owner: RequestOwner, rejection: SurfaceRejection) =>
    owner.ledger.preDispatchRejected(owner.reservation, rejection),
});

/**
 * A deep-frozen copy of the request's tools as logical tools (name, description, inputSchema),
 * for mutants that send what the request holds rather than the baseline. Not used by the
 * reference stage.
 */
export function requestSurface(actualTools: unknown): readonly Readonly<SurfaceTool>[] {
  const tools = Array.isArray(actualTools) ? (actualTools as SurfaceTool[]) : [];
  return deepFreeze(
    tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: copyJson(tool.inputSchema) })),
  );
}
