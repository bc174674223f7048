/**
 * Limits and timings of discovery. In the simulator they come from the scenario (never from the
 * core), so the oracle judges with the same numbers.
 */

/** Bounds of one scan. */
export interface ScanLimits {
  /** Most pages in one walk, page 1 included (the final recheck is not counted). */
  pageCountMax: number;
  /** Most bytes of page results (UTF-8 JSON) in one walk. */
  byteCountMax: number;
  /** Longest a scan may take from its first request to its end state, in ms. */
  scanTimeoutMs: number;
}

/** Defaults for a host outside the simulator. */
export const DEFAULT_SCAN_LIMITS: ScanLimits = {
  pageCountMax: 64,
  byteCountMax: 4 * 1024 * 1024,
  scanTimeoutMs: 30_000,
};
