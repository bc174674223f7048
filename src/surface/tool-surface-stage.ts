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
 * By default (`hookTools: 'tracked'`) hooks receive the working copy through write-tracking
 * proxies: they may edit in place, and both checks compare only what was written, replaced or
 * moved. `'mutable'` hands them a plain copy (for hooks that structured-clone whole tools), and
 * `'frozen'` a deep-frozen copy they must not edit in place (docs/SURFACE.md).
 *
 * The stage holds its hooks and nothing else: no registry, grant, budget or ledger of its own,
 * no clock, no randomness, no timers, no I/O. One stage serves any number of sessions and
 * requests, concurrently.
 */
import { SurfaceStageEngine } from './internal/engine.ts';
import type { ToolSurfaceStageConfig } from './stage-types.ts';
import { REFERENCE_PARTS } from './internal/parts.ts';
import type { SurfacePreparation } from './internal/preparation.ts';

export type {
  DispatchResult,
  HookToolsMode,
  ModelCall,
  PrepareInput,
  PrepareResult,
  ToolSurfaceStageConfig,
} from './stage-types.ts';

/**
 * The reference tool surface stage: every defence in place (see the file header for the order
 * of calls; `prepare` and `dispatch` document each step).
 */
export class ToolSurfaceStage<C = unknown> extends SurfaceStageEngine<C> {
  /** @throws TypeError when a hook has no `transform` function, or `hookTools` is not `'tracked'`, `'mutable'` or `'frozen'`. */
  constructor(config: ToolSurfaceStageConfig<C> = {}) {
    super(config, REFERENCE_PARTS);
  }
}

export type { SurfacePreparation };
