/**
 * One worker thread that runs plans one at a time, for the commands that used to run a round in
 * catsim's own thread (`replay`, `shrink`, the shrink after `run`, `prove --peers --shrink`).
 * Fault model (of the core under test, as seen from here): a core stuck in synchronous code never
 * lets its worker answer, and one that allocates without bound kills its worker with a heap
 * exhaustion. Either way the round is abandoned as the core's failure (runner/abandoned-round.ts:
 * `CORE_FAILED TIMED_OUT` or `OUT_OF_MEMORY`, no trace), and the next plan gets a fresh worker.
 * Order of calls: `run` as often as needed (one at a time), then `close`.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { RoundPlan } from '../sim/plan/types.ts';
import type { RoundRun } from '../sim/round.ts';
import { abandonedSummary, type AbandonCode } from './abandoned-round.ts';
import type { RoundSummary } from './round-check.ts';
import { TestbedError } from './testbed-error.ts';
import { WORKER_ENTRY } from './worker-entry-url.ts';
import { failureOf, type FailureMessage, type PlanJob, type WorkerMessage } from './worker-message.ts';

/** How a {@link PlanThread} bounds its rounds. */
export interface PlanThreadOptions {
  /** Real ms a round may run before its worker is terminated and the round is abandoned (`TIMED_OUT`). */
  roundTimeoutMs: number;
  /** Heap limits of the worker (tests use a small heap to exhaust it quickly); default Node's. */
  resourceLimits?: ResourceLimits;
}

/** What became of one plan: it ran (its summary and whole run), or it was abandoned (its summary only). */
export type PlanOutcome =
  | { kind: 'ran'; summary: RoundSummary; run: RoundRun }
  | { kind: 'abandoned'; code: AbandonCode; summary: RoundSummary };

/** A worker thread that runs and checks one plan at a time, bounded in time and memory. */
export class PlanThread {
  readonly #options: PlanThreadOptions;
  #worker: Worker | undefined;

  constructor(options: PlanThreadOptions) {
    this.#options = options;
  }

  /**
   * Runs and checks `plan` on the core named `core` (a `--core` value) in the worker thread.
   * @throws CoreContractError when the core emitted an observation outside the trace contract;
   *   TestbedError when the round crashed the testbed or the worker ended for another reason
   *   than the two of an abandoned round (a core that calls process.exit).
   */
  run(plan: RoundPlan, core: string): Promise<PlanOutcome> {
    const worker = this.#worker ?? this.#start();
    const limitMs = this.#options.roundTimeoutMs;
    return new Promise<PlanOutcome>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      // Only this call's own listeners go: removeAllListeners would also remove the Worker's
      // internal ones, after which a message listener added for the next plan never hears a thing.
      const settle = (drop: boolean): void => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (drop) this.#drop();
      };
      const abandon = (code: AbandonCode): void => {
        settle(true);
        resolve({ kind: 'abandoned', code, summary: abandonedSummary(plan, code, limitMs) });
      };
      const onMessage = (message: WorkerMessage): void => {
        // real-clock: the limit runs on this thread, where no round runs.
        if (message.kind === 'round-start') timer = setTimeout(() => abandon('TIMED_OUT'), limitMs);
        else if (message.kind === 'plan-done') {
          settle(false);
          resolve({ kind: 'ran', summary: message.summary, run: message.run });
        } else {
          settle(true);
          reject(failureOf(message as FailureMessage));
        }
      };
      const onError = (error: Error & { code?: string }): void => {
        if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') return abandon('OUT_OF_MEMORY');
        settle(true);
        reject(new TestbedError(`worker crashed: ${error.message}`));
      };
      const onExit = (code: number): void => {
        settle(true);
        reject(
          new TestbedError(
            `the worker thread running round ${plan.round} ended (exit code ${code}): a core that calls process.exit, or a crash, ends its worker`,
          ),
        );
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ kind: 'plan', plan, core } satisfies PlanJob);
    });
  }

  /** Ends the worker thread, if one runs; `run` may be called again afterwards (it starts a new one). */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #start(): Worker {
    const limits = this.#options.resourceLimits;
    this.#worker = new Worker(WORKER_ENTRY, limits === undefined ? {} : { resourceLimits: limits });
    return this.#worker;
  }

  /** Lets the current worker go (terminated, or dead already); the next `run` starts a fresh one. */
  #drop(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    void worker?.terminate();
  }
}
