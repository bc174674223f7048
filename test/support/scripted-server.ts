/**
 * A real SDK `Server` that answers `tools/list` from a script, connected to a real SDK `Client`
 * over the SDK's in-memory transport. For unit tests of the core outside the simulator.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

/** One scripted answer: a page, or a JSON-RPC error code. */
export type ScriptedAnswer =
  | { tools: unknown[]; nextCursor?: string; revision?: number }
  | { error: number };

/** Answers by request: `(cursor, n)` where n counts requests so far (0-based). */
export type Script = (cursor: string | undefined, n: number) => ScriptedAnswer;

/** A connected client/server pair; `requests` logs the cursors the server was asked for. */
export interface ScriptedPair {
  client: Client;
  server: Server;
  requests: (string | undefined)[];
  close(): Promise<void>;
}

/** Starts a scripted server and connects a client with empty capabilities. */
export async function scriptedPair(script: Script): Promise<ScriptedPair> {
  const server = new Server({ name: 'scripted', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  const requests: (string | undefined)[] = [];
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const cursor = request.params?.cursor;
    const answer = script(cursor, requests.length);
    requests.push(cursor);
    if ('error' in answer) throw new McpError(answer.error, 'scripted error');
    const result: Record<string, unknown> = { tools: answer.tools };
    if (answer.nextCursor !== undefined) result.nextCursor = answer.nextCursor;
    if (answer.revision !== undefined) result._meta = { 'dev.catsim/catalogRevision': answer.revision };
    return result as { tools: [] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'catsim-test', version: '1.0.0' }, { capabilities: {} });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, server, requests, close: async () => { await client.close(); await server.close(); } };
}

/** A minimal valid tool descriptor. */
export function tool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, description: `${name} tool.`, inputSchema: { type: 'object', properties: {} }, ...extra };
}
