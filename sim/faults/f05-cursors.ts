/**
 * F5 (trait): cursors misbehave for the whole round: a repeated cursor, a cycle A -> B -> A, an
 * always-empty-string cursor, never-ending pages, the cursor ignored (page 1 again), or an empty
 * page with a next cursor inserted between real pages (legal: a correct core walks through it).
 * Loops must be quarantined (I13), never followed forever or published.
 *
 * Models seed 001 ("duplicate cursors, cursor loops"); never-ending pages stand for a server whose
 * paging never terminates.
 *
 * How often: on 3 servers in 4 of a round that enables F5, one of the six misbehaviours, drawn
 * uniformly. Every one but the empty page exempts the server from liveness (trait `F5:<kind>`).
 */
import type { RoundPlan } from '../plan/types.ts';
import { defineFault } from './fault.ts';

/** F5: cursor misbehaviour. */
export const F5 = defineFault({
  id: 'F5',
  title: 'cursors: repeated cursor, cycle A→B→A, always-empty-string cursor, never-ending pages, empty page with a next cursor, cursor ignored (page 1 again)',
  lifetime: 'trait',
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.cursorTrait !== null),
});
