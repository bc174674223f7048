/**
 * The request ledger: a port owned by the runtime that makes model requests (its Main or Child
 * request owner), never by the tool surface stage. The runtime reserves a request before it
 * prepares it; the stage closes the reservation exactly once: `dispatched` when the request
 * passed both checks and goes to the model, `preDispatchRejected` when it was refused and was
 * certainly not dispatched (seed 003, section 5). The stage creates no second ledger and no
 * receipt of its own.
 *
 * Order of calls: `reserve` (runtime) → the stage's `prepare` → the stage's `dispatch`; exactly
 * one of `dispatched` / `preDispatchRejected` per reservation.
 */
import type { SealedDispatchRecord } from './sealed-dispatch-record.ts';
import type { SurfaceRejection } from './surface-rejection.ts';

/** The identity of one model request the runtime reserved. */
export interface RequestReservation {
  readonly requestId: string;
  readonly session: string;
}

/**
 * The port. Implementations must make settlement exactly-once: a second settlement of a
 * reservation (of either kind), or a settlement of a reservation the ledger did not make, throws
 * (a {@link SettlementError} in the reference ledger), and the stage lets that error reach its
 * caller. All methods are synchronous, so a settlement is one atomic step.
 */
export interface RequestLedger {
  /** Opens a reservation for a model request about to be prepared. */
  reserve(request: { requestId: string; session: string }): RequestReservation;
  /** Closes a reservation: the request passed both checks and is handed to the model now. */
  dispatched(reservation: RequestReservation, record: SealedDispatchRecord): void;
  /** Closes a reservation: the request was refused before dispatch and was certainly not sent. */
  preDispatchRejected(reservation: RequestReservation, rejection: SurfaceRejection): void;
}

/** The request's owner, as a request carries it into the stage: its ledger and its reservation. */
export interface RequestOwner {
  ledger: RequestLedger;
  reservation: RequestReservation;
}
