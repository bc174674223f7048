/**
 * The shape every real-server connector of `src/connect/` returns: a connected SDK `Client`, the
 * server identity of SPEC section 1, a label for one-line errors, and a `close` that never
 * rejects. A host reaches a server with `connectStdio` (a child process, stdio-server.ts) or
 * `connectUrl` (Streamable HTTP, legacy HTTP+SSE after a 4xx, url-server.ts), or with
 * `connectServer` (connect-server.ts), which picks one of them from a {@link ServerTarget}.
 *
 * These connectors are the host's real-world ports: they spawn processes, open sockets and arm
 * real timers. Nothing inside a simulated round uses them (the simulator hands the core its own
 * in-memory connections); everything they need is passed in, timeouts in ms.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';

/** How to greet the server, whichever way it is reached. */
export interface ConnectOptions {
  /**
   * Milliseconds to wait for the answer to `initialize` (and, over https, for the TLS handshake
   * that reads the certificate fingerprint). A positive integer.
   */
  timeoutMs: number;
  /** The `clientInfo.name` sent at `initialize`, e.g. `catsim-discover`. */
  clientName: string;
  /** The `clientInfo.version` sent at `initialize`. Default `0.1.0`. */
  clientVersion?: string;
  /**
   * Called with the Client before it connects, to install notification handlers that must not
   * miss what a server sends right after initialisation (server-everything's `list_changed`).
   * Over HTTP it may be called twice, once per Client, when the legacy SSE fallback is tried.
   */
  beforeConnect?: (client: Client) => void;
}

/**
 * Where a connection came from, e.g. for a catalog file's `source`: the stdio command line, or an
 * empty `command` beside the URL and the transport that answered (`streamable-http` or `sse`).
 */
export type ServerSource = { command: string } | { command: ''; url: string; transport: 'streamable-http' | 'sse' };

/** Exactly one way to reach a server: a stdio command line or an http(s) URL. */
export type ServerTarget = { stdio: string } | { url: string };

/** A connected server. Close it with {@link ConnectedServer.close}. */
export interface ConnectedServer {
  /** The SDK Client, connected with empty client capabilities and no listChanged auto-refresh. */
  client: Client;
  /** Names the server in one-line errors: `server "CMD ARGS"` or `server "URL"`. */
  label: string;
  /**
   * The server identity (SPEC section 1), never its self-reported `serverInfo`:
   * `stdio:` + SHA-256 hex of the command line; `http:` + SHA-256 hex of the URL;
   * `https:` + SHA-256 hex of the URL, a space and the certificate's SHA-256 fingerprint.
   */
  identity: string;
  /** How it was reached. */
  source: ServerSource;
  /** The protocol version negotiated at `initialize`, once known. */
  protocolVersion: () => string | undefined;
  /** The `serverInfo` the server sent at `initialize`. */
  serverInfo: () => Implementation | undefined;
  /**
   * True once the connection was closed because one incoming message was longer than the
   * transport reads (stdio: `messageBytesMax`); a caller reports that as a size refusal, not as
   * a disconnect worth retrying. Always false over HTTP, which has no such limit.
   */
  messageTooLarge: () => boolean;
  /**
   * Ends the session and the connection; for a stdio server also its child process and that
   * process's group (SIGTERM, then SIGKILL after the grace period). Never rejects.
   */
  close: () => Promise<void>;
}
