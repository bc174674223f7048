/**
 * Reading tinybench results: the latency statistics of one task (its per-iteration samples), and
 * a failure when the task did not complete (a benchmark whose task threw has no figures).
 */
import type { Task } from 'tinybench';

/** Latency of one task over its samples, in ms. */
export interface Latency {
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  samples: number;
}

/**
 * The latency statistics of a finished task.
 * @throws Error when the task errored or has no statistics.
 */
export function latencyOf(task: Task | undefined): Latency {
  if (task === undefined) throw new Error('benchmark task missing');
  const result = task.result;
  if (result.state === 'errored') throw new Error(`${task.name}: ${result.error.message}`);
  if (result.state !== 'completed' && result.state !== 'aborted-with-statistics')
    throw new Error(`${task.name}: ${result.state}`);
  return {
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: result.latency.mean,
    samples: result.latency.samplesCount,
  };
}
