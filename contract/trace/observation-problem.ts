/**
 * What the simulator's observation sink checks for each observation a core emits, before it enters
 * the trace: the observation as emitted must not carry `seq`, `t` or `src` (the sink stamps them),
 * and the stamped event must follow the contract (event-problem.ts), which also makes its type a
 * core event type: a core cannot pass an observation off as ground truth.
 */
import { eventProblem } from './event-problem.ts';

/**
 * Returns the first problem with one observation (`observation`, as the core emitted it; `stamped`,
 * the event the sink would record), or null.
 */
export function observationProblem(
  observation: Readonly<Record<string, unknown>>,
  stamped: Readonly<Record<string, unknown>>,
): string | null {
  for (const stamp of ['seq', 't', 'src']) {
    if (Object.hasOwn(observation, stamp))
      return `an observation must not carry "${stamp}" (the sink stamps seq, t and src)`;
  }
  return eventProblem(stamped);
}
