/**
 * A core emitted an observation outside `catsim.trace.v1` (docs/TRACE.md): a testbed or adapter
 * failure (exit 3), not a verdict on the core, because the oracle cannot judge what the contract
 * does not define, and a core must never pass by emitting something the oracle would ignore.
 */

/** Where and how an observation left the contract. */
export interface ContractBreach {
  /** The core's name as given to the campaign, e.g. `mutant:no-final-recheck`. */
  readonly core: string;
  readonly round: number;
  /** The seq the observation would have had in the trace. */
  readonly seq: number;
  /** The contract's sentence, e.g. `"receipt".leaseId must be a string`. */
  readonly problem: string;
}

/**
 * Thrown by `runRound` after a round in which the core emitted an observation outside the
 * contract; the message is one line:
 * `core "mutant:x" emitted an observation outside catsim.trace.v1: "receipt".leaseId must be a string (round 17, seq 212)`.
 */
export class CoreContractError extends Error {
  override readonly name = 'CoreContractError';

  constructor(readonly breach: ContractBreach) {
    super(
      `core ${JSON.stringify(breach.core)} emitted an observation outside catsim.trace.v1: ${breach.problem} (round ${breach.round}, seq ${breach.seq})`,
    );
  }
}
