/**
 * What `catsim discover` and `catsim capture` share about reaching a real server: the
 * `--stdio CMD` / `--url URL` choice, the default page cap, and the lifetime of the connection
 * (closed at the end, and on Ctrl-C or SIGTERM). The connectors themselves are the library's
 * (src/connect/); a {@link ConnectError} they raise is an input error of the command line (one
 * line, exit 2, see cli/main.ts).
 */
import { connectServer } from '../src/connect/connect-server.ts';
import { ConnectError } from '../src/connect/connect-error.ts';
import type { ConnectedServer, ConnectOptions, ServerTarget } from '../src/connect/connected-server.ts';
import { parseServerUrl } from '../src/connect/server-url.ts';
import type { StdioOptions } from '../src/connect/stdio-server.ts';
import { InputError } from './errors.ts';

/** Default of `--page-count-max`, the same for `discover` and `capture`. */
export const PAGE_COUNT_MAX_DEFAULT = 1000;

/**
 * Wait between SIGTERM and SIGKILL of a stdio server's process group when catsim closes the
 * connection, ms: a server that never answers is gone at most about 1 s after `--timeout`.
 */
export const KILL_GRACE_MS = 500;

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
    try {
      parseServerUrl(String(url));
    } catch (error) {
      throw error instanceof ConnectError ? new InputError(error.message) : error;
    }
    return { url: String(url) };
  }
  return { stdio: String(stdio) };
}

/**
 * Connects to `target` with catsim's kill grace ({@link KILL_GRACE_MS}). A SIGINT or SIGTERM while
 * a stdio server is starting ends the server's process group first and then catsim by the same
 * signal (exit 130 or 143 in a shell); {@link withServer} does the same once connected.
 * @throws ConnectError (one line, exit 2) when the server cannot be started, reached or greeted.
 */
export async function connectTarget(
  target: ServerTarget,
  options: ConnectOptions & StdioOptions,
): Promise<ConnectedServer> {
  if ('url' in target) return connectServer(target, { killGraceMs: KILL_GRACE_MS, ...options });
  // A SIGINT or SIGTERM while a stdio server starts: end its process group, then catsim by the
  // same signal (the server runs in a group of its own, which a terminal's Ctrl-C does not reach).
  const interrupt = new AbortController();
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    received = signal;
    interrupt.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const detach = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  try {
    return await connectServer(target, { killGraceMs: KILL_GRACE_MS, ...options, signal: interrupt.signal });
  } catch (error) {
    detach();
    if (received !== undefined) process.kill(process.pid, received);
    throw error;
  } finally {
    detach();
  }
}

/**
 * Runs `work` with `server` open and closes it afterwards, whatever `work` does. A SIGINT or
 * SIGTERM meanwhile closes it first (a stdio server runs in a process group of its own, which a
 * terminal's Ctrl-C does not reach) and then ends catsim by the same signal, as it would have
 * without the handler (exit 130 or 143 in a shell).
 */
export async function withServer<T>(server: ConnectedServer, work: () => Promise<T>): Promise<T> {
  const onSignal = (signal: NodeJS.Signals): void => {
    detach();
    void server.close().finally(() => process.kill(process.pid, signal));
  };
  const detach = (): void => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work();
  } finally {
    detach();
    await server.close();
  }
}

/**
 * A server's JSON-RPC error in words, `error CODE: MESSAGE` (first line, at most 200 characters).
 * The `MCP error CODE: ` prefixes an SDK server adds to its own messages are dropped.
 */
export function serverErrorWords(error: { code: number; message: string }): string {
  const message = (error.message.split('\n')[0] ?? '').replace(/^(MCP error -?\d+: )+/, '');
  return `error ${error.code}: ${message.slice(0, 200)}`;
}
