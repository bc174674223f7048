/**
 * Real-clock hosting of one case's world on loopback: one HTTP server for the Streamable HTTP
 * MCP endpoints (`/mcp/<server>`, SDK StreamableHTTPServerTransport, with the GET SSE stream for
 * notifications), the driver (`/driver/v1/step`, `/driver/v1/result`) and, with a model endpoint,
 * `/v1/*` (blackbox/model-endpoint.ts), and one TCP listener
 * for the stdio shim (blackbox/stdio-shim.mjs), which relays a host's stdio JSON-RPC lines.
 * Only 127.0.0.1 is bound, and a connection from anywhere else is refused.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { CaseWorld } from './case-world.ts';
import type { Driver } from './driver.ts';
import type { ModelEndpoint } from './model-endpoint.ts';

/** The only address black-box mode binds or accepts. */
export const LOOPBACK = '127.0.0.1';

/** Longest one driver long poll waits before answering 204 (the adapter polls again), ms. */
const LONG_POLL_MS = 15_000;

/** Ports a hosting listens on. */
export interface HostingPorts {
  readonly http: number;
  readonly stdio: number;
}

/** The listeners of one case. Order: `start()`, hosts connect, `close()`. */
export class Hosting {
  readonly #http: HttpServer;
  readonly #tcp: TcpServer;
  readonly #transports = new Map<string, StreamableHTTPServerTransport>();
  readonly #sockets = new Set<Socket>();
  readonly #polls = new AbortController();
  #sessions = 0;

  private constructor(
    private readonly world: CaseWorld,
    private readonly driver: Driver,
    private readonly model: ModelEndpoint | null,
  ) {
    this.#http = createHttpServer(
      (req, res) => void this.#route(req, res).catch(() => answer(res, 500, { error: 'catsim: internal error' })),
    );
    this.#tcp = createTcpServer((socket) => this.#stdio(socket));
  }

  /** Listens on loopback (port 0: any free port). @throws the listen error (EADDRINUSE, ...). */
  static async start(
    world: CaseWorld,
    driver: Driver,
    ports: HostingPorts = { http: 0, stdio: 0 },
    model: ModelEndpoint | null = null,
  ): Promise<Hosting> {
    const hosting = new Hosting(world, driver, model);
    world.onExpire((server) => hosting.#expire(server));
    await listen(hosting.#http, ports.http);
    try {
      await listen(hosting.#tcp, ports.stdio);
    } catch (error) {
      // The HTTP listener is already up: left open, it kept `serve --stdio-port BUSY` alive after its error line.
      await new Promise((resolve) => hosting.#http.close(resolve));
      throw error;
    }
    return hosting;
  }

  /** The ports bound. */
  ports(): HostingPorts {
    return {
      http: (this.#http.address() as { port: number }).port,
      stdio: (this.#tcp.address() as { port: number }).port,
    };
  }

  /** Closes every session, socket and listener; resolves when both listeners are closed. */
  async close(): Promise<void> {
    this.#polls.abort();
    for (const transport of this.#transports.values()) await transport.close().catch(() => undefined);
    for (const socket of this.#sockets) socket.destroy();
    this.#http.closeAllConnections();
    await Promise.all([
      new Promise((resolve) => this.#http.close(resolve)),
      new Promise((resolve) => this.#tcp.close(resolve)),
    ]);
  }

  /** Ends every HTTP session of `server`: its id is forgotten (404 from now on) and its transport closed. */
  #expire(server: string): void {
    for (const [id, transport] of [...this.#transports]) {
      if (!id.startsWith(`${server}-`)) continue;
      this.#transports.delete(id);
      void transport.close().catch(() => undefined);
    }
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isLoopback(req.socket.remoteAddress)) return answer(res, 403, { error: 'catsim: loopback only' });
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    if (url.pathname === '/driver/v1/step' && req.method === 'GET') return this.#step(url, res);
    if (url.pathname === '/driver/v1/result' && req.method === 'POST') return this.#result(req, res);
    const match = /^\/mcp\/([a-z][a-z0-9-]*)$/.exec(url.pathname);
    if (match !== null) return this.#mcp(match[1] as string, req, res);
    if (this.model !== null && url.pathname.startsWith('/v1/')) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      // The host closing this request before its answer is written abandons it (model-endpoint.ts).
      const gone = new AbortController();
      res.on('close', () => {
        if (!res.writableFinished) gone.abort();
      });
      const reply = await this.model.handle(
        req.method ?? 'GET',
        url.pathname,
        Buffer.concat(chunks).toString('utf8'),
        this.#polls.signal,
        gone.signal,
      );
      if (reply.sse === undefined) return answer(res, reply.status, reply.body);
      res.writeHead(reply.status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      return void res.end(reply.sse);
    }
    answer(res, 404, { error: `catsim: no route ${req.method} ${url.pathname}` });
  }

  async #step(url: URL, res: ServerResponse): Promise<void> {
    try {
      const step = await this.driver.step(Number(url.searchParams.get('seq')), LONG_POLL_MS, this.#polls.signal);
      if (step === null) return answer(res, 204, null);
      answer(res, 200, step);
    } catch (error) {
      answer(res, 409, { error: (error as Error).message });
    }
  }

  async #result(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const problem = body === undefined ? 'body is not JSON' : this.driver.post(body);
    answer(res, problem === null ? 200 : 400, problem === null ? { accepted: true } : { error: problem });
  }

  async #mcp(server: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const audience = this.world.audienceFor(server, token);
    if (audience === null)
      return answer(res, 401, { error: `catsim: server ${server} needs a bearer token of one of its entries` });
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? this.#transports.get(sessionId) : undefined;
    if (known !== undefined) return known.handleRequest(req, res, body);
    // Streamable HTTP: a session id the server does not know is 404 (the client must initialize anew).
    if (typeof sessionId === 'string')
      return answer(res, 404, {
        jsonrpc: '2.0',
        error: { code: -32001, message: 'catsim: session not found' },
        id: null,
      });
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return answer(res, 400, {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'catsim: no valid session' },
        id: null,
      });
    this.#sessions += 1;
    const id = `${server}-${this.#sessions}`;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sid) => void this.#transports.set(sid, transport),
    });
    await this.world.connect(server, audience, transport, () => hasStandaloneStream(transport));
    await transport.handleRequest(req, res, body);
  }

  /** A shim connection: one JSON line `{"server", "token"}`, then JSON-RPC messages one per line both ways. */
  #stdio(socket: Socket): void {
    if (!isLoopback(socket.remoteAddress)) return void socket.destroy();
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = '';
    const onHello = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      socket.off('data', onHello);
      const hello = parseLine(buffered.slice(0, newline)) as { server?: string; token?: string } | undefined;
      const audience =
        hello === undefined || typeof hello.server !== 'string'
          ? null
          : this.world.audienceFor(hello.server, hello.token);
      if (hello?.server === undefined || audience === null) return void socket.end('{"catsim":"unauthorized"}\n');
      const transport = new LineTransport(socket, buffered.slice(newline + 1));
      void this.world.connect(hello.server, audience, transport, () => !socket.destroyed && socket.writable);
    };
    socket.on('data', onHello);
  }
}

