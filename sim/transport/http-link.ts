/**
 * A simulated Streamable HTTP connection (MCP 2026-07-28) between one SDK Client and a server's
 * web-standard HTTP handler (the v2 server package's `createMcpHandler`), driven by the world's
 * queue: no socket, no real timer. The client end is the SDK 1.x `StreamableHTTPClientTransport`
 * over a virtual `fetch`; each POST travels to the handler as one delivery, and its answer comes
 * back as one delivery (a JSON body, or a 202 with none) or, for an SSE body (the
 * `subscriptions/listen` stream), as one delivery for the headers and one per event, in order.
 *
 * Fault model: the same as the in-process link's (link.ts), message by message: the base latency,
 * then the link's rules (F3's late `list_changed`, F15's reordering), per-direction FIFO unless a
 * rule reorders; the events of one SSE body never overtake each other (one byte stream); a rule
 * may drop a notification (a dropped POST is answered 202 and never reaches the handler, a
 * dropped event is not written to the body). `disconnect()` cuts every open exchange: deliveries
 * in flight are lost, a pending `fetch` rejects with TypeError('fetch failed'), an open body
 * errors, the handler's request is aborted (its listen stream ends), and the client end closes.
 * Headers and a body's end take the base latency with no rule (they are no JSON-RPC message).
 *
 * What the handler writes that the trace must not see: SSE event ids and comments are not passed
 * on (the client then never resumes a stream, so the SDK arms no reconnection timer), and each
 * event's message is re-serialised from the link's own parse of it.
 *
 * Every message the link carries is one it parsed itself from the exchange's text (a POST's body,
 * a JSON answer, one SSE event's data), so no one else holds it: it is the link's copy as it is
 * (the in-process link must clone what its sender still holds; this one has nothing to clone),
 * and is traced, tapped and delivered as `structuredClone` of the sender's object would be
 * (`JSON.parse` yields plain objects and arrays only). The handler is given its own parse of the
 * POST's body beside the request (`parsedBody`, see {@link HttpServerEnd.fetch}).
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { World } from '../runtime/world.ts';
import type { ClientTransport, LinkOptions, LinkTraceEvent, WireLink } from './link.ts';
import type { LinkDirection } from './link-rules.ts';
import { DeliveryOrder, isNotification } from './internal/delivery-order.ts';

/** The URL every simulated server answers at (`.invalid`: no real host could ever be reached). */
export const HTTP_LINK_URL = 'http://sim.invalid/mcp';

/** The server side of an HTTP link: a web-standard handler and its session's end. */
export interface HttpServerEnd {
  /**
   * Answers one HTTP request (never rejects: a failure is an HTTP status). `parsedBody`, when
   * given, is the request's body text parsed (a JSON-RPC message object, the handler's own): the
   * handler may take it instead of reading the body (the v2 handler's `parsedBody` option).
   */
  fetch(request: Request, parsedBody?: JSONRPCMessage): Promise<Response>;
  /** Called once when the connection closes: the server's session ends. */
  close(): void;
}

/** How to build an HTTP link: the link's latency, rules and identity, and the server's handler. */
export interface HttpLinkOptions extends Pick<LinkOptions, 'latencyMs' | 'rules' | 'identity'> {
  server: HttpServerEnd;
}

/**
 * Creates an HTTP link whose exchanges travel on `world`'s queue. A latency that is not an integer
 * >= 0, or a rule that drops a request or a response, fails the round (`world.fail`).
 */
export function createHttpLink(world: World, opts: HttpLinkOptions): WireLink {
  return new SimHttpLink(world, opts);
}

/** One delivery on the queue: a message (traced), or headers or a body's end (not traced). */
interface InFlight {
  readonly direction: LinkDirection;
  readonly message: JSONRPCMessage | undefined;
  eventId: number;
}

class SimHttpLink implements WireLink {
  readonly client: HttpClientEnd;
  readonly identity: string;
  onTrace?: ((event: LinkTraceEvent) => void) | undefined;
  onDeliver?: ((direction: LinkDirection, message: JSONRPCMessage) => void) | undefined;
  onSend?: ((direction: LinkDirection, message: JSONRPCMessage) => void) | undefined;
  onClosed?: (() => void) | undefined;

  private isClosed = false;
  private readonly inFlight = new Map<number, InFlight>();
  private readonly exchanges = new Set<Exchange>();
  private readonly order: DeliveryOrder;

  constructor(
    private readonly world: World,
    private readonly opts: HttpLinkOptions,
  ) {
    this.identity = opts.identity;
    this.client = new HttpClientEnd(this, (_input, init, message) => this.fetch(init, message), opts.identity);
    this.order = new DeliveryOrder(world, opts, (error) => this.failRound(error));
  }

  get closed(): boolean {
    return this.isClosed;
  }

  disconnect(): void {
    this.close();
  }

