/**
 * A campaign worker thread: receives batches of rounds, runs them, and posts one message per
 * round; or receives one plan (runner/plan-thread.ts) and posts its checked run. Runs on
 * its own thread so that the main thread's progress bar and pool timers never land on a round's
 * virtual clock, and so that the main thread can bound a round's time and memory.
 */
import { parentPort } from 'node:worker_threads';
import { runBatch, type BatchJob } from './batch.ts';
import { loadCore } from '../cores/index.ts';
import { checkPlan } from './round-check.ts';
import { failureMessage, type PlanJob, type WorkerMessage } from './worker-message.ts';

const port = parentPort;
if (port === null) throw new Error('campaign worker must run in a worker thread');

/** Runs one plan and posts its summary and run. */
async function runPlanJob(job: PlanJob): Promise<WorkerMessage> {
  const core = await loadCore(job.core);
  port?.postMessage({ kind: 'round-start', round: job.plan.round } satisfies WorkerMessage);
  const { summary, run } = await checkPlan(job.plan, core, job.core);
  return { kind: 'plan-done', summary, run };
}

port.on('message', (job: BatchJob | PlanJob) => {
  if ('kind' in job) {
    runPlanJob(job).then(
      (message) => port.postMessage(message),
      (error: unknown) => port.postMessage(failureMessage(error)),
    );
    return;
  }
  runBatch(
    job,
    (result) => port.postMessage({ kind: 'round', result } satisfies WorkerMessage),
    (round) => port.postMessage({ kind: 'round-start', round } satisfies WorkerMessage),
  )
    .then(() => port.postMessage({ kind: 'batch-done' } satisfies WorkerMessage))
    .catch((error: unknown) => port.postMessage(failureMessage(error)));
});
