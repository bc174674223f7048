/**
 * Why the stage refused one model request before dispatch. A rejection refuses only that
 * request: the stage settles it once through the request owner's `preDispatchRejected` and
 * returns it; it deletes nothing else the runtime produced, and the runtime decides whether to
 * continue, recover or end (seed 003, section 5).
 */
import type { CapacityLimit } from './capacity.ts';
import type { SurfaceCheck, SurfaceMismatch } from './surface-mismatch.ts';

/** Where in the stage a capacity was measured: at `prepare` or at `dispatch` (a late capacity). */
export type CapacityStage = 'prepare' | 'dispatch';

/** A rejection, by code. */
export type SurfaceRejection =
  /** A surface check found the request's tools differ from the baseline. */
  | { code: 'SURFACE_MISMATCH'; requestId: string; check: SurfaceCheck; mismatch: SurfaceMismatch }
  /**
   * The baseline does not fit the capacity: `required` tools or bytes against the `available`
   * budget `limit` (tool count first, then bytes).
   */
  | {
      code: 'CAPACITY_EXCEEDED';
      requestId: string;
      stage: CapacityStage;
      limit: CapacityLimit;
      required: number;
      available: number;
    }
  /** Hook number `index` (0-based, in pipeline order), named `hook`, threw or rejected. */
  | { code: 'HOOK_FAILED'; requestId: string; hook: string; index: number };

/** The codes of {@link SurfaceRejection}. */
export type SurfaceRejectionCode = SurfaceRejection['code'];
