/**
 * `catsim discover --stdio "CMD ARGS"`: starts a real MCP server as a child process over stdio,
 * discovers its catalog with the reference core, and prints the snapshot as JSON.
 * A server that fails to start, exits early or answers garbage gives one line and exit 2.
 */
import { createHash } from 'node:crypto';
import { discoverOnce } from '../../src/mcp/discover.ts';
import { EXIT } from '../errors.ts';
import { connectStdio } from '../stdio-server.ts';

/** Arguments of `catsim discover`. */
export interface DiscoverArgs {
  stdio: string;
  tenant: string;
  role: string;
  timeoutMs: number;
}

/**
 * Runs discovery and prints `{ state, reason, attempts, snapshot }` as JSON; exit 1 when no
 * snapshot came out of it.
 * @throws InputError (one line, exit 2) when the server cannot be started or reached.
 */
export async function discoverCommand(args: DiscoverArgs): Promise<number> {
  const server = await connectStdio(args.stdio, { timeoutMs: args.timeoutMs, clientName: 'catsim-discover' });
  const { client } = server;
  try {
    const identity = `stdio:${createHash('sha256').update(args.stdio, 'utf8').digest('hex')}`;
    const result = await discoverOnce(client, {
      identity, endpointDigest: identity, protocolVersion: server.protocolVersion() ?? 'unknown',
      audience: { tenant: args.tenant, role: args.role },
      limits: { pageCountMax: 64, byteCountMax: 8 * 1024 * 1024, scanTimeoutMs: args.timeoutMs },
    });
    const { outcome } = result;
    process.stdout.write(`${JSON.stringify({ state: outcome.state, reason: outcome.reason, attempts: result.attempts, snapshot: result.snapshot }, null, 2)}\n`);
    if (result.snapshot === null) process.stderr.write(`discovery ended ${outcome.state} (${outcome.reason})\n`);
    return result.snapshot === null ? EXIT.violation : EXIT.clean;
  } finally {
    await server.close();
  }
}
