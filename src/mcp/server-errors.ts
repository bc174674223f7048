/**
 * Tells a server's JSON-RPC error from an error the SDK raised itself, by origin, never by code.
 *
 * The SDK `Client` rejects a request with an `McpError` in both cases, and the codes overlap: its
 * own request timeout is -32001 (`ErrorCode.RequestTimeout`, created locally by the timer in
 * `Protocol.request`) and its closed connection -32000, yet a server may answer any request with
 * an error response carrying -32001 or -32000 too (`Protocol._onresponse` turns that response into
 * an `McpError` with the server's code, message and data). Only the wire tells them apart: a
 * server's error arrives as a JSON-RPC error response with the request's id. A
 * {@link ServerErrorWatch} sits on the Client's transport, notes the id of each request it tracks
 * as it is sent and any error response that comes back for it, and turns such a rejection into a
 * {@link ServerErrorResponse}; every other rejection (the SDK's timeout, a closed connection, a
 * result that fails its schema) passes through unchanged.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** The server answered a request with a JSON-RPC error response (its code, message and data). */
export class ServerErrorResponse extends Error {
  override readonly name = 'ServerErrorResponse';
  /** The JSON-RPC error code the server sent, e.g. -32001. */
  readonly code: number;
  /** The server's `error.message`, as sent. */
  readonly serverMessage: string;
  /** The server's `error.data`, as sent (undefined when absent). */
  readonly data: unknown;

  constructor(error: { code: number; message: string; data?: unknown }, cause: unknown) {
    super(`error ${error.code}: ${error.message}`, { cause });
    this.code = error.code;
    this.serverMessage = error.message;
    this.data = error.data;
  }
}

/** The error object of a JSON-RPC error response. */
type RpcError = { code: number; message: string; data?: unknown };

/**
 * Watches one connected transport (the Client's, `client.transport`) for error responses to the
 * requests it tracks. Install it after `Client.connect` (connect replaces the transport's
 * handlers) and at most once per transport; requests it does not track are untouched.
 */
export class ServerErrorWatch {
  /** Ids of tracked requests still in flight, with the error response received for each, if any. */
  readonly #inFlight = new Map<RequestId, RpcError | undefined>();
  /** What `start` is sending, while {@link track} runs it: the messages that may be requests. */
  #sent: JSONRPCMessage[] | undefined;

  constructor(transport: Transport) {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      this.#observe(message);
      deliver?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (this.#sent !== undefined && mayBeRequest(message)) this.#sent.push(message);
      return send(message, options);
    };
  }

  /**
   * Runs `start`, which must send exactly one request synchronously and return its promise (as
   * `client.request(...)` does: the SDK writes the request before it returns).
   * @returns what `start`'s promise resolves to.
   * @throws ServerErrorResponse when the server answered that request with an error response;
   *   otherwise whatever `start`'s promise rejected with (the SDK's own timeout, a closed
   *   connection, a schema failure, ...).
   */
  async track<T>(start: () => Promise<T>): Promise<T> {
    const { pending, sent } = this.#send(start);
    try {
      return await pending;
    } catch (error) {
      const request = sent.find((message) => isJSONRPCRequest(message)) as JSONRPCRequest | undefined;
      const answer = request === undefined ? undefined : this.#inFlight.get(request.id);
      throw answer === undefined ? error : new ServerErrorResponse(answer, error);
    } finally {
      for (const message of sent) this.#inFlight.delete(message.id);
    }
  }

  /**
   * Calls `start` while noting what it sends that may be a request (`id` and `method` present);
   * no answer can arrive before this returns. Error responses to all of them are noted (a
   * Client's request ids come from one counter, so none is shared with another request in
   * flight); the SDK's schema check, which tells the tracked request among them (the first that
   * passes it), runs only when that request fails: one that succeeds never needs it.
   */
  #send<T>(start: () => Promise<T>): { pending: Promise<T>; sent: (JSONRPCMessage & { id: RequestId })[] } {
    const sent: JSONRPCMessage[] = [];
    this.#sent = sent;
    try {
      const pending = start();
      for (const message of sent) this.#inFlight.set((message as { id: RequestId }).id, undefined);
      return { pending, sent: sent as (JSONRPCMessage & { id: RequestId })[] };
    } finally {
      this.#sent = undefined;
    }
  }

  /**
   * Notes an error response to a tracked request. The SDK's schema check (a zod parse) runs only
   * on a message that has an `error` member and the id of a tracked request: every other message
   * (results, requests, notifications, answers to untracked requests) fails one of those two
   * structural tests, which the schema also requires, so the outcome is the same without it.
   */
  #observe(message: JSONRPCMessage): void {
    if (this.#inFlight.size === 0 || !mayBeErrorResponse(message)) return;
    if (!this.#inFlight.has((message as { id?: RequestId }).id as RequestId)) return;
    if (!isJSONRPCErrorResponse(message) || message.id === undefined) return;
    this.#inFlight.set(message.id, message.error);
  }
}

/**
 * False when `message` cannot be a JSON-RPC error response (no own-or-inherited `error` member,
 * which the SDK's `JSONRPCErrorResponseSchema` requires); true means "run the schema".
 */
function mayBeErrorResponse(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'error' in message;
}

/**
 * False when `message` cannot be a JSON-RPC request (`JSONRPCRequestSchema` requires both `id`
 * and `method`); true means "run the schema".
 */
function mayBeRequest(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'method' in message && 'id' in message;
}

/** The one watch of each transport, so that page requests and calls on one Client share it. */
const watches = new WeakMap<Transport, ServerErrorWatch>();

/**
 * The {@link ServerErrorWatch} of a connected transport (`client.transport`), made on first use
 * and shared by everything that tracks requests on it (the scan's page source, `tools/call`
 * dispatch), so a transport is never wrapped twice.
 */
export function serverErrorWatchOf(transport: Transport): ServerErrorWatch {
  let watch = watches.get(transport);
  if (watch === undefined) watches.set(transport, (watch = new ServerErrorWatch(transport)));
  return watch;
}

/**
 * Notes the first JSON-RPC error response `transport` delivers, for the `initialize` phase: call
 * it before `Client.connect` (connect keeps a message handler set before it and calls it first).
 * Until `initialize` is answered it is the only request in flight, so an error response is the
 * server's answer to it; a rejection of `connect` without one came from the SDK (its timeout, a
 * closed connection).
 * @returns a reader of that error (code, message, data as sent), undefined while none arrived.
 */
export function noteFirstErrorResponse(transport: Transport): () => RpcError | undefined {
  let first: RpcError | undefined;
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (first === undefined && mayBeErrorResponse(message) && isJSONRPCErrorResponse(message)) first = message.error;
    deliver?.(message, extra);
  };
  return () => first;
}
