/**
 * The boundary between a scan and the MCP connection it reads: one `tools/list` page at a time,
 * the identity the connection presents, and a counter of `tools/list_changed` notifications.
 * {@link SdkPageSource} implements it over the SDK `Client`; tests may use scripted sources.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CONNECTION_CLOSED, INVALID_PARAMS, REQUEST_TIMEOUT } from './states.ts';

/** The `_meta` key carrying the source revision on every `tools/list` result (SPEC section 2). */
export const REVISION_META_KEY = 'dev.catsim/catalogRevision';
/** The `_meta` key carrying the scan id on every `tools/list` request (SPEC section 2). */
export const SCAN_ID_META_KEY = 'dev.catsim/scanId';

/** One page as read: tools verbatim (possibly malformed), the cursor out, the revision if any. */
export interface PageReply {
  ok: true;
  tools: unknown[];
  /** `undefined` ends the walk; an empty string is a cursor. */
  nextCursor: string | undefined;
  /** Integer >= 0, `null` when the page carries none, `'invalid'` when present but not one. */
  revision: number | null | 'invalid';
  /** UTF-8 length of the result as JSON, in bytes. */
  byteLength: number;
}

/** A page request that failed, classified for the scan. */
export interface PageFailure {
  ok: false;
  kind: 'cursor_invalid' | 'timeout' | 'disconnected' | 'malformed' | 'error';
}

/** A connection a scan can read. */
export interface PageSource {
  /** Requests one page; never rejects (failures are {@link PageFailure}). */
  listPage(cursor: string | undefined, scanId: string, timeoutMs: number): Promise<PageReply | PageFailure>;
  /** The identity the connection presents now (key fingerprint, certificate digest, ...). */
  identity(): string;
  /** How many `tools/list_changed` notifications have arrived so far (monotone). */
  changeCount(): number;
}

/**
 * The lenient result schema: only the envelope is checked, tools stay `unknown`, so that one
 * malformed tool does not lose the page (the SDK's `ListToolsResultSchema` rejects the whole page).
 */
export const LenientListToolsResultSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
  _meta: z.looseObject({}).optional(),
});

/** Reads the revision from a result's `_meta`. */
export function readRevision(meta: Record<string, unknown> | undefined): number | null | 'invalid' {
  const value = meta?.[REVISION_META_KEY];
  if (value === undefined) return null;
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 'invalid';
}

/**
 * A {@link PageSource} over a connected SDK `Client`. It installs the `tools/list_changed`
 * handler itself, so the Client must not be built with the SDK's `listChanged` auto-refresh
 * (which would replace the handler).
 */
export class SdkPageSource implements PageSource {
  #changes = 0;
  readonly #client: Client;
  readonly #identity: () => string;

  /** `identity` reads the identity the underlying connection presents at call time. */
  constructor(client: Client, identity: () => string, onListChanged?: () => void) {
    this.#client = client;
    this.#identity = identity;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#changes += 1;
      onListChanged?.();
    });
  }

  identity(): string {
    return this.#identity();
  }

  changeCount(): number {
    return this.#changes;
  }

  async listPage(cursor: string | undefined, scanId: string, timeoutMs: number): Promise<PageReply | PageFailure> {
    const params: Record<string, unknown> = { _meta: { [SCAN_ID_META_KEY]: scanId } };
    if (cursor !== undefined) params.cursor = cursor;
    try {
      const result = await this.#client.request({ method: 'tools/list', params }, LenientListToolsResultSchema, { timeout: Math.max(1, timeoutMs) });
      return {
        ok: true,
        tools: result.tools,
        nextCursor: result.nextCursor,
        revision: readRevision(result._meta),
        byteLength: Buffer.byteLength(JSON.stringify(result), 'utf8'),
      };
    } catch (error) {
      return { ok: false, kind: classifyFailure(error) };
    }
  }
}

/**
 * A schema failure of the result. The SDK rejects with zod's core `$ZodError`, which is not an
 * instance of the classic `z.ZodError`, so both are recognised by class and by shape.
 */
function isZodError(error: unknown): boolean {
  if (error instanceof z.ZodError) return true;
  const candidate = error as { name?: unknown; issues?: unknown } | null;
  return typeof candidate === 'object' && candidate !== null && (candidate.name === 'ZodError' || candidate.name === '$ZodError') && Array.isArray(candidate.issues);
}

/** Maps an SDK rejection to a failure kind by its JSON-RPC code, never by its message text. */
export function classifyFailure(error: unknown): PageFailure['kind'] {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === INVALID_PARAMS) return 'cursor_invalid';
  if (code === REQUEST_TIMEOUT) return 'timeout';
  if (code === CONNECTION_CLOSED) return 'disconnected';
  if (isZodError(error)) return 'malformed';
  return 'error';
}
