/**
 * Scenarios: named fault mixes as data (`scenarios/<name>.json`). A scenario fixes the bounds
 * the oracle judges with, the core's timings, and the ranges the plan generator draws from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bounds, CoreTimings, FaultId } from './types.ts';

/** An inclusive integer range. */
export interface Range {
  min: number;
  max: number;
}

/** A scenario file. Times in virtual ms. */
export interface Scenario {
  name: string;
  description: string;
  /** Fault kinds this scenario may enable. */
  faults: FaultId[];
  /** Swarm testing: each listed fault is enabled in a round with this probability (0..1). */
  faultEnableFraction: number;
  servers: Range;
  audiencesPerServer: Range;
  /** The audience classes rounds draw from, `tenant.role`. */
  audiences: string[];
  toolsPerView: Range;
  pageSize: Range;
  latencyMs: Range;
  nominalLatencyMs: Range;
  tHealMs: number;
  timings: CoreTimings;
  scanTimeoutMs: number;
  pageCountMax: number;
  byteCountMax: number;
  generationTtlMs: number;
  eventBudget: number;
  /** Planner reads of the catalog per session, interval range in ms. */
  plannerIntervalMs: Range;
  /** Dedicated scenario: servers report the same revision for different content. */
  equivocation?: boolean;
  /**
   * A campaign of at least this many rounds on the reference core fails when it misses one of
   * `requiredProbes` (SPEC section 11: a defence never exercised proves nothing). Absent: no gate.
   */
  probeGateRounds?: number;
  /** Probe names the gate requires; absent means every probe of sim/campaign/probes.ts. */
  requiredProbes?: string[];
  /** The core polls the policy service this often, ms. */
  policyPollMs: number;
  /**
   * B of I7 (revocation propagation bound), ms: at least the poll interval plus the nominal poll
   * latency, and below the refresh interval, so that a core that learns of revocations only on a
   * catalog refresh is caught (SPEC section 12: "scenario TTL > B").
   */
  revocationBoundMs: number;
  pushLatencyMs: Range;
  calls: {
    callFraction: number;
    staleFraction: number;
    staleDelayMs: Range;
    guessFraction: number;
    invalidArgsFraction: number;
    confirmFraction: number;
  };
}

/** A scenario or catalog file that cannot be used; the message names the file and the problem. */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
}

const FAULT_IDS = new Set(['F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12', 'F13', 'F14', 'F15', 'F16', 'F17']);
const SCENARIO_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'scenarios');

/**
 * Loads `scenarios/<name>.json`, or a path when `nameOrPath` ends in `.json`.
 * @throws ScenarioError naming the file when it is missing, not JSON, or fails validation.
 */
export function loadScenario(nameOrPath: string): Scenario {
  const file = nameOrPath.endsWith('.json') ? nameOrPath : join(SCENARIO_DIR, `${nameOrPath}.json`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const problem = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON';
    throw new ScenarioError(`${file}: ${problem}`);
  }
  const problem = scenarioProblem(data);
  if (problem !== undefined) throw new ScenarioError(`${file}: ${problem}`);
  return data as Scenario;
}

