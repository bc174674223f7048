/**
 * One session of a modern-era server (MCP 2026-07-28) on the SDK v2 server package
 * (`@modelcontextprotocol/server` 2.4.0): its low-level `Server`, which does not validate its own
 * `tools/list` output either, behind the package's `serveStdio` entry over the world's link (the
 * stdio binding's "bring your own transport"). The entry owns what 2026-07-28 changes: there is
 * no `initialize` (a legacy opening is refused with -32022, `legacy: 'reject'`: a modern-only
 * server), every request must carry its `_meta` envelope, `subscriptions/listen` is served at the
 * entry (acknowledged first, every notification stamped with the subscription id, and a
 * `list_changed` with no subscription open goes nowhere), and each result gets `resultType` and
 * the server's identity in `_meta`. The catalog server fills `ttlMs` and `cacheScope` itself.
 *
 * Fault model: none of its own; the catalog server's rules decide what it serves, and F27's
 * decide what becomes of its listen streams: a `subscriptions/listen` the rules hold never reaches
 * the entry (never acknowledged, nothing delivered on it); `silence()` stops every stream of the
 * connection without ending it, for the rest of the connection; `complete()` ends each
 * acknowledged stream with its result (`resultType: "complete"`) and delivers nothing more on it,
 * while a stream the client opens again on the same connection is a stream like any other (the
 * entry still holds the ended ones open: what it stamps with their ids is not sent). The entry ignores the link's
 * `authInfo` (stdio has none), so the session's own audience is the one served. Over Streamable
 * HTTP ({@link serveModernHttp}) F27 does not act: its listen streams are the handler's own.
 */
