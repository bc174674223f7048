/**
 * The package `catsim` (package.json `exports`): what a host developer's project imports to run
 * its own catalog core under catsim's campaigns (docs/CORE-API.md):
 *
 * ```ts
 * import { defineCore, type CoreAdapter, type CoreEnvironment } from 'catsim';
 * export default defineCore({ name: 'my-host', create: (env) => new MyAdapter(env) });
 * ```
 *
 * then `npx catsim run --core ./my-core.ts`. It holds the core API `catsim.core.v1` (the types the
 * world and a core exchange, with the observation types of the trace contract, and the MCP
 * `Transport` type the world hands a core that brings its own client), and the helpers an adapter
 * needs to report a host honestly: the digests of SPEC section 4, the lease issuer the world's
 * servers verify, the wire watch that attributes a connection's pages to scans and its calls to
 * leases (on a `Client`, or tapping a plain `Transport`), the lease convention of a host without a
 * gate (`GatelessCalls`), and the builder of a `published` observation.
 */
export * from '../contract/core-api.ts';
export type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
export {
  WireWatch,
  SCAN_ID_META,
  REVISION_META,
  type CallStamp,
  type ScanIds,
  type StampedCall,
  type WirePage,
  type WireWalk,
} from './wire-watch.ts';
export {
  GatelessCalls,
  NOT_SENT_DEFAULT,
  type GateRefusal,
  type GatelessTarget,
  type NotSent,
} from './gateless-calls.ts';
export {
  publishedSnapshot,
  type PublishedCatalog,
  type PublishedObservation,
  type PublishedSnapshotInput,
} from './published-snapshot.ts';
export { descriptorDigest, pageDigest, pageRoot, type PageDigestInput } from './digests.ts';
export {
  LeaseIssuer,
  LEASE_SCHEMA,
  type LeaseBinding,
  type LeaseIssuerOptions,
  type SignedLease,
} from '../src/admission/lease.ts';
export { LEASE_META_KEY as LEASE_META } from '../src/admission/codes.ts';
