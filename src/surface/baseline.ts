/**
 * The baseline of one model request: the tool surface its admission facts allow, projected
 * before any hook runs, deep-copied from the facts and deep-frozen. Both surface checks compare
 * the request against it, never against anything derived from the request itself (seed 003:
 * "a seal made from the final request only proves the request equals itself").
 *
 * Nothing in a baseline is shared with the registry's objects or with the working copy hooks
 * receive: a hook that edits a schema in place edits only its own copy.
 */
import type { SurfaceTool } from './surface-tool.ts';

/** A deep-frozen baseline (see {@link projectBaseline}). */
export interface Baseline {
  readonly session: string;
  /** The catalog key of the generation, written `<identity>|<tenant>.<role>`. */
  readonly key: string;
  /** The generation's number (SPEC section 1). */
  readonly generation: number;
  readonly snapshotDigest: string;
  /** The policy epoch of the grant the baseline was projected with. */
  readonly policyEpoch: number;
  /**
   * The surface, in order: the generation's admissible granted tools in snapshot order (the
   * order the server listed them, pages in cursor order), then the host's tools in the order
   * the facts list them.
   */
  readonly surface: readonly Readonly<SurfaceTool>[];
  /** `descriptorDigests[i]` binds `surface[i]` to its descriptor in the generation; null for a host tool. */
  readonly descriptorDigests: readonly (string | null)[];
}
