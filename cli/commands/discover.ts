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
import type { ToolCatalogSnapshot } from '../../src/snapshot/snapshot.ts';
import { DEFAULT_TRUST, type TrustConfig } from '../../src/validation/trust.ts';
import { EXIT, InputError } from '../errors.ts';
import { connectTarget, serverErrorWords, serverTarget, withServer } from '../server-target.ts';

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
  /** The most pages one scan may read before it is quarantined (PAGE_LIMIT). */
  pageCountMax: number;
}

/** Byte cap of one discovery scan (8 MiB of page JSON). */
const BYTE_COUNT_MAX = 8 * 1024 * 1024;

/**
 * How much longer than {@link BYTE_COUNT_MAX} one stdio message may be before the transport
 * closes the connection. A message that long holds a page over the byte cap on its own (the
 * JSON-RPC envelope and one read chunk, 64 KiB, are far below 1 MiB), so the scan ends
 * QUARANTINED BYTE_LIMIT either way: over the cap after reading it, or on the closed connection.
 */
const MESSAGE_SLACK_BYTES = 1024 * 1024;

/**
 * Runs discovery and prints `{ state, reason, attempts, snapshot }` as JSON on stdout (exit 0).
 * A quarantined tool whose descriptor is over the trust's `descriptorBytesMax` is printed
 * without its body (see {@link printable}).
 * @throws InputError (one line, exit 2) when not exactly one of `stdio` and `url` is given, the URL
 *   is not http(s), the server cannot be started or reached, or when
 *   discovery ends without a snapshot (INCOMPLETE or QUARANTINED: tools/list failed, answered
 *   garbage, timed out, looped, kept changing, was too large, listed more tools or descriptor
 *   bytes than the whole-catalog limits of DEFAULT_TRUST, ...); nothing is printed on stdout then.
 */
export async function discoverCommand(args: DiscoverArgs): Promise<number> {
  const server = await connectTarget(serverTarget('discover', args), {
    timeoutMs: args.timeoutMs,
    clientName: 'catsim-discover',
    messageBytesMax: BYTE_COUNT_MAX + MESSAGE_SLACK_BYTES,
  });
  return withServer(server, async () => {
    const { client, identity } = server;
    const limits: ScanLimits = {
      pageCountMax: args.pageCountMax,
      byteCountMax: BYTE_COUNT_MAX,
      scanTimeoutMs: args.timeoutMs,
    };
    const result = await discoverOnce(client, {
      identity,
      endpointDigest: identity,
      protocolVersion: server.protocolVersion() ?? 'unknown',
      audience: { tenant: args.tenant, role: args.role },
      limits,
      trust: DEFAULT_TRUST,
      messageTooLarge: server.messageTooLarge,
    });
    const { outcome } = result;
    if (result.snapshot === null)
      throw new InputError(noSnapshotMessage(server.label, outcome, result.attempts, limits, DEFAULT_TRUST));
    const printed = {
      state: outcome.state,
      reason: outcome.reason,
      attempts: result.attempts,
      snapshot: printable(result.snapshot, DEFAULT_TRUST.descriptorBytesMax),
    };
    process.stdout.write(`${JSON.stringify(printed, null, 2)}\n`);
    return EXIT.clean;
  });
}

/** The longest tool name printed for a tool whose body is omitted (the protocol's own limit). */
const OMITTED_NAME_LENGTH_MAX = 128;

/**
 * The snapshot as printed: the artifact itself, except that a quarantined tool whose descriptor
 * (compact UTF-8 JSON) is over `descriptorBytesMax` bytes is printed as its name (at most 128
 * characters, then `…`), `descriptorDigest`, `verdict` (the reason), `descriptorBytes` and
 * `sourceOmitted: true`, without the body that was refused: one 5 MB description must not make a
 * 5 MB answer. The digest still names the descriptor exactly.
 */
export function printable(snapshot: ToolCatalogSnapshot, descriptorBytesMax: number): unknown {
  const tools = snapshot.tools.map((tool) => {
    if (tool.verdict === 'ok') return tool;
    const descriptorBytes = Buffer.byteLength(JSON.stringify(tool.source) ?? '', 'utf8');
    if (descriptorBytes <= descriptorBytesMax) return tool;
    const name =
      tool.name.length <= OMITTED_NAME_LENGTH_MAX ? tool.name : `${tool.name.slice(0, OMITTED_NAME_LENGTH_MAX)}…`;
    return {
      name,
      descriptorDigest: tool.descriptorDigest,
      verdict: tool.verdict,
      descriptorBytes,
      sourceOmitted: true,
    };
  });
  return { ...snapshot, tools };
}

/**
 * One line for a discovery that ended without a snapshot, e.g. `server "x" gave no snapshot:
 * discovery ended INCOMPLETE REQUEST_FAILED (tools/list answered with error -32603: broken)`.
 */
function noSnapshotMessage(
  label: string,
  outcome: ScanOutcome,
  attempts: number,
  limits: ScanLimits,
  trust: TrustConfig,
): string {
  const gloss = reasonGloss(outcome, limits, trust);
  const scans = attempts > 1 ? ` after ${attempts} scans` : '';
  return `${label} gave no snapshot: discovery ended ${outcome.state} ${outcome.reason}${gloss === undefined ? '' : ` (${gloss})`}${scans}`;
}

/** Plain words for a reason a real server can cause; the server's own error when it sent one. */
function reasonGloss(outcome: ScanOutcome, limits: ScanLimits, trust: TrustConfig): string | undefined {
  const { serverError } = outcome;
  if (serverError !== undefined) return `tools/list answered with ${serverErrorWords(serverError)}`;
  return reasonGlosses(limits, trust)[outcome.reason];
}

function reasonGlosses(limits: ScanLimits, trust: TrustConfig): Partial<Record<ScanReason, string>> {
  return {
    LIST_CHANGED: 'tools/list_changed arrived during every scan',
    CURSOR_INVALID: 'tools/list answered error -32602 (invalid params)',
    REQUEST_FAILED: 'tools/list failed',
    TIMEOUT: `the scan took longer than ${limits.scanTimeoutMs} ms`,
    MALFORMED_PAGE: 'tools/list answered with something that is not a tools/list result',
    DISCONNECTED: 'the connection closed during the scan',
    REVISION_MOVED: 'the catalog revision moved during the scan',
    RECHECK_REVISION_MOVED: 'the catalog revision moved before the final recheck',
    CURSOR_REPEATED: 'a cursor came back (a cursor loop)',
    PAGE_LIMIT: `more than ${limits.pageCountMax} pages (raise --page-count-max if that is real)`,
    BYTE_LIMIT: `more than ${limits.byteCountMax} bytes of pages`,
    REVISION_BACKWARDS: 'the catalog revision went backwards',
    EQUIVOCATION: 'the server listed different tools for the same revision',
    TOO_MANY_TOOLS: `more than ${trust.toolCountMax} tools in the catalog`,
    CATALOG_TOO_LARGE: `more than ${trust.catalogBytesMax} bytes of tool descriptors in the catalog`,
  };
}
