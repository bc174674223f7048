/**
 * F8: the policy service revokes tools and grants them back at planned times, and until T_heal
 * loses a share of its pushes (polls are never lost). A core must stop admitting a revoked tool
 * within B (I7), so one that learns of revocations only on its next catalog refresh is caught.
 *
 * Models seed 001 ("an admin revokes write permissions mid-session", "policy revocation") and its
 * gate: revocation propagation p99 under the bound.
 *
 * How often: in a round that enables F8, 1 to 3 revocations at seeded times in [1, T_heal - 202);
 * half of them are granted back 500 to 1,500 ms after B (only before T_heal); a fraction of 0.3,
 * 0.7 or 1 (drawn uniformly) of the pushes before T_heal is lost.
 */
import type { RoundPlan } from '../plan/types.ts';
import { defineFault } from './fault.ts';

/** F8: revocations with lost or late pushes. */
export const F8 = defineFault({
  id: 'F8',
  title: 'policy revocation and grant changes, with lost or late pushes (polls are never lost)',
  lifetime: 'episode',
  presentIn: (plan: RoundPlan) => plan.policy.changes.length > 0 || plan.policy.pushLossFraction > 0,
});
