/**
 * The real MCP server `catsim discover` and `catsim capture` talk to, reached either as a child
 * process over stdio (`--stdio CMD`, cli/stdio-server.ts) or over HTTP (`--url URL`,
 * cli/url-server.ts). Both connections look the same to the commands: an SDK `Client`, the
 * server identity of SPEC section 1, a label for one-line errors, and a `close` that never rejects.
 *
 * Workflow: {@link serverTarget} checks the command line (exactly one of `--stdio` and `--url`),
 * then {@link connectServer} connects; the command talks through `client` and calls `close`.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { InputError } from './errors.ts';
import { connectStdio } from './stdio-server.ts';
import { connectUrl, parseServerUrl } from './url-server.ts';

/** How to greet the server, whichever way it is reached. */
export interface ConnectOptions {
  /** Milliseconds to wait for the answer to `initialize` (and, over HTTP, for the TLS handshake). */
  timeoutMs: number;
  /** The `clientInfo.name` sent at `initialize`, e.g. `catsim-discover`. */
  clientName: string;
  /**
   * Called with the Client before it connects, to install notification handlers that must not
   * miss what a server sends right after initialisation (server-everything's `list_changed`).
   * Over HTTP it may be called twice, once per Client, when the legacy SSE fallback is tried.
   */
  beforeConnect?: (client: Client) => void;
}

/**
 * Where a capture came from, for the catalog file's `source`: the `--stdio` line, or an empty
 * `command` beside the `--url` and the transport that answered (`streamable-http` or `sse`).
 */
export type ServerSource = { command: string } | { command: ''; url: string; transport: 'streamable-http' | 'sse' };

/** A connected server. Close it with {@link ConnectedServer.close}. */
export interface ConnectedServer {
  client: Client;
  /** Names the server in one-line errors: `server "CMD ARGS"` or `server "URL"`. */
  label: string;
  /**
   * The server identity (SPEC section 1), never its self-reported `serverInfo`:
   * `stdio:` + SHA-256 hex of the command line; `http:` + SHA-256 hex of the URL;
   * `https:` + SHA-256 hex of the URL, a space and the certificate's SHA-256 fingerprint.
   */
  identity: string;
  /** How it was reached, for a catalog file's `source`. */
  source: ServerSource;
  /** The protocol version negotiated at `initialize`, once known. */
  protocolVersion: () => string | undefined;
  /** The `serverInfo` the server sent at `initialize`. */
  serverInfo: () => Implementation | undefined;
  /** Ends the session and the connection (and a stdio child process); never rejects. */
  close: () => Promise<void>;
}

/** Exactly one way to reach the server: a stdio command line or an http(s) URL. */
export type ServerTarget = { stdio: string } | { url: string };

/**
 * Reads `--stdio` and `--url` of `command` (`discover`, `capture`); the URL is checked here, so
 * that a bad one is refused before any other work.
 * @throws InputError (one line) `COMMAND needs exactly one of --stdio CMD or --url URL` when both
 *   or neither is given or one is repeated; `--url must be an http(s) URL, got X` for a bad URL.
 */
export function serverTarget(command: string, args: { stdio?: unknown; url?: unknown }): ServerTarget {
  const { stdio, url } = args;
  const given = (value: unknown): boolean => value !== undefined;
  if (given(stdio) === given(url) || Array.isArray(stdio) || Array.isArray(url)) {
    throw new InputError(`${command} needs exactly one of --stdio CMD or --url URL`);
  }
  if (given(url)) {
    parseServerUrl(String(url));
    return { url: String(url) };
  }
  return { stdio: String(stdio) };
}

/**
 * Connects to `target`: starts the stdio child process, or opens an HTTP session.
 * @throws InputError (one line, exit 2) when the server cannot be started, reached or greeted;
 *   see {@link connectStdio} and {@link connectUrl} for the messages.
 */
export function connectServer(target: ServerTarget, options: ConnectOptions): Promise<ConnectedServer> {
  return 'url' in target ? connectUrl(target.url, options) : connectStdio(target.stdio, options);
}
