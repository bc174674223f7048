/**
 * The boundary between a scan and the MCP connection it reads: one `tools/list` page at a time,
 * the identity the connection presents, and a counter of `tools/list_changed` notifications.
 * {@link SdkPageSource} implements it over the SDK `Client`; tests may use scripted sources.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ServerErrorResponse, serverErrorWatchOf, type ServerErrorWatch } from '../mcp/server-errors.ts';
import { AUTHORIZATION_REQUIRED, CONNECTION_CLOSED, INVALID_PARAMS, REQUEST_TIMEOUT } from './states.ts';

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
  /**
   * `JSON.stringify` of each tool as received (`'null'` for one with no JSON form), when the
   * source has them: the page digest, descriptor digests and memo keys are built from these
   * texts instead of stringifying the descriptors again. Absent, they are computed when needed.
   */
  toolTexts?: readonly string[];
  /**
   * The page's 2026-07-28 cache fields (`ttlMs`, `cacheScope`), read by {@link readCache};
   * absent or null on a legacy page, which carries neither.
   */
  cache?: PageCache | null;
}

/**
 * A modern-era page's cache fields as the core reads them (2026-07-28 `CacheableResult`). They are
 * hints the core records and holds the server to, never grounds to share or to skip a walk: the
 * catalog key alone decides who may see a snapshot, whatever the scope says, and every scan
 * reads every page again, whatever the TTL says (TTL "is a freshness hint, not a guarantee").
 */
export interface PageCache {
  /** ms; an absent, negative or non-integer value reads as 0 (stale at once), as the spec says. */
  ttlMs: number;
  /** An absent or unknown value reads as `private` (the narrower one). */
  cacheScope: 'public' | 'private';
}

/**
 * A page request that failed, classified for the scan by where the failure came from:
 * - the server answered with a JSON-RPC error response: `cursor_invalid` for -32602,
 *   `unauthorized` for -32003 (AUTHORIZATION_REQUIRED: the audience may not list), else `error`, with the server's code and message in `serverError`, whatever the code (a server's
 *   -32001 is its error, not a timeout);
 * - the SDK itself: `timeout` (its request timeout ran out), `disconnected` (the connection
 *   closed), `too_large` (the connection closed because one message was longer than the
 *   transport reads, see {@link PageSourceOptions.messageTooLarge}), `malformed` (a result that
 *   is not a tools/list result), `error` (anything else, e.g. a failed send).
 */
export interface PageFailure {
  ok: false;
  kind: 'cursor_invalid' | 'unauthorized' | 'timeout' | 'disconnected' | 'too_large' | 'malformed' | 'error';
  /** The server's JSON-RPC error, when the server answered with one. */
  serverError?: { code: number; message: string };
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

/** The cache fields of a `tools/list` result; null when it carries neither (a legacy page). */
export function readCache(result: Record<string, unknown>): PageCache | null {
  const { ttlMs, cacheScope } = result;
  if (ttlMs === undefined && cacheScope === undefined) return null;
  return {
    ttlMs: Number.isSafeInteger(ttlMs) && (ttlMs as number) >= 0 ? (ttlMs as number) : 0,
    cacheScope: cacheScope === 'public' ? 'public' : 'private',
  };
}

/** Reads the revision from a result's `_meta`. */
export function readRevision(meta: Record<string, unknown> | undefined): number | null | 'invalid' {
  const value = meta?.[REVISION_META_KEY];
  if (value === undefined) return null;
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 'invalid';
}

/** Optional hooks of an {@link SdkPageSource}. */
export interface PageSourceOptions {
  /** Runs on every `tools/list_changed` notification, after the count moved. */
  onListChanged?: () => void;
  /**
   * True once the connection closed because one incoming message was longer than its transport
   * reads (a real stdio connection's `messageTooLarge`, src/connect/). A page request that fails
   * on the closed connection then counts as `too_large`: the scan ends QUARANTINED BYTE_LIMIT,
   * not INCOMPLETE DISCONNECTED, since a retry would fail the same way.
   */
  messageTooLarge?: () => boolean;
}

/**
 * A {@link PageSource} over a connected SDK `Client`. It installs the `tools/list_changed`
 * handler itself, so the Client must not be built with the SDK's `listChanged` auto-refresh
 * (which would replace the handler), and a {@link ServerErrorWatch} on the Client's transport,
 * so that a server's error is never mistaken for the SDK's own timeout.
 */
export class SdkPageSource implements PageSource {
  #changes = 0;
  readonly #client: Client;
  readonly #identity: () => string;
  readonly #messageTooLarge: () => boolean;

