/**
 * `baseline = project(active generation, grant)`: the public projection (seed 003, section 4).
 */
import type { AdmissionFacts } from './admission-facts.ts';
import type { Baseline } from './baseline.ts';
import { projectFacts } from './internal/projection.ts';

/**
 * Projects admission facts into a deep-frozen {@link Baseline} that shares no object with the
 * facts. Pure: reads `facts` once, keeps nothing. The stage calls it before any hook runs; a host
 * may call it too (to show an operator what a session may see).
 *
 * Order of the surface: the generation's tools whose verdict is `ok` and whose name the grant
 * holds, in snapshot order; then `facts.hostTools` in their given order.
 * @throws TypeError (one line) for contradictory facts: a RETIRED generation, a grant of another
 *   audience than the generation's, a malformed or colliding host tool, an empty session.
 */
export function projectBaseline(facts: AdmissionFacts): Baseline {
  return projectFacts(facts, { freeze: true });
}
