/**
 * Scan states and reason codes (SPEC section 3). Reason codes, never runtime error text, go into
 * observations, so traces stay byte-stable.
 */

/** The end states of a scan. DISCOVERING and VALIDATING are transient (see {@link ScanPhase}). */
export type ScanEndState = 'SNAPSHOT_PROVEN' | 'UNVERSIONED_OBSERVATION' | 'INCOMPLETE' | 'QUARANTINED';

/** Every state a scan can be in, exactly one at a time. */
export type ScanPhase = 'DISCOVERING' | 'VALIDATING' | ScanEndState;

/** Why a scan ended INCOMPLETE: retried with capped back-off. */
export type IncompleteReason =
  | 'REVISION_MOVED'
  | 'LIST_CHANGED'
  | 'CURSOR_INVALID'
  | 'REQUEST_FAILED'
  | 'TIMEOUT'
  | 'IDENTITY_CHANGED'
  | 'POLICY_EPOCH_CHANGED'
  | 'RECHECK_REVISION_MOVED'
  | 'MALFORMED_PAGE'
  | 'DISCONNECTED'
  /** The server refused the listing for the audience's authorization: the catalog is unknown, never empty. */
  | 'AUTH_REQUIRED'
  /**
   * Pages of one walk (the final recheck included) disagree on `cacheScope` (MCP 2026-07-28:
   * servers MUST use the same scope on all pages of one list): nothing of it is admitted.
   */
  | 'CACHE_SCOPE_MIXED';

/**
 * Why a scan ended QUARANTINED: operator attention, no automatic admission. `TOO_MANY_TOOLS` and
 * `CATALOG_TOO_LARGE` are the whole-catalog limits of SPEC section 5 (src/validation/catalog-limits.ts).
 */
export type QuarantineReason =
  | 'CURSOR_REPEATED'
  | 'PAGE_LIMIT'
  | 'BYTE_LIMIT'
  | 'REVISION_BACKWARDS'
  | 'EQUIVOCATION'
  | 'TOO_MANY_TOOLS'
  | 'CATALOG_TOO_LARGE';

/** The reason code of an end state; the two good states carry `OK`. */
export type ScanReason = 'OK' | IncompleteReason | QuarantineReason;

/** JSON-RPC "Invalid params", which servers use for a cursor that is no longer valid. */
export const INVALID_PARAMS = -32602;
/**
 * The JSON-RPC code a server answers `tools/list` with when the audience's authorization does not
 * allow the listing (a server-defined code, -32000 to -32099; catsim's convention for HTTP's 403,
 * which a host's HTTP connector may map to it). A scan ends INCOMPLETE AUTH_REQUIRED on it.
 */
export const AUTHORIZATION_REQUIRED = -32003;
/** The SDK's code for a request that timed out. */
export const REQUEST_TIMEOUT = -32001;
/** The SDK's code for a request on a closed connection. */
export const CONNECTION_CLOSED = -32000;
