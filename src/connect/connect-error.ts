/**
 * The one error the real-server connectors of `src/connect/` raise: a server that cannot be
 * started, reached or greeted, or a command line or URL that names none.
 */

/**
 * Why a connector could not open a connection, as one line naming the server (its command or
 * URL) and the cause, e.g. `server "node server.js" did not answer initialize within 2000 ms`. The message
 * is meant to be shown as it is; it never holds a stack trace or a multi-line body.
 */
export class ConnectError extends Error {
  override readonly name = 'ConnectError';
}