  /** Cuts every open exchange (see the header), then tells the server and the client. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const flight of this.inFlight.values()) {
      this.world.cancel(flight.eventId);
      if (flight.message !== undefined) this.trace(flight.direction, 'lost', flight.message);
    }
    this.inFlight.clear();
    for (const exchange of this.exchanges) exchange.cut();
    this.exchanges.clear();
    this.onClosed?.();
    this.opts.server.close();
    this.client.notifyClosed();
  }

  /**
   * The virtual `fetch`: one exchange, its request delivered to the handler after its latency.
   * `parsed`, when given, is the body already parsed by the caller, who keeps no hold of it.
   */
  private fetch(init: RequestInit | undefined, parsed?: JSONRPCMessage): Promise<Response> {
    if (this.isClosed) return Promise.reject(new TypeError('fetch failed'));
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? init.body : undefined;
    return new Promise<Response>((resolve, reject) => {
      const exchange = new Exchange(resolve, reject);
      this.exchanges.add(exchange);
      const message = parsed ?? parseMessage(body);
      const request = new Request(HTTP_LINK_URL, {
        method,
        headers: new Headers(init?.headers),
        ...(body === undefined ? {} : { body }),
        signal: exchange.abort.signal,
      });
      const sent = this.transmit('toServer', message, exchange, () => this.serve(exchange, request, body));
      if (!sent) this.settle(exchange, () => exchange.resolve(new Response(null, { status: 202 })));
    });
  }

  /**
   * Hands the request to the handler, with its own parse of the body (`body`, the request's body
   * text), and the handler's answer back to the client.
   */
  private serve(exchange: Exchange, request: Request, body: string | undefined): void {
    void this.opts.server.fetch(request, parseMessage(body)).then(
      (response) => this.answer(exchange, response),
      (error: unknown) => this.world.fail(error instanceof Error ? error : new Error(String(error))),
    );
  }

  private async answer(exchange: Exchange, response: Response): Promise<void> {
    if (exchange.done) return void response.body?.cancel().catch(() => undefined);
    const type = response.headers.get('content-type') ?? '';
    if (type.startsWith('text/event-stream') && response.body !== null) {
      const headers = { 'content-type': 'text/event-stream' };
      this.transmit('toClient', undefined, exchange, () => exchange.open(response.status, headers));
      return this.pump(exchange, response.body.getReader());
    }
    const text = await response.text();
    if (exchange.done) return;
    const init: ResponseInit = { status: response.status, headers: type === '' ? {} : { 'content-type': type } };
    this.transmit('toClient', parseMessage(text), exchange, () =>
      this.settle(exchange, () => exchange.resolve(new Response(text === '' ? null : text, init))),
    );
  }

  /** Reads the handler's SSE body event by event; each event is one delivery, the end another. */
  private async pump(exchange: Exchange, reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    exchange.reader = reader;
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (exchange.done) return;
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const message = parseMessage(dataOf(buffer.slice(0, end)));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        if (message === undefined) continue;
        this.transmit('toClient', message, exchange, (copy) =>
          exchange.write(`event: message\ndata: ${JSON.stringify(copy)}\n\n`),
        );
      }
    }
    const flight: InFlight = { direction: 'toClient', message: undefined, eventId: 0 };
    flight.eventId = this.world.schedule(Math.max(this.world.now(), exchange.lastAtMs), () => {
      this.inFlight.delete(flight.eventId);
      this.settle(exchange, () => exchange.end());
    });
    this.inFlight.set(flight.eventId, flight);
  }

  /** Ends an exchange: `finish` runs and the link forgets it. */
  private settle(exchange: Exchange, finish: () => void): void {
    this.exchanges.delete(exchange);
    exchange.done = true;
    finish();
  }

  /**
   * Puts one delivery on the queue (`arrive` runs at its time with the link's copy of the
   * message: `message` itself, which the link parsed and no one else holds); false when a rule
   * dropped it. A message is tapped (`onSend`) at once.
   */
  private transmit(
    direction: LinkDirection,
    message: JSONRPCMessage | undefined,
    exchange: Exchange,
    arrive: (copy: JSONRPCMessage | undefined) => void,
  ): boolean {
    const copy = message;
    if (copy !== undefined) this.onSend?.(direction, copy);
    const verdict =
      copy === undefined
        ? this.order.verdict({ direction, message: { jsonrpc: '2.0', method: '' }, notification: true }, false)
        : this.order.verdict({ direction, message: copy, notification: isNotification(copy) });
    if (verdict.kind === 'drop') {
      this.trace(direction, 'drop', copy as JSONRPCMessage);
      return false;
    }
    const flight: InFlight = { direction, message: copy, eventId: 0 };
    const atMs = Math.max(this.order.atMs(direction, verdict), exchange.lastAtMs);
    exchange.lastAtMs = atMs;
    flight.eventId = this.world.schedule(atMs, () => {
      this.inFlight.delete(flight.eventId);
      if (copy !== undefined) {
        this.trace(direction, 'deliver', copy);
        this.onDeliver?.(direction, copy);
      }
      arrive(copy);
    });
    this.inFlight.set(flight.eventId, flight);
    return true;
  }

  private failRound(error: Error): never {
    this.world.fail(error);
    throw error;
  }

  private trace(direction: LinkDirection, kind: LinkTraceEvent['kind'], message: JSONRPCMessage): void {
    if (this.onTrace === undefined) return;
    const event: LinkTraceEvent = { direction, kind };
    if ('method' in message) event.method = message.method;
    if ('id' in message && message.id !== undefined) event.id = message.id;
    this.onTrace(event);
  }
}

