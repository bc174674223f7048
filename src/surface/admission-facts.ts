/**
 * The admission facts of one model request (seed 003, the first of its three objects): which
 * tools are legal this turn, as decided by their original owners. The tool surface stage only
 * projects them; it keeps no registry, grant or budget of its own.
 *
 * - the catalog's decision: the generation the registry serves the session's catalog key now
 *   (`CatalogHost.serve` / `disclose`), whose tools passed the content checks;
 * - the policy's decision: the grant the session's audience holds at this time (`PolicyState`);
 * - the host's own decision, for tools the host itself provides (a "read tool result" helper,
 *   say): those enter here, admitted by the host's own entry point, never through a hook.
 */
import type { AudienceClass } from '../keys.ts';
import type { GenerationRecord } from '../registry/store.ts';
import type { SurfaceTool } from './surface-tool.ts';

/** The grant of the session's audience at the time of the request. */
export interface SurfaceGrant {
  /** The audience class the grant belongs to; it must be the generation's (tenant, role). */
  audience: AudienceClass;
  /** The policy epoch the grant was read at (SPEC section 1). */
  policyEpoch: number;
  /** The tool names the audience holds at that epoch. */
  tools: readonly string[];
}

/** Everything a baseline is projected from. Read once, at projection; never kept. */
export interface AdmissionFacts {
  /** The session the model request belongs to. */
  session: string;
  /** The active generation of the session's catalog key, as the registry serves it now (not RETIRED). */
  generation: GenerationRecord;
  /** The session audience's grant now. */
  grant: SurfaceGrant;
  /**
   * Tools the host itself admits for this request, in the order to show them, after the
   * catalog's. Their names must follow the protocol's tool-name rule and differ, also after
   * normalisation (case, `-`/`_`), from every tool of the generation and from each other.
   */
  hostTools?: readonly SurfaceTool[];
}
