/**
 * A plan is named by its session and its planId together (planIds are counted per session), in
 * `plan_made`, `confirmation` and `gate_decision` alike.
 */

/** One string naming (session, planId), unambiguous whatever characters either part holds. */
export function planRef(session: string, planId: string): string {
  return JSON.stringify([session, planId]);
}
