/**
 * The sealed dispatch record (seed 003, the third of its three objects): the execution fact of
 * one model request that passed both checks and was handed to the model-call owner. It links the
 * request to its admission facts (generation, snapshot, policy epoch, each tool's descriptor
 * digest) but never stands in for them: no check ever compares a request against a seal.
 */
import type { SurfaceCheck } from './surface-mismatch.ts';

/** One dispatched tool and what admitted it. */
export interface SealedTool {
  readonly name: string;
  /** The descriptor digest in the generation (SPEC section 4); null for a host tool. */
  readonly descriptorDigest: string | null;
}

/** Deep-frozen. */
export interface SealedDispatchRecord {
  readonly requestId: string;
  readonly session: string;
  /** The catalog key, `<identity>|<tenant>.<role>`. */
  readonly key: string;
  readonly generation: number;
  readonly snapshotDigest: string;
  readonly policyEpoch: number;
  /** The dispatched surface, in order. */
  readonly tools: readonly SealedTool[];
  /** The checks the request passed, in the order they ran. */
  readonly checks: readonly SurfaceCheck[];
}
