/**
 * The model request while it is prepared (seed 003, the second of its three objects: what the
 * model will actually see). The stage creates it with a working copy of the baseline's surface;
 * hooks and the host's late stages (context fitting, evidence assembly, asynchronous
 * preparation) transform it; `dispatch` checks it a last time and hands it to the model.
 */
import type { SurfaceTool } from './surface-tool.ts';

/**
 * A request in preparation. `tools` is a working copy: fresh objects that share nothing mutable
 * with the baseline, so hooks may edit them in place or replace them. By default (the stage's
 * tracked mode) hooks see it through write-tracking proxies: it behaves as plain objects, except
 * that `structuredClone` of a whole tool or of the array throws. In the stage's frozen mode
 * (`hookTools: 'frozen'`) the copy is deep-frozen: hooks and late stages replace `tools`, or
 * tools in a new array, and an in-place edit throws a TypeError. `context` is the host's
 * own (messages, evidence, ...): the stage passes it along and never reads or changes it.
 */
export interface ModelRequest<C = unknown> {
  /** The reservation's request id. */
  readonly requestId: string;
  tools: SurfaceTool[];
  context: C;
}

/**
 * The request as the model-call owner receives it: the checked surface, deep-frozen (the
 * model-call owner copies it if its wire serialization needs to change it), and the context.
 */
export interface DispatchedRequest<C = unknown> {
  readonly requestId: string;
  readonly tools: readonly Readonly<SurfaceTool>[];
  readonly context: C;
}