/**
 * One HTTP exchange: the client's pending `fetch`, then (for an SSE answer) the body the client
 * reads, and the handler's side (its request's abort signal, the reader of its body).
 */
class Exchange {
  /** Aborts the handler's request (a listen stream ends on it). */
  readonly abort = new AbortController();
  /** The handler's SSE body, once it is read. */
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  /** The latest delivery time of this exchange's answer: its events keep their order. */
  lastAtMs = 0;
  /** True once the exchange ended or was cut. */
  done = false;
  private body: ReadableStreamDefaultController<Uint8Array> | undefined;
  private readonly encoder = new TextEncoder();

  constructor(
    readonly resolve: (response: Response) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  /** Resolves the `fetch` with the headers of an SSE answer and an empty body to write into. */
  open(status: number, headers: Record<string, string>): void {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.body = controller;
      },
      cancel: () => this.cancelHandler(),
    });
    this.resolve(new Response(stream, { status, headers }));
  }

  write(text: string): void {
    this.body?.enqueue(this.encoder.encode(text));
  }

  end(): void {
    this.body?.close();
  }

  /** The connection was cut: the pending `fetch` rejects, an open body errors, the handler is aborted. */
  cut(): void {
    this.done = true;
    this.reject(new TypeError('fetch failed'));
    try {
      this.body?.error(new TypeError('terminated'));
    } catch {
      // Already closed.
    }
    this.cancelHandler();
  }

  private cancelHandler(): void {
    this.abort.abort();
    void this.reader?.cancel().catch(() => undefined);
  }
}

/** The JSON-RPC message a body holds, or undefined (empty, not JSON, or a batch). */
function parseMessage(text: string | undefined): JSONRPCMessage | undefined {
  if (text === undefined || text === '') return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JSONRPCMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** The data of one SSE event (its `data:` lines joined), '' for a comment or an event without data. */
function dataOf(frame: string): string {
  return frame
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
}

/** The `_meta` key of a 2026-07-28 request envelope's protocol version. */
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/**
 * The client end: the SDK 1.x Streamable HTTP client transport over the link's `fetch`, which
 * also writes the per-request headers 2026-07-28 asks of Streamable HTTP from the body it posts
 * (`MCP-Protocol-Version` from the request's envelope, `Mcp-Method`, and `Mcp-Name` for
 * `tools/call`), as a 2026-07-28 HTTP client transport does; a request without the envelope (a
 * 2025-11-25 `initialize`) goes out without them. Closing it closes the whole link.
 */
class HttpClientEnd implements ClientTransport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  private readonly inner: StreamableHTTPClientTransport;
  private isClosed = false;

  constructor(
    private readonly link: { close(): void },
    fetch: LinkFetch,
    readonly identity: string,
  ) {
    this.inner = new StreamableHTTPClientTransport(new URL(HTTP_LINK_URL), { fetch: withEraHeaders(fetch) });
    this.inner.onmessage = (message: JSONRPCMessage) => this.onmessage?.(message);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      if (this.isClosed) return;
      this.isClosed = true;
      this.onclose?.();
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  /** Closes the whole link (both sides). */
  async close(): Promise<void> {
    this.link.close();
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion(version);
  }

  /** Tells the SDK the connection is gone (the inner transport aborts and calls `onclose`). */
  notifyClosed(): void {
    void this.inner.close();
  }
}

/**
 * The link's `fetch` as the client end calls it: `message`, when given, is the POST's body already
 * parsed, handed on so that the link need not parse it again (the caller keeps no hold of it).
 */
type LinkFetch = (input: string | URL, init?: RequestInit, message?: JSONRPCMessage) => Promise<Response>;

/** `fetch` with the 2026-07-28 request headers derived from each POSTed request (see {@link HttpClientEnd}). */
function withEraHeaders(fetch: LinkFetch): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return (input, init) => {
    const parsed = parseMessage(typeof init?.body === 'string' ? init.body : undefined);
    const message = parsed as
      | { method?: unknown; params?: { name?: unknown; _meta?: Record<string, unknown> } }
      | undefined;
    const version = message?.params?._meta?.[PROTOCOL_VERSION_META_KEY];
    if (typeof version !== 'string' || typeof message?.method !== 'string') return fetch(input, init, parsed);
    const headers = new Headers(init?.headers);
    headers.set('MCP-Protocol-Version', version);
    headers.set('Mcp-Method', message.method);
    const name = message.params?.name;
    if (
      message.method === 'tools/call' &&
      typeof name === 'string' &&
      /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(name)
    )
      headers.set('Mcp-Name', name);
    return fetch(input, { ...init, headers }, parsed);
  };
}
