/**
 * The plan's fault fields, assembled from the registry's slices (sim/faults/fault.ts `PlanSlice`):
 * what the plan schema (sim/plan/plan-schema.ts) adds to each part of a plan, and the healthy
 * values the generator (sim/plan/generate.ts) starts every plan with. A fault's fields are written
 * down once, in its own file.
 */
import { ALL_FAULTS } from './index.ts';
import type { PlanPart, SliceField } from './fault.ts';

/** The fault fields of `part` of a plan, in registry order (each fault's in its own order). */
export function sliceFields(part: PlanPart): [string, SliceField][] {
  return ALL_FAULTS.flatMap((fault) => Object.entries(fault.plan?.[part] ?? {}));
}

/**
 * The healthy values of the fault fields of `part` that a plan always holds (fresh copies, so a
 * generator may edit them); the optional fields are left out.
 */
export function healthyFields(part: PlanPart): Record<string, unknown> {
  return Object.fromEntries(
    sliceFields(part)
      .filter(([, field]) => 'healthy' in field)
      .map(([name, field]) => [name, structuredClone(field.healthy)]),
  );
}

/** `base` (a part of a plan without its fault fields) completed with the healthy fault fields of `part`, after it. */
export function withHealthy<T>(part: PlanPart, base: Partial<T>): T {
  return { ...base, ...healthyFields(part) } as T;
}
