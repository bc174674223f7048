/**
 * The host's extension point: ordered hooks that may transform a model request before the early
 * check (prompt builders, skill injectors, context fitters, ...). A hook may change anything in
 * the request's context; what it does to `tools` is checked against the baseline, and any change
 * of count, order, name, description or input schema, or any added tool, refuses the request.
 */
import type { ModelRequest } from './model-request.ts';

/** What a hook may know about the request besides the request itself (frozen, scalars only). */
export interface HookInfo {
  readonly requestId: string;
  readonly session: string;
  /** The catalog key, `<identity>|<tenant>.<role>`. */
  readonly key: string;
  readonly generation: number;
  readonly policyEpoch: number;
  /** The hook's position in the pipeline, 0-based. */
  readonly index: number;
}

/**
 * One hook. `transform` runs once per request, in pipeline order, each awaited before the next;
 * it edits `request` in place (it may also assign a new `tools` array or `context`; in the
 * default tracked mode the tools are proxies, which `structuredClone` refuses whole; in the
 * stage's frozen mode, `hookTools: 'frozen'`, it must assign: the tools it receives are
 * deep-frozen, and an in-place edit of them throws, which fails the hook). A throw or a
 * rejection refuses the request (`HOOK_FAILED`), settled like any other refusal. Work a hook
 * leaves running after it returns ("asynchronous preparation that finishes late") is not
 * awaited; whatever it does to the request by dispatch time, the final check sees.
 */
export interface SurfaceHook<C = unknown> {
  /** A name for rejections and logs. */
  readonly name: string;
  transform(request: ModelRequest<C>, info: HookInfo): void | Promise<void>;
}
