/**
 * What a campaign worker thread posts to the campaign, and how a failure crosses the thread
 * boundary: a structured clone keeps no class, so a `CoreContractError` (a core emitted an
 * observation outside the trace contract, exit 3 with its own one-line message) travels as its
 * breach and is rebuilt on the other side; any other error travels as `name: message` and
 * becomes a `TestbedError`.
 */
import type { BatchResult } from './batch.ts';
import type { RoundRun } from '../sim/round.ts';
import type { RoundPlan } from '../sim/plan/types.ts';
import type { RoundSummary } from './round-check.ts';
import { CoreContractError, type ContractBreach } from '../sim/trace/core-contract-error.ts';
import { TestbedError } from './testbed-error.ts';

/**
 * One plan for a worker to run and check (`replay`, `shrink`, a `--workers 0` campaign's shrink):
 * the plan and the `--core` value it runs on. The worker answers `round-start`, then `plan-done`.
 */
export interface PlanJob {
  kind: 'plan';
  plan: RoundPlan;
  core: string;
}

/**
 * Messages a worker posts: `round-start` before each round, `round` after it, `batch-done` after
 * the batch; `plan-done` after a {@link PlanJob}, with the round's summary and its whole run.
 */
export type WorkerMessage =
  | { kind: 'round-start'; round: number }
  | { kind: 'plan-done'; summary: RoundSummary; run: RoundRun }
  | { kind: 'round'; result: BatchResult }
  | { kind: 'batch-done' }
  | { kind: 'core-contract'; breach: ContractBreach }
  | { kind: 'error'; message: string };

/** The messages that report a failed batch. */
export type FailureMessage = Extract<WorkerMessage, { kind: 'core-contract' | 'error' }>;

/** The message a worker posts for a batch that failed with `error`. */
export function failureMessage(error: unknown): FailureMessage {
  if (error instanceof CoreContractError) return { kind: 'core-contract', breach: { ...error.breach } };
  return { kind: 'error', message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** The error the campaign raises for a worker's failure message. */
export function failureOf(message: FailureMessage): CoreContractError | TestbedError {
  return message.kind === 'core-contract' ? new CoreContractError(message.breach) : new TestbedError(message.message);
}
