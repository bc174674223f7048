/**
 * A campaign worker thread: receives batches of rounds, runs them, and posts one message per
 * round. Runs on its own thread so that the main thread's progress bar and pool timers never
 * land on a round's virtual clock.
 */
import { parentPort } from 'node:worker_threads';
import { runBatch, type BatchJob } from './batch.ts';
import { failureMessage, type WorkerMessage } from './worker-message.ts';

const port = parentPort;
if (port === null) throw new Error('campaign worker must run in a worker thread');

port.on('message', (job: BatchJob) => {
  runBatch(job, (result) => port.postMessage({ kind: 'round', result } satisfies WorkerMessage), (round) => port.postMessage({ kind: 'round-start', round } satisfies WorkerMessage))
    .then(() => port.postMessage({ kind: 'batch-done' } satisfies WorkerMessage))
    .catch((error: unknown) => port.postMessage(failureMessage(error)));
});
