/**
 * One entry point to the real-server connectors: a {@link ServerTarget} (a stdio command line or
 * an http(s) URL) in, a {@link ConnectedServer} out. A real-world port of the host (see
 * connected-server.ts); never used inside simulated rounds.
 */
import type { ConnectedServer, ConnectOptions, ServerTarget } from './connected-server.ts';
import { connectStdio, type StdioOptions } from './stdio-server.ts';
import { connectUrl } from './url-server.ts';

/**
 * Connects to `target`: starts the stdio child process (with the stdio-only settings of
 * `options`), or opens an HTTP session (where they are ignored).
 * @throws ConnectError (one line) when the server cannot be started, reached or greeted; see
 *   `connectStdio` and `connectUrl` for the messages.
 */
export function connectServer(target: ServerTarget, options: ConnectOptions & StdioOptions): Promise<ConnectedServer> {
  return 'url' in target ? connectUrl(target.url, options) : connectStdio(target.stdio, options);
}
