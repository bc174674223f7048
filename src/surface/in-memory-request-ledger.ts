/**
 * A reference {@link RequestLedger} in memory, for hosts without a ledger of their own, tests and
 * the simulator. It enforces exactly-once settlement and keeps every reservation, in reservation
 * order, with its settlement.
 */
import type { RequestLedger, RequestReservation } from './request-ledger.ts';
import type { SealedDispatchRecord } from './sealed-dispatch-record.ts';
import { SettlementError } from './settlement-error.ts';
import type { SurfaceRejection } from './surface-rejection.ts';

/** How a reservation was closed. */
export type RequestSettlement =
  | { kind: 'dispatched'; record: SealedDispatchRecord }
  | { kind: 'preDispatchRejected'; rejection: SurfaceRejection };

/** One reservation and its settlement (null while open). */
export interface LedgerEntry {
  reservation: RequestReservation;
  settlement: RequestSettlement | null;
}

/** An exactly-once request ledger in memory. */
export class InMemoryRequestLedger implements RequestLedger {
  readonly #entries = new Map<string, LedgerEntry>();

  /**
   * Opens a reservation (frozen).
   * @throws SettlementError `DUPLICATE_RESERVATION` when `requestId` was reserved before.
   */
  reserve(request: { requestId: string; session: string }): RequestReservation {
    if (this.#entries.has(request.requestId))
      throw new SettlementError(
        'DUPLICATE_RESERVATION',
        request.requestId,
        `request ${request.requestId} is already reserved`,
      );
    const reservation = Object.freeze({ requestId: request.requestId, session: request.session });
    this.#entries.set(request.requestId, { reservation, settlement: null });
    return reservation;
  }

  /**
   * Closes `reservation` as dispatched.
   * @throws SettlementError `ALREADY_SETTLED` or `UNKNOWN_RESERVATION`; the ledger is unchanged.
   */
  dispatched(reservation: RequestReservation, record: SealedDispatchRecord): void {
    this.#settle(reservation, { kind: 'dispatched', record });
  }

  /**
   * Closes `reservation` as refused before dispatch.
   * @throws SettlementError `ALREADY_SETTLED` or `UNKNOWN_RESERVATION`; the ledger is unchanged.
   */
  preDispatchRejected(reservation: RequestReservation, rejection: SurfaceRejection): void {
    this.#settle(reservation, { kind: 'preDispatchRejected', rejection });
  }

  /** The entry of a request id, if it was reserved. */
  entry(requestId: string): LedgerEntry | undefined {
    return this.#entries.get(requestId);
  }

  /** Every entry, in reservation order. */
  entries(): LedgerEntry[] {
    return [...this.#entries.values()];
  }

  #settle(reservation: RequestReservation, settlement: RequestSettlement): void {
    const entry = this.#entries.get(reservation.requestId);
    if (entry === undefined || entry.reservation !== reservation) {
      throw new SettlementError(
        'UNKNOWN_RESERVATION',
        reservation.requestId,
        `request ${reservation.requestId}: this ledger made no such reservation`,
      );
    }
    if (entry.settlement !== null) {
      throw new SettlementError(
        'ALREADY_SETTLED',
        reservation.requestId,
        `request ${reservation.requestId} is already settled (${entry.settlement.kind}); a second settlement (${settlement.kind}) is refused`,
      );
    }
    entry.settlement = settlement;
  }
}
