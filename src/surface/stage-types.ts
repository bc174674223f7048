/**
 * The shapes of the tool surface stage's calls (src/surface/tool-surface-stage.ts): its
 * configuration, what `prepare` takes and returns, the model-call port and what `dispatch`
 * returns. Apart from the stage so that its engine (src/surface/internal/engine.ts) can name them
 * without importing the stage that extends it.
 */
import type { AdmissionFacts } from './admission-facts.ts';
import type { SurfaceCapacity } from './capacity.ts';
import type { SurfacePreparation } from './internal/preparation.ts';
import type { DispatchedRequest, ModelRequest } from './model-request.ts';
import type { RequestOwner } from './request-ledger.ts';
import type { SealedDispatchRecord } from './sealed-dispatch-record.ts';
import type { SurfaceHook } from './surface-hook.ts';
import type { SurfaceRejection } from './surface-rejection.ts';

/**
 * What hooks receive as `request.tools` (docs/SURFACE.md, "Tracked mode" and "Frozen mode"):
 * - `'tracked'` (the default): a deep copy made lazily (a tool when a hook first reaches it, all
 *   of them before the array's first write), seen through proxies that record every write
 *   (the array and each tool; a tool whose object members, such as its `inputSchema`, are handed
 *   out counts as written). Hooks may edit in place as in `'mutable'`; both checks compare only
 *   what was written, replaced or moved, and an untouched surface costs one test whatever its
 *   size. A Proxy cannot be structured-cloned: `structuredClone(tool)` or
 *   `structuredClone(request.tools)` throws a `DataCloneError` (the hook fails, `HOOK_FAILED`);
 *   `structuredClone(tool.inputSchema)` works. Hooks that must clone whole tools use `'mutable'`.
 * - `'mutable'`: a fresh plain deep copy hooks may edit in place; both checks compare every
 *   name, description and schema of every tool (about 0.3-0.5 µs a tool a check).
 * - `'frozen'`: a deep-frozen deep copy, made for this request and shared with nothing (not with
 *   the baseline either). Hooks must assign new arrays and objects instead of editing: an
 *   in-place edit throws a TypeError in strict code (ES modules), so the hook fails and the request
 *   is refused `HOOK_FAILED`. Both checks accept that copy, and each of its tools left at its
 *   position, by identity, and compare in full only what a hook replaced.
 * In every mode a refusal is the one `'mutable'` gives for the same tools.
 */
export type HookToolsMode = 'tracked' | 'mutable' | 'frozen';

/** The configuration. */
export interface ToolSurfaceStageConfig<C = unknown> {
  /** The hook pipeline, in order (default: none). */
  hooks?: readonly SurfaceHook<C>[];
  /** What hooks receive as tools (default `'tracked'`; see {@link HookToolsMode}). */
  hookTools?: HookToolsMode;
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
