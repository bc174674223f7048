/**
 * A remote MCP server reached over HTTP through the SDK `Client` (the `--url` way `catsim
 * discover` and `catsim capture` reach a server; `--stdio` is stdio-server.ts). The Streamable HTTP transport is tried first; when its `initialize` POST
 * is answered with a 4xx status, the legacy HTTP+SSE transport is tried on the same URL, as the
 * SDK's client guide recommends (docs/client.md, "Transports and backwards compatibility").
 *
 * What can go wrong, each one line naming the URL (a {@link ConnectError}): the URL is not
 * http(s); the host cannot be reached (refused, unknown, TLS certificate not trusted); no answer
 * to `initialize` within the timeout; an HTTP error status; an answer that is not MCP (wrong
 * content type, not JSON, not a JSON-RPC initialize result); the connection closing early.
 *
 * A real-world port of the host (see connected-server.ts): it opens sockets and arms real timers
 * (the `initialize` deadline, the bounded wait for the end of a session); never used inside
 * simulated rounds.
 */
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { $ZodError } from 'zod/v4/core';
import { recordProtocolVersion } from '../mcp/discover.ts';
import { connectModern, MODERN_PROTOCOL_VERSION, UNSUPPORTED_PROTOCOL_VERSION } from '../mcp/modern-era.ts';
import { noteFirstErrorResponse } from '../mcp/server-errors.ts';
import { ConnectError } from './connect-error.ts';
import type { ConnectedServer, ConnectOptions } from './connected-server.ts';
import { parseServerUrl } from './server-url.ts';
import { certificateFingerprint } from './tls-fingerprint.ts';

/** The longest wait for the server to acknowledge the end of a session (HTTP DELETE) on close. */
const SESSION_END_TIMEOUT_MS_MAX = 2000;
/** The most characters of an error body quoted in a message. */
const BODY_QUOTE_LENGTH_MAX = 200;

/**
 * Connects to the MCP server at `text` (Streamable HTTP, then legacy HTTP+SSE after a 4xx). For
 * `https:` the certificate's fingerprint is read first, for the identity. The label is
 * `server "TEXT"`; the identity `http:` or `https:` + SHA-256 hex (see {@link ConnectedServer}).
 * @throws ConnectError (one line) when the URL is bad or the server cannot be reached or greeted,
 *   e.g. `server "http://127.0.0.1:9/mcp" cannot be reached: connect ECONNREFUSED 127.0.0.1:9`.
 */
export async function connectUrl(text: string, options: ConnectOptions): Promise<ConnectedServer> {
  const url = parseServerUrl(text);
  const label = `server "${text}"`;
  const identity = await urlIdentity(url, label, options.timeoutMs);
  const reached = (session: Session, transport: 'streamable-http' | 'sse'): ConnectedServer => ({
    ...session,
    label,
    identity,
    source: { command: '', url: text, transport },
  });
  try {
    return reached(await greet(new StreamableHTTPClientTransport(url), options), 'streamable-http');
  } catch (error) {
    const failure = error as AttemptFailure;
    if (failure.modernOnly) {
      // A 2026-07-28 server refused the 2025 `initialize` (-32022): speak its era instead.
      try {
        const modern = new StreamableHTTPClientTransport(url, { fetch: withModernHeaders(fetch) });
        return reached(await greetModern(modern, options), 'streamable-http');
      } catch (modernError) {
        throw new ConnectError(
          `${label} ${failure.message}; in the 2026-07-28 era it ${(modernError as AttemptFailure).message}`,
        );
      }
    }
    if (!failure.clientError) throw new ConnectError(`${label} ${failure.message}`);
    try {
      return reached(await greet(new SSEClientTransport(url), options), 'sse');
    } catch (sseError) {
      throw new ConnectError(
        `${label} ${failure.message}; over the legacy HTTP+SSE transport it ${(sseError as AttemptFailure).message}`,
      );
    }
  }
}

