/**
 * Speaking MCP 2026-07-28 (the modern era) with the SDK 1.x `Client`, which knows only the legacy
 * era (2025-11-25). What 2026-07-28 changes for a catalog client, and how this module meets it:
 *
 * - there is no `initialize` session: {@link EnvelopeTransport} presets a session id on the
 *   Client's transport, which makes the SDK `Client` skip its handshake (SDK 1.32.2
 *   `Client.connect`: a transport with a `sessionId` is taken as reconnected);
 * - every request carries its own `_meta` envelope (`io.modelcontextprotocol/protocolVersion`,
 *   `clientCapabilities` and `clientInfo`; a request without it is refused with -32602):
 *   {@link EnvelopeTransport} adds it to every request it sends, beside the request's own `_meta`
 *   keys (the scan id, the lease);
 * - `list_changed` arrives only on a `subscriptions/listen` stream, which the server acknowledges
 *   first (`notifications/subscriptions/acknowledged`), and every notification on it carries the
 *   subscription id: {@link connectModern} opens one stream per connection, asking for
 *   `toolsListChanged`, and the connection counts as open once it was acknowledged (or refused, or
 *   once the caller's wait ran out: a server that never acknowledges must not keep it closed).
 *   The notifications keep their 2025 method name, so the page source's `list_changed` handler
 *   counts them as before. On a new connection (after a cut) the stream is opened again: the
 *   server holds no subscription state; a stream the server ended is opened again on the same
 *   connection, and the gap taken as a missed `list_changed`.
 *
 * A client that speaks both eras learns a server's from its first answer: a modern-only server
 * answers the legacy `initialize` with -32022 (unsupported protocol version), which
 * {@link isUnsupportedProtocolVersion} recognises; the host then connects again in the modern era
 * ({@link EitherEraConnector}). Legacy servers see exactly the legacy client they saw before.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Connection, Connector } from '../discovery/connected-source.ts';

/** The protocol revision of the modern era. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** JSON-RPC code of 2026-07-28's unsupported protocol version error (`UnsupportedProtocolVersionError`). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** `_meta` keys of the 2026-07-28 request envelope and of listen streams. */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_META_KEY = 'io.modelcontextprotocol/clientInfo';
export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/**
 * How long the `subscriptions/listen` request may stay open, ms: the stream is meant to last the
 * connection, and the SDK cancels a request whose timeout runs out (which would end the stream).
 * The largest delay a timer takes (2^31 - 1 ms, about 24.8 days).
 */
export const LISTEN_TIMEOUT_MS = 2_147_483_647;

/** Who the client says it is, in every request's envelope. */
export interface ClientIdentity {
  name: string;
  version: string;
}

/**
 * A `Transport` that speaks the modern era over a plain one: a preset session id (so the SDK 1.x
 * `Client` sends no `initialize`) and the 2026-07-28 envelope added to each request's `_meta`.
 * Everything else passes through unchanged, in both directions.
 */
export class EnvelopeTransport implements Transport {
  /** Preset: the SDK `Client` skips `initialize` on a transport that has a session id. */
  sessionId = 'stateless';
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  readonly #inner: Transport;
  readonly #envelope: Readonly<Record<string, unknown>>;

