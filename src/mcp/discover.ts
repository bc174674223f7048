/**
 * One-shot discovery against a connected MCP server (a real one, outside the simulator): scan,
 * retry a scan that a `list_changed` made INCOMPLETE, freeze the snapshot. Used by
 * `catsim discover`; a host can call it the same way.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { DEFAULT_SCAN_LIMITS, type ScanLimits } from '../discovery/config.ts';
import { SdkPageSource } from '../discovery/page-source.ts';
import { RevisionWatch } from '../discovery/revision-watch.ts';
import { runScan, type ScanOutcome } from '../discovery/scan.ts';
import { keyName, type AudienceClass } from '../keys.ts';
import { CoreMemos } from '../memos.ts';
import { nullSink, realClock, type Clock, type ObservationSink } from '../ports.ts';
import { buildSnapshot, type ToolCatalogSnapshot } from '../snapshot/snapshot.ts';
import { DEFAULT_TRUST, type TrustConfig } from '../validation/trust.ts';

/** How to discover. `maxListChangedRetries` defaults to 3 (SPEC section 3). */
export interface DiscoverOptions {
  identity: string;
  endpointDigest: string;
  /** The protocol version negotiated at `initialize` (see {@link recordProtocolVersion}). */
  protocolVersion: string;
  audience: AudienceClass;
  limits?: ScanLimits;
  trust?: TrustConfig;
  generationTtlMs?: number;
  maxListChangedRetries?: number;
  clock?: Clock;
  sink?: ObservationSink;
  /**
   * True once the connection closed on an over-long incoming message (`ConnectedServer.messageTooLarge`
   * of src/connect/): the scan then ends QUARANTINED BYTE_LIMIT instead of INCOMPLETE DISCONNECTED.
   */
  messageTooLarge?: () => boolean;
  /** Memos of digests, verdicts and compiles (src/memos.ts) to reuse across calls; default: fresh ones for this call. */
  memos?: CoreMemos;
}

/** The end of discovery: the last scan, and its snapshot when it succeeded. */
export interface DiscoverResult {
  outcome: ScanOutcome;
  attempts: number;
  snapshot: ToolCatalogSnapshot | null;
}

/**
 * Scans `client` (connected, built without the SDK's listChanged auto-refresh) and freezes the
 * snapshot. A catalog over the trust's whole-catalog limits (`toolCountMax`, `catalogBytesMax`)
 * ends QUARANTINED TOO_MANY_TOOLS or CATALOG_TOO_LARGE, with no snapshot. Never rejects for server misbehaviour: the outcome carries the reason code (and, when
 * the server answered with a JSON-RPC error, its code and message in `outcome.serverError`).
 */
export async function discoverOnce(client: Client, options: DiscoverOptions): Promise<DiscoverResult> {
  const clock = options.clock ?? realClock;
  const source = new SdkPageSource(client, () => options.identity, { messageTooLarge: options.messageTooLarge });
  const memos = options.memos ?? new CoreMemos();
  const watch = new RevisionWatch(memos);
  const retries = options.maxListChangedRetries ?? 3;
  const key = { identity: options.identity, ...options.audience };
  let outcome: ScanOutcome;
  let attempts = 0;
  do {
    outcome = await runScan(source, {
      scanId: `discover-${attempts}`,
      key: keyName(key),
      expectedGeneration: 0,
      policyEpoch: () => 0,
      clock,
      sink: options.sink ?? nullSink,
      limits: options.limits ?? DEFAULT_SCAN_LIMITS,
      catalogLimits: options.trust ?? DEFAULT_TRUST,
      watch,
      memos,
    });
    attempts += 1;
  } while (outcome.state === 'INCOMPLETE' && outcome.reason === 'LIST_CHANGED' && attempts <= retries);
  const proven = outcome.state === 'SNAPSHOT_PROVEN' || outcome.state === 'UNVERSIONED_OBSERVATION';
  const snapshot = !proven
    ? null
    : buildSnapshot(
        {
          key,
          endpointDigest: options.endpointDigest,
          protocolVersion: options.protocolVersion,
          scanId: outcome.scanId,
          discoveryState: outcome.state === 'SNAPSHOT_PROVEN' ? 'SNAPSHOT_PROVEN' : 'UNVERSIONED_OBSERVATION',
          discoveryStartedAt: outcome.startedAt,
          policyEpoch: outcome.policyEpoch,
          sourceRevision: outcome.revision,
          generationTtlMs: options.generationTtlMs ?? 15 * 60_000,
          trust: options.trust ?? DEFAULT_TRUST,
          pages: outcome.pages,
        },
        memos,
      );
  return { outcome, attempts, snapshot };
}

/**
 * Records the protocol version the SDK `Client` negotiates on `transport` (the Client reports it
 * through the optional `Transport.setProtocolVersion` after `initialize`). Call before connect.
 */
export function recordProtocolVersion(transport: Transport): () => string | undefined {
  let version: string | undefined;
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (negotiated: string) => {
    version = negotiated;
    original?.(negotiated);
  };
  return () => version;
}