import { createMcpHandler, Server, type Transport as ModernTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** What a modern session answers: the catalog server's handlers, by the request's params. */
export interface ModernHandlers {
  /** Answers one `tools/list` (params as the entry hands them on, envelope keys removed). */
  listTools(params: Record<string, unknown> | undefined): Record<string, unknown>;
  /** Answers one `tools/call`. */
  callTool(params: Record<string, unknown>): Record<string, unknown>;
}

/** A live modern session: tells its subscribers of a change, and says when it ended. */
export interface ModernSession {
  /** Sends one `notifications/tools/list_changed` to every open `subscriptions/listen` stream of the session. */
  sendToolListChanged(): void;
  /**
   * Whether a `list_changed` would reach the connection: false once its streams were silenced
   * (F27), and from a `complete()` until the client's next stream on the connection is acknowledged.
   */
  pushes(): boolean;
  /** F27: stops delivering on every stream of the connection without ending them; the acknowledged ones' ids. */
  silence(): string[];
  /** F27: ends every acknowledged stream with a `complete` result, delivering nothing more; their ids. */
  complete(): string[];
  /** Called once when the connection closes. */
  onclose?: (() => void) | undefined;
}

/**
 * A live modern session over Streamable HTTP: tells its listen streams of a change, answers one
 * request, ends; F27 does not act on it (its listen streams are the handler's own).
 */
export interface ModernHttpSession extends Pick<ModernSession, 'sendToolListChanged' | 'onclose'> {
  /**
   * Answers one HTTP request (a POST; sim/transport/http-link.ts carries it in virtual time);
   * `parsedBody`, when given, is its body parsed, which the handler then takes instead of reading
   * (and first cloning) the body.
   */
  fetch(request: Request, parsedBody?: unknown): Promise<Response>;
  /** Ends the session: the handler's open streams close, and `onclose` is called. */
  close(): void;
}

/** The `_meta` key of the subscription id on every notification of a listen stream (2026-07-28). */
const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

/**
 * Serves one connection on `transport` (the server end of a link) as a modern-only server named
 * `name` declaring `tools.listChanged` as `listChanged` says.
 */
export function serveModernSession(
  transport: Transport,
  name: string,
  listChanged: boolean | undefined,
  handlers: ModernHandlers,
  holdListen: () => boolean = () => false,
): ModernSession {
  const server = serverOf(name, listChanged, handlers);
  const streams = new ListenStreams(transport);
  const session: ModernSession = {
    sendToolListChanged: () => void server.sendToolListChanged().catch(() => undefined),
    pushes: () => streams.pushes(),
    silence: () => streams.silence(),
    complete: () => streams.complete(),
  };
  const wire = wireOf(transport, streams, holdListen, () => session.onclose?.());
  serveStdio(() => server, { transport: wire, legacy: 'reject' });
  return session;
}

/**
 * Serves one connection over Streamable HTTP as the same modern-only server: the package's
 * web-standard handler (`createMcpHandler`, `legacy: 'reject'`: a legacy `initialize` is answered
 * HTTP 400 with -32022), stateless (a fresh `Server` per request), its `subscriptions/listen`
 * streams served by the handler's router and told of a change through its notifier. No SSE
 * keep-alive (`keepAliveMs: 0`: the router would arm an interval); no other timer is armed.
 * `fetch` answers one request (sim/transport/http-link.ts carries it); `close` ends the session.
 *
 * A body the link has parsed is handed to the handler as `parsedBody`, the handler's documented
 * escape hatch for a body already parsed (`McpHandlerRequestOptions.parsedBody`): it then
 * classifies the request from that value and neither clones the request (a tee of its body
 * stream) nor reads it. Nothing on the wire changes: the value is `JSON.parse` of the very body
 * text the handler would read (UTF-8 both ways), the route, the `Server` and its answer are the
 * same, and the request keeps its body and headers. The one check skipped is the handler's
 * `maxRequestBodySize` (4 MiB by default), which no request of a round comes near.
 */
export function serveModernHttp(
  name: string,
  listChanged: boolean | undefined,
  handlers: ModernHandlers,
): ModernHttpSession {
  const handler = createMcpHandler(() => serverOf(name, listChanged, handlers), {
    legacy: 'reject',
    keepAliveMs: 0,
  });
  const session = {
    sendToolListChanged: () => handler.notify.toolsChanged(),
    fetch: (request: Request, parsedBody?: unknown) =>
      handler.fetch(request, parsedBody === undefined ? undefined : { parsedBody }),
    close: () => {
      void handler.close().catch(() => undefined);
      session.onclose?.();
    },
  } as ModernHttpSession;
  return session;
}

function serverOf(name: string, listChanged: boolean | undefined, handlers: ModernHandlers): Server {
  const server = new Server(
    { name, version: '1.0.0' },
    { capabilities: { tools: listChanged === undefined ? {} : { listChanged } } },
  );
  server.setRequestHandler('tools/list', (request) => handlers.listTools(paramsOf(request)) as never);
  server.setRequestHandler('tools/call', (request) => handlers.callTool(paramsOf(request) ?? {}) as never);
  return server;
}

/**
 * The listen streams of one connection as the wire sees them: the acknowledged ones by
 * subscription id, the ones `complete()` ended, and whether the connection was silenced (F27). A
 * silenced connection's notifications stamped with a subscription id are not sent, nor are an
 * ended stream's notifications or its second result.
 */
class ListenStreams {
  readonly acknowledged: string[] = [];
  readonly #ended = new Set<string>();
  silenced = false;

  constructor(private readonly transport: Transport) {}

  /** Whether `message`, about to be sent, may go: notes acknowledgements and ended streams. */
  passes(message: Record<string, unknown>): boolean {
    const params = message.params as { _meta?: Record<string, unknown> } | undefined;
    const subscription = params?._meta?.[SUBSCRIPTION_ID_KEY];
    if (message.method === 'notifications/subscriptions/acknowledged') {
      this.acknowledged.push(String(subscription));
      return true;
    }
    if (!('method' in message) && 'id' in message) {
      const index = this.acknowledged.indexOf(String(message.id));
      if (index >= 0) this.acknowledged.splice(index, 1);
      return !this.#ended.has(String(message.id));
    }
    return subscription === undefined || (!this.silenced && !this.#ended.has(String(subscription)));
  }

  /** See {@link ModernSession.pushes}. */
  pushes(): boolean {
    return !this.silenced && (this.#ended.size === 0 || this.acknowledged.length > 0);
  }

  silence(): string[] {
    this.silenced = true;
    return [...this.acknowledged];
  }

  complete(): string[] {
    const ended = [...this.acknowledged];
    this.acknowledged.length = 0;
    for (const id of ended) {
      this.#ended.add(id);
      const result = {
        jsonrpc: '2.0',
        id: Number.isNaN(Number(id)) ? id : Number(id),
        result: { resultType: 'complete' },
      };
      void this.transport.send(result as never).catch(() => undefined);
    }
    return ended;
  }
}

/**
 * The link's endpoint as the entry's wire: the same calls (the endpoint implements the SDK 1.x
 * `Transport`, the same shape as v2's), and `closed` told when the connection closes, whether or
 * not the entry ever pinned an instance (a refused legacy opening pins none, and the server's
 * own `onclose` then never runs). A `subscriptions/listen` that `holdListen` holds never reaches
 * the entry; what `streams` stops is never sent.
 */
function wireOf(
  transport: Transport,
  streams: ListenStreams,
  holdListen: () => boolean,
  closed: () => void,
): ModernTransport {
  const wire: ModernTransport = {
    start: () => transport.start(),
    send: (message, options) =>
      streams.passes(message as Record<string, unknown>)
        ? transport.send(message as never, options as never)
        : Promise.resolve(),
    close: () => transport.close(),
  };
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'subscriptions/listen' && holdListen()) return;
    wire.onmessage?.(message as never, extra as never);
  };
  transport.onerror = (error) => wire.onerror?.(error);
  transport.onclose = () => {
    wire.onclose?.();
    closed();
  };
  return wire;
}

function paramsOf(request: unknown): Record<string, unknown> | undefined {
  const params = (request as { params?: unknown }).params;
  return typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : undefined;
}
