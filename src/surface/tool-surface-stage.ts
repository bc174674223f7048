/**
 * The tool surface stage of a host (seed 003; SPEC section 8): what the model is shown each turn
 * equals what the original owners admitted, checked early and at dispatch, refusals settled.
 *
 * Order of calls, per model request:
 * 1. the runtime reserves the request in its own ledger: `reservation = ledger.reserve(...)`;
 * 2. the host reads the admission facts (the generation the registry serves the session's key,
 *    the audience's grant now; see `admissionFacts`);
 * 3. `await stage.prepare({owner: {ledger, reservation}, facts, context, capacity})`: projection,
 *    capacity, hooks, early check;
 * 4. the host's late stages edit the returned request (late context, evidence, asynchronous
 *    preparation);
 * 5. `await stage.dispatch(preparation, request, send)`: final check, seal, `dispatched`, `send`.
 * Each refusal (steps 3 and 5) is settled once as `preDispatchRejected` and returned.
 *
 * The stage holds its hooks and nothing else: no registry, grant, budget or ledger of its own,
 * no clock, no randomness, no timers, no I/O. One stage serves any number of sessions and
 * requests, concurrently.
 */
import type { AdmissionFacts } from './admission-facts.ts';
import type { SurfaceCapacity } from './capacity.ts';
import { SurfaceStageEngine } from './internal/engine.ts';
import { REFERENCE_PARTS } from './internal/parts.ts';
import type { SurfacePreparation } from './internal/preparation.ts';
import type { DispatchedRequest, ModelRequest } from './model-request.ts';
import type { RequestOwner } from './request-ledger.ts';
import type { SealedDispatchRecord } from './sealed-dispatch-record.ts';
import type { SurfaceHook } from './surface-hook.ts';
import type { SurfaceRejection } from './surface-rejection.ts';

/** The configuration: the hook pipeline, in order (default: none). */
export interface ToolSurfaceStageConfig<C = unknown> {
  hooks?: readonly SurfaceHook<C>[];
}

/** One request to prepare. */
export interface PrepareInput<C = unknown> {
  /** The request's owner: the runtime's ledger and the reservation it made there. */
  owner: RequestOwner;
  /** The admission facts, read now; `facts.session` must be the reservation's session. */
  facts: AdmissionFacts;
  /** The host's own request content (messages, evidence, ...), passed to hooks and to `send`. */
  context: C;
  /** The capacity for tools; absent: unlimited. */
  capacity?: SurfaceCapacity;
}

/** What `prepare` returns: the request to go on preparing and its token, or the settled refusal. */
export type PrepareResult<C = unknown> =
  | { ok: true; request: ModelRequest<C>; preparation: SurfacePreparation }
  | { ok: false; rejection: SurfaceRejection };

/**
 * The model-call owner, as a port: receives the checked request and its seal, serializes it for
 * its provider (that serialization is its own) and sends it. Its result is returned by `dispatch`.
 */
export type ModelCall<C, R> = (request: DispatchedRequest<C>, seal: SealedDispatchRecord) => R | Promise<R>;

/** What `dispatch` returns: the seal and the model-call owner's result, or the settled refusal. */
export type DispatchResult<R> =
  | { ok: true; seal: SealedDispatchRecord; response: R }
  | { ok: false; rejection: SurfaceRejection };

/**
 * The reference tool surface stage: every defence in place (see the file header for the order
 * of calls; `prepare` and `dispatch` document each step).
 */
export class ToolSurfaceStage<C = unknown> extends SurfaceStageEngine<C> {
  /** @throws TypeError when a hook has no `transform` function. */
  constructor(config: ToolSurfaceStageConfig<C> = {}) {
    super(config, REFERENCE_PARTS);
  }
}

export type { SurfacePreparation };
