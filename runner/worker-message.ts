/**
 * What a campaign worker thread posts to the campaign, and how a failure crosses the thread
 * boundary: a structured clone keeps no class, so a `CoreContractError` (a core emitted an
 * observation outside the trace contract, exit 3 with its own one-line message) travels as its
 * breach and is rebuilt on the other side; any other error travels as `name: message` and
 * becomes a `TestbedError`.
 */
import type { BatchResult } from './batch.ts';
import { CoreContractError, type ContractBreach } from '../sim/trace/core-contract-error.ts';
import { TestbedError } from './testbed-error.ts';

/** Messages a worker posts: `round-start` before each round, `round` after it, `batch-done` after the batch. */
export type WorkerMessage =
  | { kind: 'round-start'; round: number }
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
