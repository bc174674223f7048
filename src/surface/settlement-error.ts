/**
 * The error a request ledger raises when exactly-once settlement would break.
 */

/** Why a ledger refused a reservation or a settlement. */
export type SettlementErrorCode = 'ALREADY_SETTLED' | 'UNKNOWN_RESERVATION' | 'DUPLICATE_RESERVATION';

/**
 * Raised (thrown) by {@link InMemoryRequestLedger}, and passed through unchanged by the stage:
 * `ALREADY_SETTLED` for a second settlement, `UNKNOWN_RESERVATION` for a reservation the ledger
 * did not make, `DUPLICATE_RESERVATION` for a second reservation of one request id.
 */
export class SettlementError extends Error {
  override readonly name = 'SettlementError';

  constructor(
    readonly code: SettlementErrorCode,
    readonly requestId: string,
    message: string,
  ) {
    super(message);
  }
}
