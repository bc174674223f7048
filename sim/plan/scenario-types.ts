/**
 * The shape of a scenario file (`scenarios/<name>.json`), apart from the code that loads and checks
 * one (sim/plan/scenario.ts), so that the fault files and the plan types can name it without
 * importing the loader, its schema or the fault registry the schema is built from.
 */
import type { Capability } from '../../oracle/not-judged.ts';
import type { CoreTimings, FaultLabel } from './types.ts';

/** The whole-catalog tool count of a scenario without `toolCountMax` (the reference core's default trust). */
export const DEFAULT_TOOL_COUNT_MAX = 10_000;

/** The whole-catalog byte limit of a scenario without `catalogBytesMax`: 8 MiB (the reference core's default trust). */
export const DEFAULT_CATALOG_BYTES_MAX = 8 * 1024 * 1024;

/** An inclusive integer range. */
export interface Range {
  min: number;
  max: number;
}

/**
 * A scenario file. Times in virtual ms. Its rules are in SCENARIO_SCHEMA (sim/plan/scenario-schema.ts,
 * written out as `scenarios/scenario.schema.json`): every field below is required unless marked optional, no other field
 * is allowed, counts and times are integers, fractions are numbers in [0, 1].
 */
export interface Scenario {
  name: string;
  description: string;
  /** Fault kinds this scenario may enable. */
  faults: FaultLabel[];
  /** Swarm testing: each listed fault is enabled in a round with this probability (0..1). */
  faultEnableFraction: number;
  servers: Range;
  /** At least 1 (min >= 1). */
  audiencesPerServer: Range;
  /** The audience classes rounds draw from, `tenant.role`. */
  audiences: string[];
  toolsPerView: Range;
  /** At least 1 (min >= 1). */
  pageSize: Range;
  latencyMs: Range;
  nominalLatencyMs: Range;
  /** T_heal, at least 204 (the plan generator needs room for F8's policy changes before it). */
  tHealMs: number;
  timings: CoreTimings;
  scanTimeoutMs: number;
  pageCountMax: number;
  byteCountMax: number;
  generationTtlMs: number;
  eventBudget: number;
  /** Planner reads of the catalog per session, interval range in ms (min >= 1). */
  plannerIntervalMs: Range;
  /** Dedicated scenario: servers report the same revision for different content. */
  equivocation?: boolean;
  /**
   * Optional: the era mixes a round draws from, uniformly, on its own stream (sim/faults/eras.ts):
   * `legacy` (every server speaks MCP 2025-11-25), `modern` (every server speaks 2026-07-28),
   * `mixed` (some of each), `gateway` (every server is a stateless 2026-07-28 server behind a
   * gateway that speaks 2025-11-25 to the host). Absent: every server is legacy and nothing is drawn.
   */
  eraMix?: ('legacy' | 'modern' | 'mixed' | 'gateway')[];
  /**
   * A campaign of at least this many rounds on the reference core fails when it misses one of
   * `requiredProbes` (SPEC section 11: a defence never exercised proves nothing). Absent: no gate.
   */
  probeGateRounds?: number;
  /** Probe names the gate requires; absent means every probe of oracle/probes/. */
  requiredProbes?: string[];
  /**
   * Capabilities the user accepts as not judged (oracle/not-judged.ts): a campaign whose core
   * leaves one of these out passes with it shown as skipped, `PASS (not judged: rollback)`, where
   * it would otherwise be NOT JUDGED (exit 1). `run --not-judged` adds to it. Absent: none.
   */
  notJudged?: Capability[];
  /** The core polls the policy service this often, ms. */
  policyPollMs: number;
  /**
   * B of I7 (revocation propagation bound), ms: at least the poll interval plus the nominal poll
   * latency, and below the refresh interval, so that a core that learns of revocations only on a
   * catalog refresh is caught (SPEC section 12: "scenario TTL > B").
   */
  revocationBoundMs: number;
  /**
   * Optional: most tools in one catalog (SPEC section 5's whole-catalog limit, judged by I27);
   * absent: {@link DEFAULT_TOOL_COUNT_MAX}.
   */
  toolCountMax?: number;
  /**
   * Optional: most bytes of descriptors (compact UTF-8 JSON, summed) in one catalog; absent:
   * {@link DEFAULT_CATALOG_BYTES_MAX}.
   */
  catalogBytesMax?: number;
  pushLatencyMs: Range;
  /**
   * Optional: the share of rounds that run the whole quiet tail to T_end (a fraction); each other
   * round may end as soon as its work is done (sim/tail/early-end.ts). Drawn per round on the
   * stream `round/TAIL`. Absent: every round runs the whole tail and nothing is drawn.
   */
  fullTailFraction?: number;
  calls: {
    callFraction: number;
    invalidArgsFraction: number;
    confirmFraction: number;
  };
  /**
   * Optional: how often each fault acts, `faultRates.<fault id>.<rate>`; every rate not given is
   * the default in the fault's file (sim/faults/), e.g. `{"F15": {"reorderFraction": 0.9}}`.
   */
  faultRates?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}
