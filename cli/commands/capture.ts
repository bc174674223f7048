/**
 * `catsim capture --stdio "CMD ARGS" > FILE` (or `--url URL`): starts a real MCP server over
 * stdio, or connects to a remote one over HTTP (see src/connect/), walks every
 * page of its `tools/list` and prints the pages as a `catsim.catalog.v1` file (see
 * sim/plan/catalog.ts) that `catsim run --catalog FILE` replays under faults.
 *
 * The walk follows `nextCursor` while it is present (an empty string is a cursor), refuses a
 * cursor it has already sent (a loop) and stops at a page cap. A `tools/list_changed` that
 * arrives during a walk makes it start again from page 1, up to 3 times: server-everything
 * registers a tool, and says so, right after initialisation. Any failure is one line, exit 2.
 * With `out` (`--out FILE`) the file is written instead, its path checked before the server starts.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { $ZodError } from 'zod/v4/core';
import { DEFAULT_MESSAGE_BYTES_MAX } from '../../src/connect/child-process-transport.ts';
import { LenientListToolsResultSchema } from '../../src/discovery/page-source.ts';
import { CONNECTION_CLOSED, REQUEST_TIMEOUT } from '../../src/discovery/states.ts';
import { ServerErrorResponse, ServerErrorWatch } from '../../src/mcp/server-errors.ts';
import { CATALOG_SCHEMA, catalogProblem, type CatalogFile, type CatalogPage } from '../../sim/plan/catalog.ts';
import type { ToolDescriptor } from '../../sim/plan/types.ts';
import { EXIT, InputError } from '../errors.ts';
import { assertWritable, writeOutput } from '../output.ts';
import { connectTarget, serverErrorWords, serverTarget, withServer } from '../server-target.ts';

/** Arguments of `catsim capture`. */
export interface CaptureArgs {
  /** The command line that starts the server on stdio; give exactly one of `stdio` and `url`. */
  stdio?: string;
  /** The http(s) URL of a remote server's MCP endpoint. */
  url?: string;
  /** Milliseconds to wait for `initialize` and for each page. */
  timeoutMs: number;
  /** The most pages one walk may read before capture gives up (a never-ending walk). */
  pageCountMax: number;
  /** Write the catalog file here instead of stdout; checked before the server is started. */
  out?: string;
}

/** Walks after the first one, when a `list_changed` arrived during the walk before. */
const LIST_CHANGED_RETRIES_MAX = 3;

/**
 * Captures the server's catalog and prints it on stdout, or writes it to `args.out` (JSON, 2-space
 * indent, trailing newline).
 * A `--url` capture's `source` holds `url` and `transport` (`streamable-http` or `sse`) beside an
 * empty `command`.
 * @throws InputError (one line, exit 2) when not exactly one of `stdio` and `url` is given or the
 *   URL is not http(s), `args.out` cannot be written (both before the server is started), the
 *   server cannot be reached, a page fails or is malformed, the cursors loop, the
 *   walk exceeds `pageCountMax` pages, the list keeps changing, or the catalog is not a valid
 *   catalog file (e.g. a tool that is not an object).
 */
export async function captureCommand(args: CaptureArgs): Promise<number> {
  const target = serverTarget('capture', args);
  if (args.out !== undefined) assertWritable(args.out, '--out');
  let changes = 0;
  const server = await connectTarget(target, {
    timeoutMs: args.timeoutMs,
    clientName: 'catsim-capture',
    messageBytesMax: DEFAULT_MESSAGE_BYTES_MAX,
    beforeConnect: (client) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes += 1;
      }),
  });
  return withServer(server, async () => {
    const { label } = server;
    const pages = await walkCatalog(server.client, () => changes, {
      label,
      timeoutMs: args.timeoutMs,
      pageCountMax: args.pageCountMax,
      messageTooLarge: server.messageTooLarge,
      messageBytesMax: DEFAULT_MESSAGE_BYTES_MAX,
    });
    const serverInfo = server.serverInfo() ?? { name: 'unknown', version: 'unknown' };
    const file: CatalogFile = {
      schema: CATALOG_SCHEMA,
      source: {
        ...server.source,
        serverInfo,
        protocolVersion: server.protocolVersion() ?? 'unknown',
        capturedAt: new Date().toISOString(),
      }, // real-clock: informational only
      pages,
    };
    const problem = catalogProblem(file);
    if (problem !== undefined) throw new InputError(`${label} sent a catalog catsim cannot replay: ${problem}`);
    const text = `${JSON.stringify(file, null, 2)}\n`;
    if (args.out === undefined) process.stdout.write(text);
    // A write that fails now (after the walk) goes to a named fallback file: exit 2, nothing lost.
    else if (!writeOutput({ path: args.out, what: 'catalog', stem: 'catsim-catalog', extension: '.json' }, text))
      return EXIT.usage;
    return EXIT.clean;
  });
}

