/**
 * Real MCP servers over HTTP, in the test process, on 127.0.0.1 and a port the OS picks, for
 * `catsim discover --url` and `catsim capture --url`:
 * - {@link startStreamableServer}: the SDK's low-level `Server` behind a stateful
 *   `StreamableHTTPServerTransport` (one per session), listing the given tools `pageSize` a page;
 * - {@link startLegacySseServer}: the same behind the deprecated HTTP+SSE transport (GET URL for
 *   the event stream, POST /messages), answering 405 to a POST on the URL, as old servers do;
 * - {@link startRawHttpServer}: any hand-written request handler, for servers that answer garbage;
 * - {@link closedPortUrl}: a URL on a port nothing listens on any more.
 * Every server is closed with its `close()`, which ends open connections too.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, isInitializeRequest, type Tool } from '@modelcontextprotocol/sdk/types.js';

/** A listening test server. */
export interface TestHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  url: string;
  /** How many sessions the client ended with an HTTP DELETE (Streamable HTTP only). */
  sessionsEnded: () => number;
  /** Stops listening and ends every open connection. */
  close: () => Promise<void>;
}

/** A `tools/list` server: `tools` in order, `pageSize` a page, cursors `"2"`, `"4"`, ... */
function mcpServer(tools: Tool[], pageSize: number): Server {
  const server = new Server({ name: 'catsim-test-http', version: '1.2.3' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const start = Number(request.params?.cursor ?? '0');
    const end = start + pageSize;
    return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
  });
  return server;
}

/** Options of {@link startRawHttpServer}. */
export interface RawServerOptions {
  /** Serve https with this PEM key and certificate instead of http. */
  tls?: { key: string; cert: string };
  /** Called first by `close()`, e.g. to close the MCP sessions. */
  onClose?: () => Promise<void>;
  /** What the server's `sessionsEnded()` reports. */
  sessionsEnded?: () => number;
}

/** Starts `handler` on 127.0.0.1, port 0; the URL's path is `/mcp`. */
export async function startRawHttpServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: RawServerOptions = {},
): Promise<TestHttpServer> {
  const http: HttpServer = options.tls === undefined ? createServer(handler) : createHttpsServer(options.tls, handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}/mcp`,
    sessionsEnded: options.sessionsEnded ?? (() => 0),
    close: async () => {
      await options.onClose?.();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Reads a request body as JSON (undefined when empty). */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body === '' ? undefined : JSON.parse(body);
}

/** A Streamable HTTP MCP server with a session per `initialize`, `pageSize` tools a page. */
export async function startStreamableServer(
  tools: Tool[],
  options: { pageSize?: number; tls?: { key: string; cert: string } } = {},
): Promise<TestHttpServer> {
  const pageSize = options.pageSize ?? 100;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let ended = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (transport === undefined && isInitializeRequest(body)) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          sessions.set(id, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId !== undefined) sessions.delete(created.sessionId);
      };
      await mcpServer(tools, pageSize).connect(created);
      transport = created;
    }
    if (transport === undefined) {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'No valid session' }, id: null }));
      return;
    }
    if (req.method === 'DELETE') ended += 1;
    await transport.handleRequest(req, res, body);
  };
  const closeSessions = async (): Promise<void> => {
    for (const transport of [...sessions.values()]) await transport.close();
  };
  return startRawHttpServer(
    (req, res) => {
      void handle(req, res);
    },
    { tls: options.tls, onClose: closeSessions, sessionsEnded: () => ended },
  );
}

/** A legacy HTTP+SSE MCP server: GET /mcp opens the event stream, POST /messages?sessionId=. */
export async function startLegacySseServer(tools: Tool[]): Promise<TestHttpServer> {
  const sessions = new Map<string, SSEServerTransport>();
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/mcp') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      transport.onclose = () => sessions.delete(transport.sessionId);
      await mcpServer(tools, 100).connect(transport);
    } else if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (transport === undefined) res.writeHead(404).end('no such session');
      else await transport.handlePostMessage(req, res);
    } else {
      res.writeHead(405, { allow: 'GET' }).end('Method Not Allowed');
    }
  };
  const closeSessions = async (): Promise<void> => {
    for (const transport of [...sessions.values()]) await transport.close();
  };
  return startRawHttpServer(
    (req, res) => {
      void handle(req, res);
    },
    { onClose: closeSessions },
  );
}

/** An http URL on 127.0.0.1 whose port was just free: a server listened there and closed. */
export async function closedPortUrl(): Promise<string> {
  const http: HttpServer = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  await new Promise<void>((resolve) => http.close(() => resolve()));
  return `http://127.0.0.1:${port}/mcp`;
}
