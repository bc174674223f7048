/**
 * `catsim discover --stdio "CMD ARGS"` or `--url URL`: starts a real MCP server as a child
 * process over stdio, or connects to a remote one over Streamable HTTP (legacy HTTP+SSE after a
 * 4xx), discovers its catalog with the reference core, and prints the snapshot as JSON.
 * A server that fails to start, cannot be reached or answers garbage gives one line and exit 2,
 * whether it fails before `initialize` is answered or during the `tools/list` walk after it (as
 * `catsim capture` does): exit 1 means an invariant was violated, and no invariant is judged here.
 */
import type { ScanLimits } from '../../src/discovery/config.ts';
import type { ScanOutcome } from '../../src/discovery/scan.ts';
import type { ScanReason } from '../../src/discovery/states.ts';
import { discoverOnce } from '../../src/mcp/discover.ts';
import { EXIT, InputError } from '../errors.ts';
import { connectServer, serverTarget } from '../connected-server.ts';

/** Arguments of `catsim discover`. */
export interface DiscoverArgs {
  /** The command line that starts the server on stdio; give exactly one of `stdio` and `url`. */
  stdio?: string;
  /** The http(s) URL of a remote server's MCP endpoint. */
  url?: string;
  tenant: string;
  role: string;
  /** Milliseconds to wait for `initialize` and for the whole scan. */
  timeoutMs: number;
}

/** Page cap of one discovery scan. */
const PAGE_COUNT_MAX = 64;
/** Byte cap of one discovery scan (8 MiB of page JSON). */
const BYTE_COUNT_MAX = 8 * 1024 * 1024;

/**
 * Runs discovery and prints `{ state, reason, attempts, snapshot }` as JSON on stdout (exit 0).
 * @throws InputError (one line, exit 2) when not exactly one of `stdio` and `url` is given, the URL
 *   is not http(s), the server cannot be started or reached, or when
 *   discovery ends without a snapshot (INCOMPLETE or QUARANTINED: tools/list failed, answered
 *   garbage, timed out, looped, kept changing, ...); nothing is printed on stdout then.
 */
export async function discoverCommand(args: DiscoverArgs): Promise<number> {
  const server = await connectServer(serverTarget('discover', args), { timeoutMs: args.timeoutMs, clientName: 'catsim-discover' });
  const { client, identity } = server;
  try {
    const limits: ScanLimits = { pageCountMax: PAGE_COUNT_MAX, byteCountMax: BYTE_COUNT_MAX, scanTimeoutMs: args.timeoutMs };
    const result = await discoverOnce(client, {
      identity, endpointDigest: identity, protocolVersion: server.protocolVersion() ?? 'unknown',
      audience: { tenant: args.tenant, role: args.role },
      limits,
    });
    const { outcome } = result;
    if (result.snapshot === null) throw new InputError(noSnapshotMessage(server.label, outcome, result.attempts, limits));
    process.stdout.write(`${JSON.stringify({ state: outcome.state, reason: outcome.reason, attempts: result.attempts, snapshot: result.snapshot }, null, 2)}\n`);
    return EXIT.clean;
  } finally {
    await server.close();
  }
}

/**
 * One line for a discovery that ended without a snapshot, e.g. `server "x" gave no snapshot:
 * discovery ended INCOMPLETE REQUEST_FAILED (tools/list answered with an error)`.
 */
function noSnapshotMessage(label: string, outcome: ScanOutcome, attempts: number, limits: ScanLimits): string {
  const gloss = reasonGlosses(limits)[outcome.reason];
  const scans = attempts > 1 ? ` after ${attempts} scans` : '';
  return `${label} gave no snapshot: discovery ended ${outcome.state} ${outcome.reason}${gloss === undefined ? '' : ` (${gloss})`}${scans}`;
}

/** Plain words for the reason codes a real server can cause; the code alone is printed for others. */
function reasonGlosses(limits: ScanLimits): Partial<Record<ScanReason, string>> {
  return {
    LIST_CHANGED: 'tools/list_changed arrived during every scan',
    CURSOR_INVALID: 'tools/list answered error -32602 (invalid params)',
    REQUEST_FAILED: 'tools/list answered with an error',
    TIMEOUT: `the scan took longer than ${limits.scanTimeoutMs} ms`,
    MALFORMED_PAGE: 'tools/list answered with something that is not a tools/list result',
    DISCONNECTED: 'the connection closed during the scan',
    REVISION_MOVED: 'the catalog revision moved during the scan',
    RECHECK_REVISION_MOVED: 'the catalog revision moved before the final recheck',
    CURSOR_REPEATED: 'a cursor came back (a cursor loop)',
    PAGE_LIMIT: `more than ${limits.pageCountMax} pages`,
    BYTE_LIMIT: `more than ${limits.byteCountMax} bytes of pages`,
    REVISION_BACKWARDS: 'the catalog revision went backwards',
    EQUIVOCATION: 'the server listed different tools for the same revision',
  };
}
