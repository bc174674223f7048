/**
 * A real MCP server started as a child process and connected over stdio through the SDK
 * `Client` (the `--stdio` way `catsim discover` and `catsim capture` reach a server; `--url` is
 * url-server.ts). Every way the server can fail to come up (no such command, exits early, never
 * answers `initialize`, closes during it) becomes a {@link ConnectError} with one line naming the
 * command and, when it wrote any, its last stderr line; the child is ended before it is thrown.
 *
 * A real-world port of the host (see connected-server.ts): it spawns a process and arms real
 * timers; never used inside simulated rounds.
 */
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { recordProtocolVersion } from '../mcp/discover.ts';
import { noteFirstErrorResponse } from '../mcp/server-errors.ts';
import { ChildProcessTransport } from './child-process-transport.ts';
import { splitCommandLine } from './command-line.ts';
import { ConnectError } from './connect-error.ts';
import type { ConnectedServer, ConnectOptions } from './connected-server.ts';

/** The stdio-only settings; see {@link ChildProcessTransport} for what each bounds. */
export interface StdioOptions {
  /** Longest incoming message, bytes (default 10 MiB, the SDK's); a longer one closes the connection. */
  messageBytesMax?: number;
  /** Wait between SIGTERM and SIGKILL when the connection closes, ms (default 500). */
  killGraceMs?: number;
  /** Variables added to the SDK's default environment. */
  env?: Record<string, string>;
  /** Working directory of the server; default the host's. */
  cwd?: string;
  /**
   * Gives up connecting when aborted before the server answered `initialize`: the child's whole
   * process group is ended (a terminal's Ctrl-C does not reach it, it runs in a group of its own)
   * and the connector rejects with a ConnectError `connecting to server "CMD" was interrupted`.
   * Has no effect once connected (close the returned server instead).
   */
  signal?: AbortSignal;
}

/** A connected stdio server: a {@link ConnectedServer} whose child can be seen. */
export interface StdioServer extends ConnectedServer {
  /** The last 2000 characters the server wrote on stderr. */
  stderr: () => string;
  /** The child's process id (it leads its own process group). */
  pid: number | undefined;
}

/**
 * Starts `commandLine` (split like a simple POSIX shell line, no expansion, no shell) and
 * connects to it. The child's stderr is captured, not shown. Its identity is `stdio:` + the
 * SHA-256 hex of `commandLine`; its label `server "COMMAND LINE"`.
 * @throws ConnectError (one line) when the line is empty or has an open quote, the command does
 *   not exist, or the server exits, closes or stays silent (`options.timeoutMs`) before answering
 *   `initialize`, e.g. `server "node server.js" did not answer initialize within 2000 ms (...)`.
 */
export async function connectStdio(commandLine: string, options: ConnectOptions & StdioOptions): Promise<StdioServer> {
  const [command, ...args] = splitCommandLine(commandLine);
  if (command === undefined)
    throw new ConnectError('--stdio needs a command, e.g. --stdio "npx mcp-server-everything"');
  const transport = new ChildProcessTransport({
    command,
    args,
    env: options.env,
    cwd: options.cwd,
    messageBytesMax: options.messageBytesMax,
    killGraceMs: options.killGraceMs,
  });
  let stderr = '';
  transport.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-2000);
  });
  const version = recordProtocolVersion(transport);
  const serverError = noteFirstErrorResponse(transport);
  const client = new Client(
    { name: options.clientName, version: options.clientVersion ?? '0.1.0' },
    { capabilities: {} },
  );
  options.beforeConnect?.(client);
  // Named by the whole command line, as the label names it once connected (not by its first word).
  const closed = new Promise<never>((_, reject) => {
    transport.onclose = () =>
      reject(new ConnectError(`server "${commandLine}" exited before answering${lastLine(stderr)}`));
  });
  closed.catch(() => undefined);
  const interrupted = whenAborted(options.signal, commandLine);
  try {
    await Promise.race([client.connect(transport, { timeout: options.timeoutMs }), closed, interrupted.promise]);
  } catch (error) {
    await transport.close();
    throw connectError(command, commandLine, error, options.timeoutMs, stderr, serverError());
  } finally {
    interrupted.detach();
  }
  return {
    client,
    label: `server "${commandLine}"`,
    identity: `stdio:${createHash('sha256').update(commandLine, 'utf8').digest('hex')}`,
    source: { command: commandLine },
    protocolVersion: version,
    serverInfo: () => client.getServerVersion(),
    messageTooLarge: () => transport.messageTooLarge(),
    stderr: () => stderr,
    pid: transport.pid,
    close: () => client.close().catch(() => undefined),
  };
}

/**
 * The one line for a failed `initialize`: the server's own JSON-RPC error when it answered with
 * one (whatever its code), else by the SDK's or Node's error code. The server is named by its
 * whole `commandLine`; a command not found, by the `command` itself.
 */
function connectError(
  command: string,
  commandLine: string,
  error: unknown,
  timeoutMs: number,
  stderr: string,
  serverError: { code: number; message: string } | undefined,
): ConnectError {
  if (error instanceof ConnectError) return error;
  if (serverError !== undefined)
    return new ConnectError(
      `server "${commandLine}" answered initialize with error ${serverError.code}: ${serverError.message.split('\n')[0]}`,
    );
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return new ConnectError(`cannot start server: command "${command}" not found`);
  if (code === -32001)
    return new ConnectError(
      `server "${commandLine}" did not answer initialize within ${timeoutMs} ms (not an MCP server, or it writes something else on stdout)${lastLine(stderr)}`,
    );
  if (code === -32000)
    return new ConnectError(`server "${commandLine}" closed the connection during initialize${lastLine(stderr)}`);
  return new ConnectError(
    `server "${commandLine}" failed during initialize: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
  );
}

/**
 * A promise that rejects with the interruption's ConnectError when `signal` aborts (at once if it
 * already has) and otherwise never settles; `detach` removes its listener.
 */
function whenAborted(
  signal: AbortSignal | undefined,
  commandLine: string,
): { promise: Promise<never>; detach: () => void } {
  let onAbort = (): void => undefined;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(new ConnectError(`connecting to server "${commandLine}" was interrupted`));
  });
  promise.catch(() => undefined);
  if (signal?.aborted === true) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  return { promise, detach: () => signal?.removeEventListener('abort', onAbort) };
}

/** ` (its stderr: LAST LINE)`, or nothing when the server wrote nothing on stderr. */
function lastLine(stderr: string): string {
  const line = stderr.trim().split('\n').at(-1);
  return line === undefined || line === '' ? '' : ` (its stderr: ${line.slice(0, 200)})`;
}
