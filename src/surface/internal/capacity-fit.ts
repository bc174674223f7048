/**
 * Fitting a baseline into a capacity: the reference never cuts. A baseline that does not fit is
 * a shortfall (the first budget broken, tool count before bytes), which the stage turns into an
 * explicit `CAPACITY_EXCEEDED` rejection.
 */
import type { Baseline } from '../baseline.ts';
import { surfaceBytes, type CapacityLimit, type SurfaceCapacity } from '../capacity.ts';

/** The baseline to go on with, or the budget it breaks. */
export type FitResult =
  | { ok: true; baseline: Baseline }
  | { ok: false; limit: CapacityLimit; required: number; available: number };

/**
 * Checks a capacity's shape.
 * @throws TypeError (one line) when a budget is present and not a non-negative safe integer.
 */
export function checkCapacity(capacity: SurfaceCapacity): void {
  for (const limit of ['toolCountMax', 'surfaceBytesMax'] as const) {
    const value = capacity[limit];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0))
      throw new TypeError(`surface capacity: ${limit} must be a non-negative integer, got ${String(value)}`);
  }
}

/** The reference fit: the whole baseline, or the first budget it breaks. Bytes are measured only against a byte budget. */
export function fitWhole(baseline: Baseline, capacity: SurfaceCapacity): FitResult {
  const count = baseline.surface.length;
  if (capacity.toolCountMax !== undefined && count > capacity.toolCountMax)
    return { ok: false, limit: 'toolCountMax', required: count, available: capacity.toolCountMax };
  if (capacity.surfaceBytesMax === undefined) return { ok: true, baseline };
  const bytes = surfaceBytes(baseline.surface);
  return bytes > capacity.surfaceBytesMax
    ? { ok: false, limit: 'surfaceBytesMax', required: bytes, available: capacity.surfaceBytesMax }
    : { ok: true, baseline };
}
