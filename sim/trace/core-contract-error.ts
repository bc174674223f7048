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
  /**
   * For a broken rule of the core API rather than an observation outside the contract: the rule's
   * section in docs/CORE-API.md, e.g. `When a session counts as open`.
   */
  readonly rule?: string;
}

/**
 * Thrown by `runRound` after a round in which the core emitted an observation outside the
 * contract, or broke a rule of the core API; the message is one line:
 * `core "mutant:x" emitted an observation outside catsim.trace.v1: "receipt".leaseId must be a string (round 17, seq 212)`, or
 * `core "./my-core.ts" broke the rule "When a session counts as open" (docs/CORE-API.md): ... (round 0, seq 12)`.
 */
export class CoreContractError extends Error {
  override readonly name = 'CoreContractError';

  constructor(readonly breach: ContractBreach) {
    const what =
      breach.rule === undefined
        ? 'emitted an observation outside catsim.trace.v1'
        : `broke the rule "${breach.rule}" (docs/CORE-API.md)`;
    super(`core ${JSON.stringify(breach.core)} ${what}: ${breach.problem} (round ${breach.round}, seq ${breach.seq})`);
  }
}