/**
 * A Transport over a socket carrying newline-delimited JSON-RPC (the stdio framing of MCP),
 * relayed by the shim. A line that is not JSON is dropped, as the SDK's stdio transport reports it.
 */
class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #buffer: string;

  constructor(
    private readonly socket: Socket,
    rest: string,
  ) {
    this.#buffer = rest;
  }

  async start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => this.#take(chunk.toString('utf8')));
    this.socket.on('close', () => this.onclose?.());
    if (this.#buffer.length > 0) queueMicrotask(() => this.#take(''));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.socket.destroyed) throw new Error('the shim connection is closed');
    await new Promise<void>((resolve, reject) =>
      this.socket.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve())),
    );
  }

  async close(): Promise<void> {
    this.socket.end();
  }

  #take(text: string): void {
    this.#buffer += text;
    let newline = this.#buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.#buffer.slice(0, newline).trim();
      this.#buffer = this.#buffer.slice(newline + 1);
      const message = line === '' ? undefined : parseLine(line);
      if (message === undefined) {
        if (line !== '') this.onerror?.(new Error('catsim: a line from the host is not JSON'));
      } else {
        this.onmessage?.(message as JSONRPCMessage);
      }
      newline = this.#buffer.indexOf('\n');
    }
  }
}

/**
 * Whether the session has its standalone GET SSE stream open: only then does a server-initiated
 * notification reach the host (the SDK drops it otherwise). Reads the SDK's private stream map,
 * as no public accessor exists (SDK 1.x).
 */
function hasStandaloneStream(transport: StreamableHTTPServerTransport): boolean {
  const inner = (transport as unknown as { _webStandardTransport?: { _streamMapping?: Map<string, unknown> } })
    ._webStandardTransport;
  return inner?._streamMapping?.has('_GET_stream') ?? false;
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::ffff:127.0.0.1';
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return parseLine(Buffer.concat(chunks).toString('utf8'));
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === null ? undefined : JSON.stringify(body));
}

function listen(server: HttpServer | TcpServer, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
