/**
 * The capacity a model request has for its tools, as the host measures it, and the one measure
 * the stage applies. Required tools that do not fit give an explicit `CAPACITY_EXCEEDED`
 * rejection: the stage never cuts the surface to the first N tools that fit (seed 003).
 */
import { jcs } from '../snapshot/canonical.ts';
import type { SurfaceTool } from './surface-tool.ts';

/**
 * Budgets for the whole surface; an absent budget is unlimited. Both are non-negative integers.
 * - `toolCountMax`: at most this many tools;
 * - `surfaceBytesMax`: at most this many bytes, measured by {@link surfaceBytes}.
 * A host whose model counts tokens converts its token budget for tools into one of these (the
 * stage does not tokenize: tokenizers differ per model and are the model-call owner's).
 */
export interface SurfaceCapacity {
  toolCountMax?: number;
  surfaceBytesMax?: number;
}

/** Which budget a shortfall broke. */
export type CapacityLimit = 'toolCountMax' | 'surfaceBytesMax';

/**
 * The size of a surface in bytes: the sum over its tools of the UTF-8 length of the RFC 8785
 * (JCS) form of `{name, description, inputSchema}` (keys sorted, no whitespace). A tool
 * `{name: "a", description: "b", inputSchema: {type: "object"}}` is
 * `{"description":"b","inputSchema":{"type":"object"},"name":"a"}`: 62 bytes.
 */
export function surfaceBytes(surface: readonly SurfaceTool[]): number {
  let bytes = 0;
  for (const tool of surface)
    bytes += Buffer.byteLength(
      jcs({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
      'utf8',
    );
  return bytes;
}
