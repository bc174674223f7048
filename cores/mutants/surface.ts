/**
 * The tool surface mutants (SPEC section 12; seed 003): the reference core with one part of its
 * tool surface stage replaced (src/surface/internal/parts.ts), each letting one of seed 003's
 * counter-examples through. Every one must be caught by the surface invariants (I22-I26).
 */
import type { Baseline } from '../../src/surface/baseline.ts';
import { surfaceBytes, type SurfaceCapacity } from '../../src/surface/capacity.ts';
import type { FitResult } from '../../src/surface/internal/capacity-fit.ts';
import { compareSurface } from '../../src/surface/internal/compare.ts';
import { requestSurface, type SurfaceParts } from '../../src/surface/internal/parts.ts';
import { projectFacts } from '../../src/surface/internal/projection.ts';
import type { SurfaceTool } from '../../src/surface/surface-tool.ts';

/** The final check compares the request with a seal made from the request itself (it proves nothing). */
export const SEAL_FROM_FINAL_REQUEST: Partial<SurfaceParts> = {
  finalExpected: (_baseline, actual) => requestSurface(actual),
  dispatchedSurface: (_baseline, actual) => requestSurface(actual),
};

/** The baseline is a shallow copy whose schema objects the working copy shares: an in-place edit changes both sides. */
export const SHALLOW_BASELINE: Partial<SurfaceParts> = {
  project: (facts) => projectFacts(facts, { freeze: false }),
  copyTool: (tool) => ({ ...tool }),
};

/** Only the early check runs: late context, evidence and asynchronous preparation go unchecked. */
export const ONLY_EARLY_CHECK: Partial<SurfaceParts> = {
  checks: { early: true, final: false },
  dispatchedSurface: (_baseline, actual) => requestSurface(actual),
};

/** A refusal only returns: the request owner's ledger never hears of it. */
export const REFUSAL_WITHOUT_SETTLEMENT: Partial<SurfaceParts> = {
  settleRejected: () => undefined,
};

/** A refusal is settled twice (the ledger refuses the second one). */
export const DOUBLE_SETTLEMENT: Partial<SurfaceParts> = {
  settleRejected: (owner, rejection) => {
    owner.ledger.preDispatchRejected(owner.reservation, rejection);
    owner.ledger.preDispatchRejected(owner.reservation, rejection);
  },
};

/** The first tools that fit, in order, instead of CAPACITY_EXCEEDED. */
function topN(baseline: Baseline, capacity: SurfaceCapacity): FitResult {
  let kept = Math.min(baseline.surface.length, capacity.toolCountMax ?? Number.POSITIVE_INFINITY);
  while (
    kept > 0 &&
    capacity.surfaceBytesMax !== undefined &&
    surfaceBytes(baseline.surface.slice(0, kept)) > capacity.surfaceBytesMax
  )
    kept -= 1;
  return {
    ok: true,
    baseline: {
      ...baseline,
      surface: baseline.surface.slice(0, kept),
      descriptorDigests: baseline.descriptorDigests.slice(0, kept),
    },
  };
}

/** A context fitter keeps the top N that fit and says nothing. */
export const SILENT_TOP_N: Partial<SurfaceParts> = {
  project: (facts) => projectFacts(facts, { freeze: false }),
  fit: topN,
};

/** Tools the baseline lacks are ignored by the comparison and dispatched: hooks may add tools. */
export const HOOKS_ADD_TOOLS: Partial<SurfaceParts> = {
  compare: (expected, actual, check) => {
    const names = new Set(expected.map((tool) => tool.name));
    const admitted = Array.isArray(actual) ? (actual as SurfaceTool[]).filter((tool) => names.has(tool?.name)) : actual;
    return compareSurface(expected, admitted, check);
  },
  dispatchedSurface: (_baseline, actual) => requestSurface(actual),
};
