/**
 * The catalogue of deliberately broken cores (SPEC section 12). The oracle must catch each one;
 * `catsim run --core mutant:NAME` runs a campaign on it.
 */
import type { CoreFactory } from '../cores/adapter.ts';
import { referenceCore } from '../cores/reference.ts';
import { KeyWithoutTenantRegistry } from './registries.ts';
import { FirstPageOnlyWalk, NoCursorLoopDetectionWalk, NoFinalRecheckWalk } from './walks.ts';

/** One mutant: its name, the defence it lacks, and how to build it. */
export interface Mutant {
  name: string;
  removedDefence: string;
  core: CoreFactory;
}

/** Every mutant, by name. */
export const MUTANTS: readonly Mutant[] = [
  { name: 'no-final-recheck', removedDefence: 'the final recheck of page 1 before SNAPSHOT_PROVEN', core: referenceCore({ walk: NoFinalRecheckWalk }) },
  { name: 'first-page-only', removedDefence: 'following nextCursor past page 1', core: referenceCore({ walk: FirstPageOnlyWalk }) },
  { name: 'no-cursor-loop-detection', removedDefence: 'quarantine of a cursor requested twice', core: referenceCore({ walk: NoCursorLoopDetectionWalk }) },
  { name: 'key-without-tenant', removedDefence: 'the tenant in the catalog key (keyed by identity and role)', core: referenceCore({ registry: KeyWithoutTenantRegistry }) },
];
