/**
 * The tool surface stage's machinery, built from {@link SurfaceParts}. The public
 * `ToolSurfaceStage` is this engine with the reference parts; only mutants build it with others.
 * See `tool-surface-stage.ts` for the order of calls and the guarantees.
 *
 * The engine holds its hooks, its mode (`hookTools`) and parts and nothing else: every fact it uses comes in with the
 * request (admission facts, the owner's ledger and reservation) and goes back out in the
 * preparation token, the rejection or the sealed dispatch record.
 */
import type { Baseline } from '../baseline.ts';
import type { SurfaceCapacity } from '../capacity.ts';
import type { DispatchedRequest, ModelRequest } from '../model-request.ts';
import type { RequestOwner } from '../request-ledger.ts';
import type { SealedDispatchRecord } from '../sealed-dispatch-record.ts';
import type { SettlementError } from '../settlement-error.ts';
import type { HookInfo, SurfaceHook } from '../surface-hook.ts';
import type { SurfaceCheck } from '../surface-mismatch.ts';
import type { CapacityStage, SurfaceRejection } from '../surface-rejection.ts';
import type {
  DispatchResult,
  HookToolsMode,
  ModelCall,
  PrepareInput,
  PrepareResult,
  ToolSurfaceStageConfig,
} from '../stage-types.ts';
import type { SurfaceTool } from '../surface-tool.ts';
import { checkCapacity } from './capacity-fit.ts';
import { UNREADABLE } from './compare.ts';
import { deepFreeze } from './json-value.ts';
import type { SurfaceParts } from './parts.ts';
import { mintPreparation, SurfacePreparation, trackerOf } from './preparation.ts';
import { WriteTracker } from './write-tracker.ts';

/** The stage engine. Its methods are the public stage's: `ToolSurfaceStage` only fixes the parts to the reference ones. */
export class SurfaceStageEngine<C = unknown> {
  readonly #hooks: readonly SurfaceHook<C>[];
  readonly #parts: SurfaceParts;
  readonly #mode: HookToolsMode;

