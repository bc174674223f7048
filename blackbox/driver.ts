/**
 * The driver of one case (catsim.driver.v1, contract/driver/): the host's adapter long-polls the
 * next step and posts its result. Step `seq` (from 1) is released only when the result of step
 * `seq - 1` is in, every entry of `CATSIM_SERVERS` (a server, or its tenant twin) has had a session, and the step's server-side
 * precondition holds in the wire record (for example "the notification was written"), so a judged
 * call never races a notification catsim asked for. `disclose` is the host's one self-report; its
 * names go into the record as a `disclosure` world event, which the oracle checks against the
 * pages served to that session. A step with a precondition is released SETTLE_MS after the
 * precondition holds.
 */
import type { BlackBoxCase, CaseStep } from './case.ts';
import type { CaseWorld } from './case-world.ts';

/** The driver protocol's name, in every step. */
export const DRIVER_SCHEMA = 'catsim.driver.v1';

/** How often a long poll re-checks a precondition, ms (real clock). */
const POLL_MS = 10;

/**
 * How long a step with a precondition waits after the precondition holds, ms (real clock). The
 * record says the server wrote the notification; the host reads it on another connection (for
 * stdio, through the shim's process), so a host is given this long to take it in before the step
 * that depends on it is released. The one real-clock allowance in the verdict (docs/BLACK-BOX.md).
 */
export const SETTLE_MS = 250;

/** A step as the adapter receives it. */
export type DriverStep = { schema: typeof DRIVER_SCHEMA; seq: number } & (
  | { kind: 'call'; server: string; tool: string; arguments: Record<string, unknown> }
  | { kind: 'disclose' }
  | { kind: 'sleep'; ms: number }
  | { kind: 'end' }
);

/** What the adapter posts for a step. */
export interface StepResult {
  readonly seq: number;
  /** `ok`: done; `error`: the call came back as an error (or failed); `refused`: the host refused it locally; `unsupported`: the host cannot do this kind of step. */
  readonly status: 'ok' | 'error' | 'refused' | 'unsupported';
  /** For `disclose`: per server name, the tool names the host would show a model now. */
  readonly tools?: Record<string, string[]>;
  /** One line the host adds (an error message); kept in the report, never judged. */
  readonly detail?: string;
}

/** The steps of one case and the results posted so far. */
export class Driver {
  readonly results: StepResult[] = [];
  #endReleased = false;
  /** The last step whose settle wait is over (a poll that timed out and came back does not wait twice). */
  #settled = 0;
  /** Long polls pending, by the seq they ask for. */
  readonly #polls = new Map<number, number>();
  /** Whether the host's adapter has asked for a step at least once. */
  #asked = false;

  constructor(
    private readonly spec: BlackBoxCase,
    private readonly world: CaseWorld,
  ) {}

  /** Whether the `end` step has been handed out. */
  get ended(): boolean {
    return this.#endReleased;
  }

  /** Whether the host's adapter (or the model endpoint on its behalf) has asked for any step yet. */
  get asked(): boolean {
    return this.#asked;
  }

  /** Whether the adapter has a long poll pending for the next step (the one without a result yet). */
  polling(): boolean {
    return (this.#polls.get(this.results.length + 1) ?? 0) > 0;
  }

  /**
   * Step `seq` once it may be released, or null when `waitMs` passed first (the adapter polls
   * again). @throws RangeError for a seq that does not exist or whose predecessor has no result.
   */
  async step(seq: number, waitMs: number, signal: AbortSignal): Promise<DriverStep | null> {
    const step = this.spec.steps[seq - 1];
    if (step === undefined || !Number.isSafeInteger(seq))
      throw new RangeError(`no step ${seq}: the case has ${this.spec.steps.length}`);
    if (this.results.length < seq - 1)
      throw new RangeError(`step ${seq} asked before the result of step ${this.results.length + 1}`);
    const deadline = Date.now() + waitMs;
    this.#asked = true;
    this.#polls.set(seq, (this.#polls.get(seq) ?? 0) + 1);
    try {
      while (!this.#ready(step)) {
        if (Date.now() >= deadline || signal.aborted) return null;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      this.#polls.set(seq, (this.#polls.get(seq) ?? 1) - 1);
    }
    if (step.after !== undefined && this.#settled < seq) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      this.#settled = seq;
    }
    if (step.kind === 'end') this.#endReleased = true;
    return wireStep(step, seq);
  }

  /** Takes a posted result; returns a one-line problem, or null when accepted. */
  post(body: unknown): string | null {
    const result = body as StepResult;
    if (typeof body !== 'object' || body === null || !Number.isSafeInteger(result.seq))
      return 'a result needs an integer seq';
    if (result.seq !== this.results.length + 1)
      return `result for step ${result.seq}, expected step ${this.results.length + 1}`;
    if (!['ok', 'error', 'refused', 'unsupported'].includes(result.status))
      return `status must be ok, error, refused or unsupported`;
    const step = this.spec.steps[result.seq - 1];
    if (step?.kind === 'disclose' && result.status === 'ok') {
      if (typeof result.tools !== 'object' || result.tools === null)
        return 'a disclose result needs tools: {server: [names]}';
      for (const [server, names] of Object.entries(result.tools)) {
        if (!this.world.hasServer(server))
          return `tools names ${JSON.stringify(server)}, which is not a server of this case`;
        if (!Array.isArray(names) || !names.every((name) => typeof name === 'string'))
          return `tools.${server} must be an array of names`;
      }
      for (const [server, names] of Object.entries(result.tools)) this.world.disclose(server, names, result.seq);
    }
    this.results.push({
      seq: result.seq,
      status: result.status,
      ...(result.tools === undefined ? {} : { tools: result.tools }),
      ...(typeof result.detail === 'string' ? { detail: result.detail.slice(0, 200) } : {}),
    });
    return null;
  }

  /**
   * What the next step still waits for, when every session is open but its precondition does not
   * hold (the host never did what the case needs to go on), or null.
   */
  blockedOn(): string | null {
    const seq = this.results.length + 1;
    const after = this.spec.steps[seq - 1]?.after;
    const opened = this.world.entries().every((entry) => this.world.entryOpened(entry.name));
    if (after === undefined || !opened || this.#ready(this.spec.steps[seq - 1] as CaseStep)) return null;
    return `step ${seq} waited for ${after.count ?? 1} ${after.event} of ${after.server} and the record holds ${this.world.count(after.event, after.server)}`;
  }

  #ready(step: CaseStep): boolean {
    const opened = this.world.entries().every((entry) => this.world.entryOpened(entry.name));
    if (!opened) return false;
    const after = step.after;
    return after === undefined || this.world.count(after.event, after.server) >= (after.count ?? 1);
  }
}

function wireStep(step: CaseStep, seq: number): DriverStep {
  const base = { schema: DRIVER_SCHEMA, seq } as const;
  switch (step.kind) {
    case 'call':
      return { ...base, kind: 'call', server: step.server, tool: step.tool, arguments: step.arguments };
    case 'disclose':
      return { ...base, kind: 'disclose' };
    case 'sleep':
      return { ...base, kind: 'sleep', ms: step.ms };
    case 'end':
      return { ...base, kind: 'end' };
  }
}
