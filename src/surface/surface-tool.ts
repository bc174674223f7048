/**
 * One tool of the logical tool surface: what the model is shown of a tool, before any provider's
 * wire serialization (seed 003: the `ChatToolDefinition` of the request path). The surface checks
 * compare exactly these three fields; serializing them for a given model protocol stays the job
 * of the model-call owner, and anything else a hook attaches to a tool object is not part of the
 * surface (it is neither compared nor sent).
 */
import type { JsonObject } from './internal/json-value.ts';

/** A tool as the model sees it. */
export interface SurfaceTool {
  /** The tool's name exactly as the server listed it (or as the host admitted a host tool). */
  name: string;
  /** The full description as listed (never the snapshot's short form); `''` when the server sent none. */
  description: string;
  /** The input schema as listed, a JSON object. */
  inputSchema: JsonObject;
}

export type { JsonObject };
