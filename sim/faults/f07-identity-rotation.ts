/**
 * F7: the server's identity (its certificate's key fingerprint) rotates, mid-scan or between
 * scans; half the rotations bring a different catalog (a new deployment behind the new
 * certificate). A core must end a scan whose identity changed and rebuild the catalog under the
 * new identity's key (I12; I4 for a core that keeps serving the old key).
 *
 * Models seed 001 ("Server identity certificate rotation").
 *
 * How often: on 3 servers in 4 of a round that enables F7, 1 or 2 rotations at seeded times in
 * [1, T_heal); each brings a new catalog with probability one half.
 */
import type { RoundPlan } from '../plan/types.ts';
import { defineFault } from './fault.ts';

/** F7: identity rotation. */
export const F7 = defineFault({
  id: 'F7',
  title: 'server identity (certificate) rotation, mid-scan and between scans; some rotations bring a different catalog',
  lifetime: 'episode',
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.rotations.length > 0),
});
