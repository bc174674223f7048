/**
 * The result of a round the campaign had to abandon: its worker thread ran past the per-round
 * time limit (a core stuck in synchronous code or an endless loop, in `create`, `attach` or any
 * call) and was terminated, or it died of heap exhaustion. Either is the core's failure in that
 * round (`CORE_FAILED`), never a testbed failure: the round has no trace, and the oracle judged
 * nothing, so this result carries one violation written here from what the campaign saw.
 */
import { createHash } from 'node:crypto';
import { CORE_FAILED } from '../oracle/index.ts';
import { noSurfaceMetrics } from '../oracle/metrics.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import type { RoundPlan } from '../sim/plan/types.ts';
import type { BatchJob, BatchResult } from './batch.ts';
import type { RoundSummary } from './round-check.ts';

/** Why a round was abandoned: `TIMED_OUT` (past the limit) or `OUT_OF_MEMORY` (its worker's heap ran out). */
export type AbandonCode = 'TIMED_OUT' | 'OUT_OF_MEMORY';

/** Whether a violation's code is one of a round abandoned here ({@link AbandonCode}). */
export function isAbandonCode(code: string): code is AbandonCode {
  return code === 'TIMED_OUT' || code === 'OUT_OF_MEMORY';
}

/**
 * The result of round `round` of `job`, abandoned for `code`. Its faults are the plan's (the plan
 * is generated again here, which never runs the core); see {@link abandonedSummary}.
 * @param limitMs the per-round time limit, for the evidence of `TIMED_OUT`.
 */
export function abandonedRound(job: BatchJob, round: number, code: AbandonCode, limitMs: number): BatchResult {
  return {
    summary: abandonedSummary(generatePlan(job.seed, round, job.scenario, job.pool), code, limitMs),
    replay: undefined,
  };
}

/**
 * The summary of `plan`'s round, abandoned for `code`: the plan's faults, one `CORE_FAILED CODE`
 * violation, and the trace digest sha256("catsim.abandoned-round.v1\n" + round + "\n" + code),
 * since it has no trace. Used by campaigns, `replay` and `shrink` alike.
 * @param limitMs the per-round time limit, for the evidence of `TIMED_OUT`.
 */
export function abandonedSummary(plan: RoundPlan, code: AbandonCode, limitMs: number): RoundSummary {
  const { round } = plan;
  const evidence =
    code === 'TIMED_OUT'
      ? `the round ran past the per-round time limit of ${limitMs / 1000} s (--round-timeout), so its worker thread was terminated: the core is stuck (a synchronous loop, or work that never ends)`
      : 'the worker thread running the round died of heap exhaustion (JavaScript heap out of memory): the core allocates without bound';
  const { decisions, ...metrics } = {
    decisions: {},
    revocationDelaysMs: [],
    revocationsCensored: 0,
    receipts: { executed: 0, covered: 0 },
    unknownDialectAdmissions: 0,
    probes: { expected: 0, admitted: 0 },
    surface: noSurfaceMetrics(),
  };
  return {
    round,
    status: 'settled',
    faults: plan.faults,
    endStates: {},
    endReasons: {},
    violations: [{ invariant: CORE_FAILED, round, seq: null, code, evidence }],
    probes: [],
    decisions,
    metrics,
    traceDigest: createHash('sha256').update(`catsim.abandoned-round.v1\n${round}\n${code}`).digest('hex'),
    events: 0,
    endedEarly: false,
  };
}