/** The first problem of a scenario object, or undefined when it is valid. */
export function scenarioProblem(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'the top level must be an object';
  const s = data as Record<string, unknown>;
  if (typeof s.name !== 'string') return '"name" must be a string';
  if (!Array.isArray(s.faults) || !s.faults.every((f) => FAULT_IDS.has(f as string))) return '"faults" must be an array of fault ids F1..F17';
  if (typeof s.faultEnableFraction !== 'number' || s.faultEnableFraction < 0 || s.faultEnableFraction > 1) return '"faultEnableFraction" must be a number in [0, 1]';
  for (const field of ['servers', 'audiencesPerServer', 'toolsPerView', 'pageSize', 'latencyMs', 'nominalLatencyMs', 'plannerIntervalMs']) {
    const range = s[field] as Range | undefined;
    if (typeof range?.min !== 'number' || typeof range.max !== 'number' || range.min > range.max || range.min < 0) return `"${field}" must be {"min": n, "max": m} with 0 <= n <= m`;
  }
  if ((s.pageSize as Range).min < 1) return '"pageSize.min" must be at least 1';
  if ((s.plannerIntervalMs as Range).min < 1) return '"plannerIntervalMs.min" must be at least 1';
  if (s.equivocation !== undefined && typeof s.equivocation !== 'boolean') return '"equivocation" must be a boolean';
  if (s.probeGateRounds !== undefined && (!Number.isSafeInteger(s.probeGateRounds) || (s.probeGateRounds as number) < 1)) return '"probeGateRounds" must be a positive integer';
  if (s.requiredProbes !== undefined && (!Array.isArray(s.requiredProbes) || !s.requiredProbes.every((p) => typeof p === 'string'))) return '"requiredProbes" must be an array of probe names';
  if (!Array.isArray(s.audiences) || s.audiences.length === 0 || !s.audiences.every((a) => typeof a === 'string' && /^[^.|]+\.[^.|]+$/.test(a))) return '"audiences" must be a non-empty array of "tenant.role"';
  const calls = s.calls as Record<string, unknown> | undefined;
  for (const field of ['callFraction', 'staleFraction', 'guessFraction', 'invalidArgsFraction', 'confirmFraction']) {
    const value = calls?.[field];
    if (typeof value !== 'number' || value < 0 || value > 1) return `"calls.${field}" must be a number in [0, 1]`;
  }
  for (const field of ['pushLatencyMs']) {
    const range = s[field] as Range | undefined;
    if (typeof range?.min !== 'number' || typeof range.max !== 'number' || range.min > range.max || range.min < 0) return `"${field}" must be {"min": n, "max": m} with 0 <= n <= m`;
  }
  const stale = calls?.staleDelayMs as Range | undefined;
  if (typeof stale?.min !== 'number' || typeof stale.max !== 'number' || stale.min > stale.max || stale.min < 0) return '"calls.staleDelayMs" must be {"min": n, "max": m} with 0 <= n <= m';
  for (const field of ['tHealMs', 'scanTimeoutMs', 'pageCountMax', 'byteCountMax', 'generationTtlMs', 'eventBudget', 'policyPollMs', 'revocationBoundMs']) {
    if (!Number.isSafeInteger(s[field]) || (s[field] as number) <= 0) return `"${field}" must be a positive integer`;
  }
  const timings = s.timings as Record<string, unknown> | undefined;
  for (const field of ['refreshIntervalMs', 'retryBackoffMsBase', 'retryBackoffMsMax', 'listChangedDelayMs']) {
    if (!Number.isSafeInteger(timings?.[field]) || (timings?.[field] as number) < 0) return `"timings.${field}" must be a non-negative integer`;
  }
  return undefined;
}

/**
 * The bounds of a scenario. The quiet tail L covers one refresh interval plus two rounds of
 * (maximum back-off + scan timeout), plus the latency bound, so a healthy server is always
 * reached again before T_end (SPEC section 10).
 */
export function boundsOf(scenario: Scenario): Bounds {
  const latencyMsMax = Math.max(scenario.latencyMs.max, scenario.nominalLatencyMs.max);
  const tailMs = Math.max(scenario.timings.refreshIntervalMs, scenario.policyPollMs) + 2 * (scenario.timings.retryBackoffMsMax + scenario.scanTimeoutMs) + 4 * latencyMsMax;
  return {
    pageCountMax: scenario.pageCountMax,
    byteCountMax: scenario.byteCountMax,
    scanTimeoutMs: scenario.scanTimeoutMs,
    latencyMsMax,
    tHealMs: scenario.tHealMs,
    tEndMs: scenario.tHealMs + tailMs,
    generationTtlMs: scenario.generationTtlMs,
    retryBackoffMsMax: scenario.timings.retryBackoffMsMax,
    revocationBoundMs: scenario.revocationBoundMs,
  };
}