  constructor(inner: Transport, client: ClientIdentity) {
    this.#inner = inner;
    this.#envelope = {
      [PROTOCOL_VERSION_META_KEY]: MODERN_PROTOCOL_VERSION,
      [CLIENT_CAPABILITIES_META_KEY]: {},
      [CLIENT_INFO_META_KEY]: { name: client.name, version: client.version },
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Sends `message`, a request with the envelope added to its `_meta` (a copy: the caller's object is left alone). */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!('method' in message) || !('id' in message)) return this.#inner.send(message, options);
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const enveloped = { ...message, params: { ...params, _meta: { ...meta, ...this.#envelope } } };
    return this.#inner.send(enveloped as JSONRPCMessage, options);
  }
}

/** `notifications/subscriptions/acknowledged`, as far as the client reads it. */
const AcknowledgedNotificationSchema = z.object({
  method: z.literal('notifications/subscriptions/acknowledged'),
  params: z.looseObject({ notifications: z.looseObject({}).optional(), _meta: z.looseObject({}).optional() }),
});

/** The `subscriptions/listen` result (the stream's graceful end). */
const ListenResultSchema = z.looseObject({});

/** What {@link connectModern} learned of the connection's listen stream. */
export interface ListenState {
  /** Whether the server acknowledged `toolsListChanged` (false: refused, or the stream failed before its acknowledgement). */
  readonly toolsListChanged: boolean;
}

/**
 * How long a client waits for a listen stream's acknowledgement, and the timer it waits with (a
 * port: the host's scheduler). A server that never acknowledges (F27) would otherwise keep the
 * connection from ever opening.
 */
export interface AcknowledgementWait {
  /** ms from the listen request to giving up on its acknowledgement. */
  readonly timeoutMs: number;
  /** Runs `fn` after `delayMs`; returns a function that cancels it. */
  after(delayMs: number, fn: () => void): () => void;
}

/**
 * How many times one connection opens its listen stream again after the server ended it
 * gracefully (a `subscriptions/listen` result) while it carried `toolsListChanged`; past this, the
 * connection is closed and the next request connects anew (a server that ends every stream at
 * once is not answered with a request loop).
 */
export const RELISTENS_MAX = 8;

/** `notifications/tools/list_changed`, as a connection hands a push gap to its own client. */
const MISSED_LIST_CHANGED: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };

/**
 * Connects `client` to a modern-era server over `transport` and opens one `subscriptions/listen`
 * stream for `toolsListChanged`. Resolves once the server acknowledged the stream, once the
 * listen request failed, or once `wait` (when given) ran out before an acknowledgement (a server
 * that cannot push, or will not: the host then learns of changes only by listing again, and the
 * stream, if it is acknowledged later, still counts its notifications); rejects when the
 * connection cannot be made.
 *
 * When the server later ends a stream that carried changes (its `subscriptions/listen` result,
 * `resultType: "complete"`), a change made from then until a new stream is open would go unheard:
 * the connection hands its client a `notifications/tools/list_changed` it may have missed (the
 * page source takes it as any other: the walk in progress is cut and a fresh one is due, as for a
 * new connection) and opens the stream again on the same connection, at once and without waiting
 * for its acknowledgement, so a refresh owed meanwhile never waits on a reconnect (seed 1 round
 * 3014 of the default scenario: closing the connection instead put a back-off and an
 * acknowledgement wait before the owed list, past I19's bound). After {@link RELISTENS_MAX} such
 * ends the connection is closed instead. A stream that honoured nothing loses nothing by ending
 * (the Streamable HTTP entry of the v2 server package ends it at once): it is left ended.
 */
export async function connectModern(
  client: Client,
  transport: Transport,
  identity: ClientIdentity,
  wait?: AcknowledgementWait,
): Promise<ListenState> {
  const envelope = new EnvelopeTransport(transport, identity);
  await client.connect(envelope);
  let honoured = false;
  let relistens = 0;
  return new Promise<ListenState>((resolveOnce) => {
    const cancel = wait?.after(wait.timeoutMs, () => resolveOnce({ toolsListChanged: false }));
    const resolve = (state: ListenState): void => {
      cancel?.();
      resolveOnce(state);
    };
    client.setNotificationHandler(AcknowledgedNotificationSchema, (notification) => {
      honoured = notification.params.notifications?.toolsListChanged === true;
      resolve({ toolsListChanged: honoured });
    });
    const listen = (): void => {
      const request = { method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } };
      client.request(request, ListenResultSchema, { timeout: LISTEN_TIMEOUT_MS }).then(
        () => {
          resolve({ toolsListChanged: false });
          if (!honoured) return;
          honoured = false;
          if (relistens >= RELISTENS_MAX) {
            void client.close().catch(() => undefined);
            return;
          }
          relistens += 1;
          envelope.onmessage?.(MISSED_LIST_CHANGED);
          listen();
        },
        () => resolve({ toolsListChanged: false }),
      );
    };
    listen();
  });
}

/**
 * Whether `error` is a server's answer that it does not speak the protocol revision asked for
 * (-32022): a JSON-RPC error, or over Streamable HTTP an HTTP 400 whose body is that JSON-RPC
 * error (the SDK's `StreamableHTTPError` has the status as its code and quotes the body).
 */
export function isUnsupportedProtocolVersion(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === UNSUPPORTED_PROTOCOL_VERSION) return true;
  if (code !== 400 || !(error instanceof Error)) return false;
  const body = error.message.replace(/^Streamable HTTP error: Error POSTing to endpoint: ?/, '').trim();
  try {
    return (JSON.parse(body) as { error?: { code?: unknown } } | null)?.error?.code === UNSUPPORTED_PROTOCOL_VERSION;
  } catch {
    return false;
  }
}

/** The two ways a host's connector opens a connection (the world's, or a real one). */
export interface EraConnectors {
  /** A legacy-era connection: an SDK `Client` connected with `initialize`. */
  connect(): Promise<Connection>;
  /** A connection on a plain transport the caller's `handshake` makes its own (see `connectModern`). */
  connectTransport(
    handshake: (transport: Transport) => Promise<void>,
  ): Promise<{ transport: Transport; identity: () => string }>;
}

/**
 * A {@link Connector} that speaks whichever era the server speaks: it connects in the legacy era
 * until a server answers `initialize` with -32022 (unsupported protocol version), then connects
 * in the modern era from then on, on a new connection, with a `Client` from `createClient`.
 */
export class EitherEraConnector implements Connector {
  #modern = false;

  /** `wait` bounds the wait for each listen stream's acknowledgement (none: wait as long as it takes). */
  constructor(
    private readonly connectors: EraConnectors,
    private readonly createClient: () => Client,
    protected readonly identity: ClientIdentity,
    protected readonly wait?: AcknowledgementWait,
  ) {}

  /** Whether the server was found to speak the modern era. */
  modern(): boolean {
    return this.#modern;
  }

  async connect(): Promise<Connection> {
    if (!this.#modern) {
      try {
        return await this.connectors.connect();
      } catch (error) {
        if (!isUnsupportedProtocolVersion(error)) throw error;
        this.#modern = true;
      }
    }
    const client = this.createClient();
    const opened = await this.connectors.connectTransport((transport) => this.handshake(client, transport));
    return { client, identity: opened.identity };
  }

  /**
   * The modern handshake on one new connection: connect without `initialize`, and listen (every
   * connection, the first and each after a reconnect: the server holds no subscription state).
   * A seam for checker-validation mutants (cores/mutants), which remove exactly this defence.
   */
  protected async handshake(client: Client, transport: Transport): Promise<void> {
    await connectModern(client, transport, this.identity, this.wait);
  }
}