/** `http:HEX` of the URL, or `https:HEX` of the URL and the certificate fingerprint. */
async function urlIdentity(url: URL, label: string, timeoutMs: number): Promise<string> {
  if (url.protocol === 'http:') return `http:${sha256(url.href)}`;
  try {
    return `https:${sha256(`${url.href} ${await certificateFingerprint(url, { timeoutMs })}`)}`;
  } catch (error) {
    throw new ConnectError(`${label} cannot be reached: ${firstLine(error)}`);
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A connected Client over one transport, before it is labelled. */
type Session = Pick<ConnectedServer, 'client' | 'protocolVersion' | 'serverInfo' | 'messageTooLarge' | 'close'>;

/** Why one transport failed to greet the server, as words following the label. */
class AttemptFailure extends Error {
  /** True when the server answered the Streamable HTTP POST with a 4xx status: try legacy SSE. */
  readonly clientError: boolean;
  /** True when the server refused `initialize` as an unsupported protocol version (-32022): try 2026-07-28. */
  readonly modernOnly: boolean;

  constructor(why: string, clientError: boolean, modernOnly = false) {
    super(why);
    this.clientError = clientError;
    this.modernOnly = modernOnly;
  }
}

/**
 * Connects a fresh Client over `transport` and waits for `initialize`, `timeoutMs` at most in
 * all (the legacy SSE transport may wait forever for its endpoint event otherwise).
 * @throws AttemptFailure saying why, transport closed.
 */
async function greet(transport: Transport, options: ConnectOptions): Promise<Session> {
  const version = recordProtocolVersion(transport);
  const client = await openClient(
    transport,
    options,
    (fresh) => fresh.connect(transport, { timeout: options.timeoutMs }),
    (error, why, serverError) =>
      new AttemptFailure(why, isClientErrorStatus(error), isUnsupportedVersionAnswer(error, serverError)),
  );
  return {
    client,
    protocolVersion: version,
    serverInfo: () => client.getServerVersion(),
    messageTooLarge: () => false,
    close: () => closeSession(client, transport),
  };
}

/**
 * Connects a fresh Client in the 2026-07-28 era over `transport` (no `initialize`: the request
 * envelope on every request, one `subscriptions/listen` stream; src/mcp/modern-era.ts), `timeoutMs`
 * at most until the stream is acknowledged or refused.
 * @throws AttemptFailure saying why, transport closed.
 */
async function greetModern(transport: Transport, options: ConnectOptions): Promise<Session> {
  const client = await openClient(
    transport,
    options,
    (fresh, identity) => {
      // Over HTTP every 2026-07-28 request carries the MCP-Protocol-Version header too, equal to the envelope's.
      transport.setProtocolVersion?.(MODERN_PROTOCOL_VERSION);
      return connectModern(fresh, transport, identity);
    },
    (_error, why) => new AttemptFailure(why, false),
  );
  return {
    client,
    protocolVersion: () => MODERN_PROTOCOL_VERSION,
    serverInfo: () => client.getServerVersion(),
    messageTooLarge: () => false,
    close: () => client.close().catch(() => undefined),
  };
}

/**
 * A fresh Client named by `options` (`beforeConnect` applied), opened over `transport` by `open`
 * within `options.timeoutMs` ms in all, whichever era `open` speaks.
 * @throws what `failure` makes of the error, the one-line reason (describeFailure: the error, the
 *   transport's first error, the server's first error answer) and that answer; the transport is
 *   closed first.
 */
async function openClient(
  transport: Transport,
  options: ConnectOptions,
  open: (client: Client, identity: { name: string; version: string }) => Promise<unknown>,
  failure: (error: unknown, why: string, serverError: ReturnType<ReturnType<typeof noteFirstErrorResponse>>) => Error,
): Promise<Client> {
  const serverError = noteFirstErrorResponse(transport);
  const identity = { name: options.clientName, version: options.clientVersion ?? '0.1.0' };
  const client = new Client(identity, { capabilities: {} });
  options.beforeConnect?.(client);
  let transportError: unknown;
  client.onerror = (error) => {
    transportError = error;
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpError(ErrorCode.RequestTimeout, 'initialize timed out')), options.timeoutMs); // real-clock: real HTTP connect, outside simulated rounds
  });
  try {
    await Promise.race([open(client, identity), deadline]);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw failure(error, describeFailure(error, options.timeoutMs, transportError, serverError()), serverError());
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/**
 * `fetchImpl` with the per-request headers 2026-07-28 asks of Streamable HTTP beside the body's
 * envelope: `Mcp-Method` (the JSON-RPC method of a POSTed request) and, for `tools/call` and
 * `prompts/get`, `Mcp-Name` (the `name` param, when it is printable ASCII; the server checks it
 * against the body). The MCP-Protocol-Version header is the transport's own (`setProtocolVersion`).
 */
function withModernHeaders(fetchImpl: typeof fetch): typeof fetch {
  type PostedMessage = { method?: unknown; params?: { name?: unknown } };
  return (input, init) => {
    if (init?.method !== 'POST' || typeof init.body !== 'string') return fetchImpl(input, init);
    let message: PostedMessage | null;
    try {
      message = JSON.parse(init.body) as PostedMessage | null;
    } catch {
      return fetchImpl(input, init);
    }
    const headers = new Headers(init.headers);
    if (typeof message?.method === 'string') headers.set('Mcp-Method', message.method);
    const name = message?.params?.name;
    if (
      (message?.method === 'tools/call' || message?.method === 'prompts/get') &&
      typeof name === 'string' &&
      /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(name)
    )
      headers.set('Mcp-Name', name);
    return fetchImpl(input, { ...init, headers });
  };
}

/** Whether the failed `initialize` was answered with -32022, in a JSON-RPC error or in an HTTP 4xx body. */
function isUnsupportedVersionAnswer(error: unknown, serverError: { code: number } | undefined): boolean {
  if (serverError?.code === UNSUPPORTED_PROTOCOL_VERSION) return true;
  if (!isClientErrorStatus(error)) return false;
  const body = (error as Error).message.replace(/^Streamable HTTP error: Error POSTing to endpoint: ?/, '').trim();
  try {
    return (JSON.parse(body) as { error?: { code?: unknown } } | null)?.error?.code === UNSUPPORTED_PROTOCOL_VERSION;
  } catch {
    return false;
  }
}

/** Ends a Streamable HTTP session politely (DELETE, bounded wait), then the connection. */
async function closeSession(client: Client, transport: Transport): Promise<void> {
  if (transport instanceof StreamableHTTPClientTransport) {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SESSION_END_TIMEOUT_MS_MAX); // real-clock: real HTTP session end, outside simulated rounds
    });
    await Promise.race([transport.terminateSession().catch(() => undefined), waited]);
    clearTimeout(timer);
  }
  await client.close().catch(() => undefined);
}

