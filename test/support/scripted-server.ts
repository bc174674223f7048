/**
 * A real SDK `Server` that answers `tools/list` from a script, connected to a real SDK `Client`
 * over the SDK's in-memory transport. For unit tests of the core outside the simulator.
 *
 * It also answers `tools/call` (from `options.onCall`, default: a one-line text result) and
 * records every call as the server saw it (name, arguments, `_meta`), as deep copies: the
 * in-memory transport shares objects between client and server.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * One scripted answer: a page (with the 2026-07-28 cache fields `ttlMs` / `cacheScope` when given,
 * as they are, valid or not), a JSON-RPC error (code, and message when given), or `hang` (never answers).
 */
export type ScriptedAnswer =
  | { tools: unknown[]; nextCursor?: string; revision?: number; ttlMs?: unknown; cacheScope?: unknown }
  | { error: number; message?: string }
  | { hang: true };

/** Answers by request: `(cursor, n)` where n counts requests so far (0-based). */
export type Script = (cursor: string | undefined, n: number) => ScriptedAnswer;

/** One `tools/call` as the server received it. */
export interface RecordedCall {
  name: string;
  arguments: Record<string, unknown> | undefined;
  /** `params._meta` as received (pin, lease, ...), or undefined. */
  meta: Record<string, unknown> | undefined;
}

/**
 * One scripted `tools/call` answer: a result object, a JSON-RPC error (with `data.reason` when
 * given), or `hang` (never answers).
 */
export type CallAnswer = { result: Record<string, unknown> } | { error: number; reason?: string } | { hang: true };

/** Answers calls: `(call, n)` where n counts calls so far (0-based). */
export type CallScript = (call: RecordedCall, n: number) => CallAnswer;

/** Options of {@link scriptedPair}. */
export interface ScriptedOptions {
  onCall?: CallScript;
  /** The server's `serverInfo.version` (its build, as a host reads it); default `1.0.0`. */
  serverVersion?: string;
}

/** A connected client/server pair; `requests` logs the cursors the server was asked for, `calls` the tools/calls. */
export interface ScriptedPair {
  client: Client;
  server: Server;
  requests: (string | undefined)[];
  calls: RecordedCall[];
  close(): Promise<void>;
}

/** The default call answer: one text content item. */
export const OK_RESULT = { content: [{ type: 'text', text: 'ok' }] };

/** Starts a scripted server and connects a client with empty capabilities. */
export async function scriptedPair(script: Script, options: ScriptedOptions = {}): Promise<ScriptedPair> {
  const server = new Server(
    { name: 'scripted', version: options.serverVersion ?? '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const requests: (string | undefined)[] = [];
  const calls: RecordedCall[] = [];
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const call: RecordedCall = structuredClone({
      name: request.params.name,
      arguments: request.params.arguments,
      meta: request.params._meta,
    });
    calls.push(call);
    const answer = options.onCall?.(structuredClone(call), calls.length - 1) ?? { result: OK_RESULT };
    if ('hang' in answer) return new Promise<never>(() => undefined);
    if ('error' in answer)
      throw new McpError(
        answer.error,
        'scripted error',
        answer.reason === undefined ? undefined : { reason: answer.reason },
      );
    return answer.result as { content: [] };
  });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const cursor = request.params?.cursor;
    const answer = script(cursor, requests.length);
    requests.push(cursor);
    if ('hang' in answer) return new Promise<never>(() => undefined);
    if ('error' in answer) throw new McpError(answer.error, answer.message ?? 'scripted error');
    const result: Record<string, unknown> = { tools: answer.tools };
    if (answer.nextCursor !== undefined) result.nextCursor = answer.nextCursor;
    if (answer.revision !== undefined) result._meta = { 'dev.catsim/catalogRevision': answer.revision };
    if (answer.ttlMs !== undefined) result.ttlMs = answer.ttlMs;
    if (answer.cacheScope !== undefined) result.cacheScope = answer.cacheScope;
    return result as { tools: [] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'catsim-test', version: '1.0.0' }, { capabilities: {} });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    server,
    requests,
    calls,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** A minimal valid tool descriptor. */
export function tool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, description: `${name} tool.`, inputSchema: { type: 'object', properties: {} }, ...extra };
}
