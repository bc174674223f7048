/**
 * One round end to end: generate its plan, run it on a core, check its trace with the oracle,
 * and summarise it as plain data (what a worker sends back to the campaign).
 */
import { checkEvents, type RoundMetrics, type Violation } from '../oracle/index.ts';
import type { CoreFactory } from '../sim/guard/adapter.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import type { Scenario } from '../sim/plan/scenario.ts';
import type { PoolTool } from '../sim/plan/tool-pool.ts';
import type { FaultLabel, RoundPlan } from '../sim/plan/types.ts';
import { runRound, type RoundRun } from '../sim/round.ts';
import { traceDigest } from '../sim/trace/recorder.ts';
import { probesHit } from '../oracle/probes/index.ts';

/** What a campaign keeps of one round. */
export interface RoundSummary {
  round: number;
  status: 'settled' | 'undecided';
  faults: FaultLabel[];
  /** Count of scan end states reached, by state. */
  endStates: Record<string, number>;
  /** Count of scan end reasons (INCOMPLETE and QUARANTINED ones), by reason code. */
  endReasons: Record<string, number>;
  violations: Violation[];
  /** Names of the coverage probes this round hit (oracle/probes/). */
  probes: string[];
  /** Gate decisions by decision (`ADMIT` or a refusal code), from the oracle's metrics. */
  decisions: Record<string, number>;
  /** The oracle's other measurements of the round (revocation delays, receipts, probes). */
  metrics: Omit<RoundMetrics, 'decisions'>;
  traceDigest: string;
  events: number;
  /**
   * Whether the round ended before T_end, its work done (`round_end` reason `done`: the early end
   * of DESIGN.md section 10); false for a round that ran the whole quiet tail.
   */
  endedEarly: boolean;
}

/**
 * Runs and checks one round of campaign `seed`. `pool` is where the plan's descriptors come from
 * (a loaded catalog's pool); undefined means the built-in pool.
 */
export async function runAndCheck(
  seed: string,
  round: number,
  scenario: Scenario,
  core: CoreFactory,
  coreName: string,
  pool?: readonly PoolTool[],
): Promise<{ summary: RoundSummary; run: RoundRun; plan: RoundPlan }> {
  return checkPlan(generatePlan(seed, round, scenario, pool), core, coreName);
}

/** Runs and checks one plan (generated, shrunk, or read from a file by `replay --plan`). */
export async function checkPlan(
  plan: RoundPlan,
  core: CoreFactory,
  coreName: string,
): Promise<{ summary: RoundSummary; run: RoundRun; plan: RoundPlan }> {
  const round = plan.round;
  const run = await runRound(plan, core, coreName);
  const verdict = checkEvents(run.header, run.events);
  const endStates: Record<string, number> = {};
  const endReasons: Record<string, number> = {};
  const { decisions, ...metrics } = verdict.metrics;
  for (const event of run.events) {
    if (event.type !== 'scan_ended') continue;
    increment(endStates, event.state);
    if (event.reason !== 'OK') increment(endReasons, event.reason);
  }
  const summary: RoundSummary = {
    round,
    status: run.status,
    faults: plan.faults,
    endStates,
    endReasons,
    violations: verdict.violations,
    probes: probesHit(run.events),
    decisions: { ...decisions },
    metrics,
    traceDigest: traceDigest(run.header, run.events),
    events: run.events.length,
    endedEarly: run.reason === 'done',
  };
  return { summary, run, plan };
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