  /** @throws TypeError when a hook has no `transform` function, or `hookTools` is not `'tracked'`, `'mutable'` or `'frozen'`. */
  constructor(config: ToolSurfaceStageConfig<C>, parts: SurfaceParts) {
    this.#hooks = Object.freeze([...(config.hooks ?? [])]);
    for (const hook of this.#hooks)
      if (typeof hook?.transform !== 'function')
        throw new TypeError(`surface hook ${String(hook?.name)} has no transform function`);
    const mode: HookToolsMode = config.hookTools ?? 'tracked';
    if (mode !== 'tracked' && mode !== 'mutable' && mode !== 'frozen')
      throw new TypeError(`hookTools must be 'tracked', 'mutable' or 'frozen', got ${JSON.stringify(mode)}`);
    this.#mode = mode;
    this.#parts = parts;
  }

  /**
   * Prepares one model request up to the early check:
   * 1. projects the baseline from `input.facts` (deep copy, deep freeze) before any hook runs;
   * 2. with `input.capacity`, refuses `CAPACITY_EXCEEDED` if the baseline does not fit (no hook runs);
   * 3. creates the request: `requestId` from the reservation, a working copy of the surface
   *    (in tracked mode, the default, behind write-tracking proxies and copied lazily; in frozen mode,
   *    deep-frozen: the issued copy), `input.context`;
   * 4. runs the hooks in order, awaiting each (a throw or rejection refuses `HOOK_FAILED`; in
   *    frozen mode, so does an in-place edit of the issued copy, which throws);
   * 5. the early check: the request's tools against the baseline (`SURFACE_MISMATCH`, check
   *    `early`); in tracked mode what no trap saw written passes without being read, in frozen
   *    mode the issued copy and its tools left in place pass by identity.
   * A refusal is settled once through `input.owner.ledger.preDispatchRejected` and returned as
   * `{ok: false, rejection}`; it touches nothing but that reservation, and the context stays the
   * host's. On success the request (to go on preparing) and the preparation token for `dispatch`.
   * @throws TypeError (as a rejection; nothing settled) for misuse: facts of another session than
   *   the reservation's, contradictory facts (see `projectBaseline`), a malformed capacity.
   * @throws whatever the ledger throws when settling (a {@link SettlementError} for a reservation
   *   already settled): the stage never swallows a second settlement.
   */
  async prepare(input: PrepareInput<C>): Promise<PrepareResult<C>> {
    const { owner, facts } = input;
    const requestId = owner.reservation.requestId;
    if (facts.session !== owner.reservation.session)
      throw new TypeError(
        `request ${requestId}: reserved for session ${owner.reservation.session}, facts are of session ${facts.session}`,
      );
    if (input.capacity !== undefined) checkCapacity(input.capacity);
    const fitted = this.#fit(this.#parts.project(facts), input.capacity, owner, requestId, 'prepare');
    if (!fitted.ok) return fitted;
    const baseline = fitted.baseline;
    // Tracked mode: hooks get the working copy through proxies, each tool copied when a hook
    // first reaches it; only the stage holds the tracker.
    const copyTool = this.#parts.copyTool;
    const tracker = this.#mode === 'tracked' ? new WriteTracker(baseline.surface, copyTool) : undefined;
    const working = tracker?.tools ?? baseline.surface.map((tool) => copyTool(tool));
    // Frozen mode: the copy is frozen before any hook sees it, and only this request holds it.
    const issuedTools: readonly Readonly<SurfaceTool>[] | undefined =
      this.#mode === 'frozen' ? deepFreeze(working) : undefined;
    const issued = issuedTools ?? tracker;
    const request = newRequest(requestId, working, input.context);
    const failed = await this.#runHooks(request, baseline, owner);
    if (failed !== undefined) return failed;
    if (this.#parts.checks.early) {
      const mismatch = this.#parts.compare(baseline.surface, readTools(request), 'early', issued);
      if (mismatch !== undefined)
        return this.#reject(owner, { code: 'SURFACE_MISMATCH', requestId, check: 'early', mismatch });
    }
    return {
      ok: true,
      request,
      preparation: mintPreparation(owner, baseline, this.#parts.checks.early, issuedTools, tracker),
    };
  }

  /**
   * The final check and the hand-over, immediately before dispatch: after the host's late
   * context, evidence and asynchronous preparation, whether or not any hook ran. Synchronously,
   * with no await in between: re-fits `options.capacity` if given (a late capacity:
   * `CAPACITY_EXCEEDED`, stage `dispatch`); compares `request.tools` with the baseline (never with
   * anything made from the request; `SURFACE_MISMATCH`, check `final`; in tracked mode what no
   * trap saw written since the request was issued passes unread, in frozen mode the copy
   * issued to this request, and its tools left in place, pass by identity); seals the dispatch record;
   * settles `dispatched` in the owner's ledger; calls `send` with the baseline's frozen surface
   * (equal to the request's tools, as just proved) and the request's context. Then awaits `send`.
   * A refusal is settled and returned as in `prepare`; `send` is not called.
   * @throws TypeError (as a rejection; nothing settled) when `preparation` is not a token from
   *   `prepare` or belongs to another request, or the capacity is malformed.
   * @throws the ledger's error when the reservation is already settled (a second `dispatch`, or a
   *   request refused earlier): then `send` is not called.
   * @throws whatever `send` throws; the request is settled `dispatched` by then (what follows the
   *   hand-over is the model-call owner's and the runtime's).
   * @throws whatever a getter on `request.context` throws, before anything is settled or sent
   *   (the reservation stays open for its owner to close).
   * (A getter on `request.tools` that throws is a refusal, `SURFACE_MISMATCH` count, settled once.)
   */
  async dispatch<R>(
    preparation: SurfacePreparation,
    request: ModelRequest<C>,
    send: ModelCall<C, R>,
    options: { capacity?: SurfaceCapacity } = {},
  ): Promise<DispatchResult<R>> {
    // Everything up to `send` is synchronous: nothing can change the request between the final
    // check and the hand-over.
    if (!SurfacePreparation.isGenuine(preparation))
      throw new TypeError('dispatch needs the preparation token ToolSurfaceStage.prepare returned');
    const { owner, requestId } = preparation;
    if (request.requestId !== requestId)
      throw new TypeError(`dispatch: the request is ${String(request.requestId)}, the preparation is for ${requestId}`);
    if (options.capacity !== undefined) checkCapacity(options.capacity);
    const fitted = this.#fit(preparation.baseline, options.capacity, owner, requestId, 'dispatch');
    if (!fitted.ok) return fitted;
    const baseline = fitted.baseline;
    // Read once each, before anything is settled: the final check and the hand-over use these.
    // A getter a hook put on `tools` that throws makes them unreadable (refused below, count);
    // one put on `context` that throws rejects `dispatch` with nothing settled or sent.
    const tools = readTools(request);
    const context = request.context;
    if (this.#parts.checks.final) {
      const expected = this.#parts.finalExpected(baseline, tools);
      // The issued copy (or tracker) stands for the surface it was copied from, and for nothing else.
      const issued =
        expected === preparation.baseline.surface ? (preparation.issuedTools ?? trackerOf(preparation)) : undefined;
      const mismatch = this.#parts.compare(expected, tools, 'final', issued);
      if (mismatch !== undefined)
        return this.#reject(owner, { code: 'SURFACE_MISMATCH', requestId, check: 'final', mismatch });
    }
    const surface = this.#parts.dispatchedSurface(baseline, tools);
    const seal = sealOf(baseline, surface, requestId, this.#checksRun(preparation));
    owner.ledger.dispatched(owner.reservation, seal);
    const dispatched: DispatchedRequest<C> = Object.freeze({ requestId, tools: surface, context });
    const response = await send(dispatched, seal);
    return { ok: true, seal, response };
  }

  #fit(
    baseline: Baseline,
    capacity: SurfaceCapacity | undefined,
    owner: RequestOwner,
    requestId: string,
    stage: CapacityStage,
  ): { ok: true; baseline: Baseline } | { ok: false; rejection: SurfaceRejection } {
    if (capacity === undefined) return { ok: true, baseline };
    const fitted = this.#parts.fit(baseline, capacity);
    if (fitted.ok) return fitted;
    return this.#reject(owner, {
      code: 'CAPACITY_EXCEEDED',
      requestId,
      stage,
      limit: fitted.limit,
      required: fitted.required,
      available: fitted.available,
    });
  }