/** How {@link walkCatalog} names the server in errors and bounds its walk. */
export interface WalkOptions {
  /** Names the server in error messages, e.g. `server "npx mcp-server-memory"`. */
  label: string;
  /** Milliseconds to wait for each page. */
  timeoutMs: number;
  /** The most pages one walk may read. */
  pageCountMax: number;
  /** True once the connection closed on an over-long message (`ConnectedServer.messageTooLarge`). */
  messageTooLarge?: () => boolean;
  /** The longest message the connection reads, bytes, for the message of such a refusal. */
  messageBytesMax?: number;
}

/**
 * Walks every page of `tools/list` on a connected `client`, from page 1 again (at most
 * 3 more times) whenever `changeCount` (the number of
 * `tools/list_changed` notifications received so far) moved during a walk.
 * @returns the pages of the first walk during which no notification arrived.
 * @throws InputError (one line) when a page fails or is malformed, a cursor comes back, the walk
 *   exceeds `pageCountMax` pages, or the list changed during every walk.
 */
export async function walkCatalog(
  client: Client,
  changeCount: () => number,
  options: WalkOptions,
): Promise<CatalogPage[]> {
  const watch = client.transport === undefined ? undefined : new ServerErrorWatch(client.transport);
  for (let walk = 0; walk <= LIST_CHANGED_RETRIES_MAX; walk += 1) {
    const changesBefore = changeCount();
    const pages = await walkPages(client, watch, options);
    if (changeCount() === changesBefore) return pages;
  }
  throw new InputError(
    `${options.label} sent tools/list_changed during each of ${LIST_CHANGED_RETRIES_MAX + 1} walks of tools/list; its catalog never held still`,
  );
}

/** One walk from page 1 to the page without `nextCursor`. */
async function walkPages(
  client: Client,
  watch: ServerErrorWatch | undefined,
  args: WalkOptions,
): Promise<CatalogPage[]> {
  const { label } = args;
  const pages: CatalogPage[] = [];
  const sent = new Set<string>();
  let cursor: string | undefined;
  do {
    if (pages.length >= args.pageCountMax)
      throw new InputError(
        `${label} sent more than ${args.pageCountMax} pages of tools/list (raise --page-count-max if that is real)`,
      );
    const result = await listPage(client, watch, cursor, pages.length + 1, args);
    pages.push({
      cursorIn: cursor ?? null,
      nextCursor: result.nextCursor ?? null,
      tools: result.tools as ToolDescriptor[],
    });
    cursor = result.nextCursor;
    if (cursor !== undefined && sent.has(cursor))
      throw new InputError(
        `${label} returned the cursor ${JSON.stringify(cursor)} again on page ${pages.length} of tools/list (a cursor loop)`,
      );
    if (cursor !== undefined) sent.add(cursor);
  } while (cursor !== undefined);
  return pages;
}

/**
 * One `tools/list` request; failures become one-line InputErrors naming the page, told apart by
 * origin: the server's own JSON-RPC error (whatever its code) is quoted, and only the SDK's own
 * timeout says no answer came.
 */
async function listPage(
  client: Client,
  watch: ServerErrorWatch | undefined,
  cursor: string | undefined,
  pageNumber: number,
  args: WalkOptions,
): Promise<{ tools: unknown[]; nextCursor?: string | undefined }> {
  const request = () =>
    client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      LenientListToolsResultSchema,
      { timeout: args.timeoutMs },
    );
  try {
    return await (watch === undefined ? request() : watch.track(request));
  } catch (error) {
    throw new InputError(`${args.label} failed tools/list page ${pageNumber}: ${failureWords(error, args)}`);
  }
}

/** Why a page request failed, in words. */
function failureWords(error: unknown, args: WalkOptions): string {
  if (error instanceof ServerErrorResponse) return serverErrorWords({ code: error.code, message: error.serverMessage });
  const code = (error as { code?: unknown }).code;
  if (code === REQUEST_TIMEOUT) return `no answer within ${args.timeoutMs} ms`;
  if (code === CONNECTION_CLOSED && args.messageTooLarge?.() === true)
    return `the page is larger than ${args.messageBytesMax ?? DEFAULT_MESSAGE_BYTES_MAX} bytes, the most one stdio message may hold`;
  if (code === CONNECTION_CLOSED) return 'the connection closed';
  // The SDK rejects a result that fails the schema with zod's core error class, not z.ZodError.
  if (error instanceof $ZodError) return 'the result is not a tools/list result';
  return firstLine(error);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] as string;
}
