/**
 * Line 1 of a `catsim.trace.v1` trace: which round of which seed, scenario and core, with the
 * scenario's bounds (the oracle judges with them, never with the core's own limits).
 */
import { field, literal, nat, objectOf, optional, str, strings } from '../internal/fields.ts';
import { TRACE_SCHEMA } from './schema.ts';

/** The scenario bounds: non-negative integers, `*Ms` in virtual milliseconds, `byteCountMax` in bytes. */
const bounds = objectOf({
  pageCountMax: field(nat, 'most cursor requests in one scan'),
  byteCountMax: field(nat, 'most bytes of pages in one scan'),
  scanTimeoutMs: field(nat, 'longest a scan may run'),
  latencyMsMax: field(nat, 'slowest one message may be'),
  tHealMs: field(nat, 'T_heal: faults stop, the quiet tail begins'),
  tEndMs: field(nat, "T_end: the round's horizon"),
  generationTtlMs: field(nat, 'how long a published generation may serve'),
  retryBackoffMsMax: field(nat, 'cap of the retry back-off'),
  listChangedDelayMs: optional(
    field(
      nat,
      "the scenario's coalescing delay between a `list_changed` and the scan it triggers: a scan of the key must start within max(this, `retryBackoffMsMax`) of the delivery, or of the end of the scan running then (I19); older traces lack it, and then I19 is not judged",
    ),
  ),
  refreshIntervalMs: optional(
    field(
      nat,
      "the scenario's refresh interval, the longest a core's polling may leave a list unread: a list change nothing pushed to the core must be followed by a fresh list within max(this, `retryBackoffMsMax`, `listChangedDelayMs`) plus a latency (I33); written in rounds with a 2026-07-28 server (modern or behind a gateway), and I33 is not judged without it",
    ),
  ),
  revocationBoundMs: optional(
    field(
      nat,
      'B of SPEC section 7: how long after a revocation the core may still admit the revoked tool (I7); older traces lack it, and then I7 is not judged',
    ),
  ),
  toolCountMax: optional(
    field(nat, 'most tools in one catalog (SPEC section 5, I27); older traces lack it, and then I27 is not judged'),
  ),
  catalogBytesMax: optional(
    field(
      nat,
      'most bytes of descriptors (compact UTF-8 JSON, summed) in one catalog (SPEC section 5, I27); older traces lack it, and then I27 is not judged',
    ),
  ),
});

/** The header line (line 1); its fields are written in this order. */
export const TRACE_HEADER = objectOf({
  type: literal('header'),
  schema: literal(TRACE_SCHEMA),
  seed: field(str, 'the campaign seed'),
  round: nat,
  scenario: str,
  core: field(str, 'the core under test, e.g. `reference` or `mutant:no-final-recheck`'),
  bounds: field(bounds, 'from the scenario, never from the core; the oracle judges with them'),
  faults: field(strings, 'the fault kinds enabled in this round (swarm testing), for reporting'),
});
