/**
 * The stall window of a black-box case (docs/BLACK-BOX.md): a case whose next step is held for a
 * server-side precondition ("after page 2 of walk 1"), while the host's adapter long-polls that
 * very step and the host sends nothing to any of the case's servers, can never go on: only the
 * host's requests bring a precondition about. Once that has lasted the stall window, the case ends
 * UNDECIDED at once instead of at its timeout. The verdict is the same either way (UNDECIDED); the
 * window decides only when the host is cut off, as the case timeout does. A host that sends
 * anything on the wire within the window, or whose adapter is not waiting on the held step, is
 * never cut by it.
 *
 * Time comes in as the argument of `sample` (ms, any monotonic origin), so the rule is a function
 * of its samples.
 */

/** The default stall window, ms, before `--timeout-factor` scales it. */
export const STALL_MS_DEFAULT = 3_000;

/**
 * The case's one line when the stall rule cut it: what the held step waited for (`held`, as
 * Driver.blockedOn words it), the window, and `ended`, what was done about it (host-test kills the
 * host's process group; serve, which did not start the host, ends the case and closes its servers), and
 * `waiter`, what waited on the step: the host's adapter long-polling the driver, or, with the model
 * endpoint, the host's model request.
 */
export function stallLine(
  held: string,
  windowMs: number,
  ended: string,
  waiter: 'its adapter' | 'its model request' = 'its adapter',
): string {
  return `${held}, and the host sent nothing to the case's servers for ${windowMs} ms (the stall window) while ${waiter} waited on that step, so the case could not go on (${ended})`;
}

/** What the case looks like at one instant, as the stall rule needs it. */
export interface StallSample {
  /** The next step's seq (results posted + 1). */
  readonly seq: number;
  /** What the next step waits for (Driver.blockedOn), or null when it is not held. */
  readonly held: string | null;
  /** Whether the adapter has a long poll pending for that step. */
  readonly polling: boolean;
  /** Messages the host has sent to the case's servers so far (any server, session or transport). */
  readonly hostMessages: number;
}

/**
 * Decides, from successive samples, when a case has stalled: the next step held, a long poll
 * pending for it, and neither a new host message nor a new step for `windowMs`, counted from the
 * later of the host's last message and the first sample that found the adapter waiting on the
 * held step. A window of 0 turns the rule off.
 */
export class StallWatch {
  #seq = 0;
  #messages = -1;
  #quietSince: number;
  #waitingSince: number | null = null;

  /** @param windowMs the stall window, ms (0: never stalls). @param startMs the time of the first sample's origin (the host's spawn). */
  constructor(
    readonly windowMs: number,
    startMs: number,
  ) {
    this.#quietSince = startMs;
  }

  /**
   * Takes the case's state at `nowMs`; returns what the held step waits for (`sample.held`) once
   * the case has stalled, else null.
   */
  sample(nowMs: number, sample: StallSample): string | null {
    if (sample.hostMessages !== this.#messages) {
      this.#messages = sample.hostMessages;
      this.#quietSince = nowMs;
    }
    if (sample.seq !== this.#seq || sample.held === null) {
      this.#seq = sample.seq;
      this.#waitingSince = null;
    }
    if (this.windowMs === 0 || sample.held === null || !sample.polling) return null;
    this.#waitingSince ??= nowMs;
    return nowMs - Math.max(this.#quietSince, this.#waitingSince) >= this.windowMs ? sample.held : null;
  }
}