  /** Runs the hooks in order; a throw or rejection refuses the request. */
  async #runHooks(
    request: ModelRequest<C>,
    baseline: Baseline,
    owner: RequestOwner,
  ): Promise<{ ok: false; rejection: SurfaceRejection } | undefined> {
    for (const [index, hook] of this.#hooks.entries()) {
      try {
        await hook.transform(request, hookInfo(request.requestId, baseline, index));
      } catch {
        return this.#reject(owner, {
          code: 'HOOK_FAILED',
          requestId: request.requestId,
          hook: hookName(hook, index),
          index,
        });
      }
    }
    return undefined;
  }

  /** Settles a refusal through the owner's ledger and returns it; a ledger error reaches the caller. */
  #reject(owner: RequestOwner, rejection: SurfaceRejection): { ok: false; rejection: SurfaceRejection } {
    const frozen = deepFreeze(rejection);
    this.#parts.settleRejected(owner, frozen);
    return { ok: false, rejection: frozen };
  }

  #checksRun(preparation: SurfacePreparation): SurfaceCheck[] {
    const checks: SurfaceCheck[] = [];
    if (preparation.earlyChecked) checks.push('early');
    if (this.#parts.checks.final) checks.push('final');
    return checks;
  }
}

/**
 * `request.tools` as a check reads it: a hook may have replaced the member with a getter, and
 * one that throws leaves nothing readable ({@link UNREADABLE}, which every check refuses as `count`
 * with `actual: null`, as it refuses anything that is not an array), so the refusal is settled like
 * any other instead of escaping the stage with the reservation open.
 */
function readTools(request: ModelRequest<unknown>): unknown {
  try {
    return request.tools;
  } catch {
    return UNREADABLE;
  }
}

/** A failed hook's name for its refusal: `String(hook.name)`, or `hook <index>` when that throws. */
function hookName(hook: { name: unknown }, index: number): string {
  try {
    return String(hook.name);
  } catch {
    return `hook ${index}`;
  }
}

/** The request hooks receive: its id cannot be reassigned (a hook that tries fails, HOOK_FAILED). */
function newRequest<C>(requestId: string, tools: ModelRequest<C>['tools'], context: C): ModelRequest<C> {
  const request = { tools, context } as ModelRequest<C>;
  Object.defineProperty(request, 'requestId', {
    value: requestId,
    enumerable: true,
    writable: false,
    configurable: false,
  });
  return request;
}

function hookInfo(requestId: string, baseline: Baseline, index: number): HookInfo {
  return Object.freeze({
    requestId,
    session: baseline.session,
    key: baseline.key,
    generation: baseline.generation,
    policyEpoch: baseline.policyEpoch,
    index,
  });
}

/**
 * The sealed dispatch record of the surface handed over (in the reference stage, the baseline's
 * own surface, which the final check proved equal to the request), each tool bound to the
 * descriptor digest its name has in the baseline. It is written after the checks and is never
 * an input to one.
 */
function sealOf(
  baseline: Baseline,
  surface: readonly { name: string }[],
  requestId: string,
  checks: readonly SurfaceCheck[],
): SealedDispatchRecord {
  const digests = new Map(
    baseline.surface.map((tool, index) => [tool.name, baseline.descriptorDigests[index] ?? null]),
  );
  return deepFreeze({
    requestId,
    session: baseline.session,
    key: baseline.key,
    generation: baseline.generation,
    snapshotDigest: baseline.snapshotDigest,
    policyEpoch: baseline.policyEpoch,
    tools: surface.map((tool) => ({ name: tool.name, descriptorDigest: digests.get(tool.name) ?? null })),
    checks: [...checks],
  });
}