function isClientErrorStatus(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400 && error.code < 500;
}

/**
 * Words after `server "URL"` for a failed `initialize`, one line: the server's own JSON-RPC
 * error when it answered with one (whatever its code), else by the SDK's error class and code.
 */
function describeFailure(
  error: unknown,
  timeoutMs: number,
  transportError: unknown,
  serverError: { code: number; message: string } | undefined,
): string {
  if (serverError !== undefined)
    return `answered initialize with error ${serverError.code}: ${firstLine(serverError.message)}`;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === ErrorCode.RequestTimeout) {
    const last = transportError === undefined ? '' : ` (last transport error: ${firstLine(transportError)})`;
    return `did not answer initialize within ${timeoutMs} ms${last}`;
  }
  if (code === ErrorCode.ConnectionClosed) return 'closed the connection during initialize';
  const network = networkCause(error);
  if (network !== undefined) return `cannot be reached: ${network}`;
  if (error instanceof StreamableHTTPError && typeof code === 'number' && code > 0) {
    return `answered initialize with HTTP ${code}${bodyQuote(error.message)}${code === 401 ? ' (catsim sends no credentials)' : ''}`;
  }
  if (error instanceof SseError && typeof code === 'number' && code >= 300)
    return `answered the event-stream GET with HTTP ${code}`;
  const notMcp = notMcpGloss(error);
  if (notMcp !== undefined) return `answered initialize with something that is not MCP: ${notMcp}`;
  return `failed during initialize: ${firstLine(error)}`;
}

/** What `fetch` said when it could not reach the host (refused, unknown host, TLS), if that is it. */
function networkCause(error: unknown): string | undefined {
  if (!(error instanceof TypeError) || error.cause === undefined) return undefined;
  const cause = error.cause as { message?: unknown; code?: unknown; errors?: unknown };
  // fetch refuses some ports outright (the Fetch standard's "bad ports": 1, 9, 25, 6000, ...).
  if (cause.message === 'bad port')
    return "fetch refuses to connect to this port (on the Fetch standard's list of bad ports)";
  if (typeof cause.message === 'string' && cause.message !== '') return firstLine(cause.message);
  if (Array.isArray(cause.errors) && cause.errors.length > 0)
    return firstLine(cause.errors.map((inner) => firstLine(inner)).join('; '));
  return typeof cause.code === 'string' ? cause.code : firstLine(error);
}

/**
 * `: QUOTE` from an HTTP error body (its JSON-RPC `error.message` when it is one, else its first
 * line, at most 200 characters), or nothing for an empty body.
 */
function bodyQuote(message: string): string {
  const body = message.replace(/^Streamable HTTP error: Error POSTing to endpoint: ?/, '').trim();
  let quoted = firstLine(body);
  try {
    const rpcMessage = (JSON.parse(body) as { error?: { message?: unknown } } | null)?.error?.message;
    if (typeof rpcMessage === 'string') quoted = firstLine(rpcMessage);
  } catch {
    // Not JSON: the first line is quoted.
  }
  return quoted === '' || quoted === 'null' ? '' : `: ${quoted.slice(0, BODY_QUOTE_LENGTH_MAX)}`;
}

/** Why an answer is not MCP, for the error classes the transports raise on garbage. */
function notMcpGloss(error: unknown): string | undefined {
  if (error instanceof StreamableHTTPError)
    return firstLine(error.message.replace(/^Streamable HTTP error: /, '')).replace(
      /^Unexpected content type: (.*)$/,
      'the content type is $1',
    );
  if (error instanceof SseError) return firstLine(error.message.replace(/^SSE error: /, ''));
  if (error instanceof SyntaxError) return 'the body is not JSON';
  if (error instanceof $ZodError) return 'the answer is not a JSON-RPC initialize result';
  return undefined;
}

function firstLine(value: unknown): string {
  return (value instanceof Error ? value.message : String(value)).split('\n')[0] as string;
}
