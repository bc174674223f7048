/**
 * `catsim discover --stdio "CMD ARGS"`: starts a real MCP server as a child process over stdio,
 * discovers its catalog with the reference core, and prints the snapshot as JSON.
 * A server that fails to start, exits early or answers garbage gives one line and exit 2.
 */
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { discoverOnce, recordProtocolVersion } from '../../src/mcp/discover.ts';
import { EXIT, InputError } from '../errors.ts';
import { splitCommandLine } from '../command-line.ts';

/** Arguments of `catsim discover`. */
export interface DiscoverArgs {
  stdio: string;
  tenant: string;
  role: string;
  timeoutMs: number;
}

/** Connected stdio server, or an InputError naming why it could not be reached. */
async function connectStdio(commandLine: string, timeoutMs: number): Promise<{ client: Client; version: () => string | undefined; stderr: () => string }> {
  const [command, ...args] = splitCommandLine(commandLine);
  if (command === undefined) throw new InputError('--stdio needs a command, e.g. --stdio "npx mcp-server-everything"');
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString('utf8')).slice(-2000); });
  const version = recordProtocolVersion(transport);
  const client = new Client({ name: 'catsim-discover', version: '0.1.0' }, { capabilities: {} });
  const closed = new Promise<never>((_, reject) => { transport.onclose = () => reject(new InputError(`server "${command}" exited before answering${lastLine(stderr)}`)); });
  try {
    await Promise.race([client.connect(transport, { timeout: timeoutMs }), closed]);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw connectError(command, error, timeoutMs, stderr);
  }
  closed.catch(() => undefined);
  return { client, version, stderr: () => stderr };
}

function connectError(command: string, error: unknown, timeoutMs: number, stderr: string): InputError {
  if (error instanceof InputError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return new InputError(`cannot start server: command "${command}" not found`);
  if (code === -32001) return new InputError(`server "${command}" did not answer initialize within ${timeoutMs} ms (not an MCP server, or it writes something else on stdout)${lastLine(stderr)}`);
  if (code === -32000) return new InputError(`server "${command}" closed the connection during initialize${lastLine(stderr)}`);
  return new InputError(`server "${command}" failed during initialize: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
}

function lastLine(stderr: string): string {
  const line = stderr.trim().split('\n').at(-1);
  return line === undefined || line === '' ? '' : ` (its stderr: ${line.slice(0, 200)})`;
}

/** Runs discovery and prints `{ state, reason, attempts, snapshot }` as JSON. */
export async function discoverCommand(args: DiscoverArgs): Promise<number> {
  const { client, version } = await connectStdio(args.stdio, args.timeoutMs);
  try {
    const identity = `stdio:${createHash('sha256').update(args.stdio, 'utf8').digest('hex')}`;
    const result = await discoverOnce(client, {
      identity, endpointDigest: identity, protocolVersion: version() ?? 'unknown',
      audience: { tenant: args.tenant, role: args.role },
      limits: { pageCountMax: 64, byteCountMax: 8 * 1024 * 1024, scanTimeoutMs: args.timeoutMs },
    });
    const { outcome } = result;
    process.stdout.write(`${JSON.stringify({ state: outcome.state, reason: outcome.reason, attempts: result.attempts, snapshot: result.snapshot }, null, 2)}\n`);
    if (result.snapshot === null) process.stderr.write(`discovery ended ${outcome.state} (${outcome.reason})\n`);
    return result.snapshot === null ? EXIT.violation : EXIT.clean;
  } finally {
    await client.close().catch(() => undefined);
  }
}
