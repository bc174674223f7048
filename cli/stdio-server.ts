/**
 * A real MCP server started as a child process and connected over stdio through the SDK
 * `Client`: the `--stdio` way `catsim discover` and `catsim capture` reach a server (see
 * cli/connected-server.ts; `--url` is cli/url-server.ts). Every way the server can fail to
 * come up (no such command, exits early, never answers `initialize`, closes during it) becomes an
 * {@link InputError} with one line naming the command and, when it wrote any, its last stderr line.
 */
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { recordProtocolVersion } from '../src/mcp/discover.ts';
import { splitCommandLine } from './command-line.ts';
import type { ConnectedServer, ConnectOptions } from './connected-server.ts';
import { InputError } from './errors.ts';

/** A connected stdio server: a {@link ConnectedServer} whose child's stderr can be read. */
export interface StdioServer extends ConnectedServer {
  /** The last 2000 characters the server wrote on stderr. */
  stderr: () => string;
}

/**
 * Starts `commandLine` (split like a simple POSIX shell line, no expansion) with the SDK's
 * default environment and connects to it. The child's stderr is captured, not shown. Its
 * identity is `stdio:` + the SHA-256 hex of `commandLine`; its label `server "COMMAND LINE"`.
 * @throws InputError when the line is empty or the server cannot be reached (one line each).
 */
export async function connectStdio(commandLine: string, options: ConnectOptions): Promise<StdioServer> {
  const [command, ...args] = splitCommandLine(commandLine);
  if (command === undefined) throw new InputError('--stdio needs a command, e.g. --stdio "npx mcp-server-everything"');
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString('utf8')).slice(-2000); });
  const version = recordProtocolVersion(transport);
  const client = new Client({ name: options.clientName, version: '0.1.0' }, { capabilities: {} });
  options.beforeConnect?.(client);
  const closed = new Promise<never>((_, reject) => { transport.onclose = () => reject(new InputError(`server "${command}" exited before answering${lastLine(stderr)}`)); });
  try {
    await Promise.race([client.connect(transport, { timeout: options.timeoutMs }), closed]);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw connectError(command, error, options.timeoutMs, stderr);
  }
  closed.catch(() => undefined);
  return {
    client, label: `server "${commandLine}"`, identity: `stdio:${createHash('sha256').update(commandLine, 'utf8').digest('hex')}`,
    source: { command: commandLine }, protocolVersion: version, serverInfo: () => client.getServerVersion(), stderr: () => stderr,
    close: () => client.close().catch(() => undefined),
  };
}

function connectError(command: string, error: unknown, timeoutMs: number, stderr: string): InputError {
  if (error instanceof InputError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return new InputError(`cannot start server: command "${command}" not found`);
  if (code === -32001) return new InputError(`server "${command}" did not answer initialize within ${timeoutMs} ms (not an MCP server, or it writes something else on stdout)${lastLine(stderr)}`);
  if (code === -32000) return new InputError(`server "${command}" closed the connection during initialize${lastLine(stderr)}`);
  return new InputError(`server "${command}" failed during initialize: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
}

/** ` (its stderr: LAST LINE)`, or nothing when the server wrote nothing on stderr. */
function lastLine(stderr: string): string {
  const line = stderr.trim().split('\n').at(-1);
  return line === undefined || line === '' ? '' : ` (its stderr: ${line.slice(0, 200)})`;
}