  /** `identity` reads the identity the underlying connection presents at call time. */
  constructor(client: Client, identity: () => string, options: PageSourceOptions = {}) {
    this.#client = client;
    this.#identity = identity;
    this.#messageTooLarge = options.messageTooLarge ?? (() => false);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.#changes += 1;
      options.onListChanged?.();
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
    const request = () =>
      this.#client.request({ method: 'tools/list', params }, LenientListToolsResultSchema, {
        timeout: Math.max(1, timeoutMs),
      });
    try {
      const watch = this.#watchFor(this.#client.transport);
      const result = await (watch === undefined ? request() : watch.track(request));
      const toolTexts = toolTextsOf(result.tools);
      return {
        ok: true,
        tools: result.tools,
        nextCursor: result.nextCursor,
        revision: readRevision(result._meta),
        byteLength: resultByteLength(result, toolTexts),
        toolTexts,
        cache: readCache(result),
      };
    } catch (error) {
      return classifyFailure(error, this.#messageTooLarge());
    }
  }

  /**
   * The watch on the Client's current transport, shared with the calls on it (a Client that is
   * not connected has none: its requests fail before anything is sent).
   */
  #watchFor(transport: Transport | undefined): ServerErrorWatch | undefined {
    return transport === undefined ? undefined : serverErrorWatchOf(transport);
  }
}

/** `JSON.stringify` of each tool, `'null'` for one with no JSON form (as inside an array). */
export function toolTextsOf(tools: readonly unknown[]): string[] {
  return tools.map((tool) => JSON.stringify(tool) ?? 'null');
}

/**
 * `Buffer.byteLength(JSON.stringify(result))` (bytes) without stringifying the tools again: the result
 * with an empty `tools` array (same key order), plus the tools' texts and the commas between them.
 */
export function resultByteLength(result: { tools: unknown[] }, toolTexts: readonly string[]): number {
  const shell = Buffer.byteLength(JSON.stringify({ ...result, tools: [] }), 'utf8');
  let tools = Math.max(0, toolTexts.length - 1);
  for (const text of toolTexts) tools += Buffer.byteLength(text, 'utf8');
  return shell + tools;
}

/**
 * A schema failure of the result. The SDK rejects with zod's core `$ZodError`, which is not an
 * instance of the classic `z.ZodError`, so both are recognised by class and by shape.
 */
function isZodError(error: unknown): boolean {
  if (error instanceof z.ZodError) return true;
  const candidate = error as { name?: unknown; issues?: unknown } | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    (candidate.name === 'ZodError' || candidate.name === '$ZodError') &&
    Array.isArray(candidate.issues)
  );
}

/** What a server's JSON-RPC error code on `tools/list` means for the scan. */
function serverFailureKind(code: number): PageFailure['kind'] {
  if (code === INVALID_PARAMS) return 'cursor_invalid';
  return code === AUTHORIZATION_REQUIRED ? 'unauthorized' : 'error';
}

/**
 * Classifies a rejected page request (see {@link PageFailure}) by its origin: a
 * {@link ServerErrorResponse} is the server's answer; any other rejection came from the SDK and
 * is read by its code (never by its message text). `messageTooLarge` tells a connection the
 * transport closed on an over-long message from one that simply closed.
 */
export function classifyFailure(error: unknown, messageTooLarge = false): PageFailure {
  if (error instanceof ServerErrorResponse) {
    const serverError = { code: error.code, message: error.serverMessage };
    return { ok: false, kind: serverFailureKind(error.code), serverError };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === REQUEST_TIMEOUT) return { ok: false, kind: 'timeout' };
  if (code === CONNECTION_CLOSED) return { ok: false, kind: messageTooLarge ? 'too_large' : 'disconnected' };
  if (isZodError(error)) return { ok: false, kind: 'malformed' };
  return { ok: false, kind: 'error' };
}
