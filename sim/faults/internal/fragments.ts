/** Helpers for the faults' `fragment` functions (what the independence test compares). */
import type { RoundPlan, ServerPlan } from '../../plan/types.ts';

/** `part(server)` for every server of the plan, by server id. */
export function perServer(plan: RoundPlan, part: (server: ServerPlan) => unknown): Record<string, unknown> {
  return Object.fromEntries(plan.servers.map((server) => [server.id, part(server)]));
}

/** The times of the revision steps `cause` planted, by server id. */
export function stepTimes(plan: RoundPlan, cause: string): Record<string, unknown> {
  return perServer(plan, (server) => server.history.filter((step) => step.cause === cause).map((step) => step.atMs));
}
