/**
 * One candidate reduction of a round plan, for shrinking (SPEC section 10: "shrinking edits the
 * plan"): a name a person can read in the shrink report, and the smaller plan. Generic reductions
 * (servers, audiences, revision steps, tools, calls) are in reductions.ts; each fault's own are in
 * its file under sim/faults/.
 */
import type { RoundPlan, ServerPlan } from '../plan/types.ts';

/** One named reduction and the plan it yields. */
export interface Reduction {
  name: string;
  plan: RoundPlan;
}

/** One named reduction of a single server (the shrinker puts it back into the plan). */
export interface ServerReduction {
  /** What it does, e.g. `honest cursors` (the shrinker prefixes the server id). */
  name: string;
  server: ServerPlan;
}

/** `plan` with server `index` replaced by `server`. */
export function withServer(plan: RoundPlan, index: number, server: ServerPlan): RoundPlan {
  return { ...plan, servers: plan.servers.map((other, i) => (i === index ? server : other)) };
}
