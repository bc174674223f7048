/**
 * The core's view of grants per audience class (SPEC section 7, revocation).
 *
 * Policy changes reach the core two ways: by push (`push`, which may arrive late or never) and by
 * polling a {@link PolicySource} every `pollIntervalMs` through the Scheduler port (`track`). An
 * update applies only if its epoch is higher than the one held, so late pushes and out-of-order
 * poll replies can never move an audience backwards; every applied update emits
 * `policy_seen {audience, epoch, via}`. Until its first update an audience holds nothing, at
 * epoch 0.
 *
 * The same object is the discovery's {@link PolicyEpochView}: scans record and re-check the
 * epoch this state holds, so discovery and the gate never disagree about the current epoch.
 *
 * Order of calls: construct; `track(audience)` for every audience whose connections the host
 * attaches (the first poll runs at once through the scheduler, then every `pollIntervalMs`);
 * `push` whenever the policy service pushes; read with `epoch`/`holds`; `stop()` ends polling.
 */
import type { PolicyEpochView } from '../discovery/refresher.ts';
import { audienceName, type AudienceClass } from '../keys.ts';
import type { ObservationSink, ScheduledTask, Scheduler } from '../ports.ts';

/** One policy state of an audience class: its epoch and the tool names it holds. */
export interface PolicyGrants {
  /** Integer > 0, bumped by every grant or revocation. */
  epoch: number;
  /** Tool names the audience holds at that epoch. */
  grants: string[];
}

/** A pushed policy update. */
export interface PolicyUpdate extends PolicyGrants {
  audience: AudienceClass;
}

/**
 * The policy service as a port. `poll` resolves the audience's current epoch and grants; a
 * rejection, or a reply that is not a {@link PolicyGrants}, is ignored until the next poll.
 */
export interface PolicySource {
  poll(audience: AudienceClass): Promise<PolicyGrants>;
}

/** How an update reached the core, as written in `policy_seen`. */
export type PolicyChannel = 'push' | 'poll';

/** Default poll interval of a host outside the simulator, ms. */
export const DEFAULT_POLICY_POLL_MS = 10_000;

/** What {@link PolicyState} needs. `source` absent: push only, nothing is polled. */
export interface PolicyStateDeps {
  scheduler: Scheduler;
  sink: ObservationSink;
  source?: PolicySource;
  /** Interval between two polls of one audience, ms (> 0). */
  pollIntervalMs: number;
}

interface Held {
  epoch: number;
  grants: ReadonlySet<string>;
}

/** Grants per audience class, updated by push and poll, never backwards. */
export class PolicyState implements PolicyEpochView {
  readonly #held = new Map<string, Held>();
  readonly #polls = new Map<string, ScheduledTask | undefined>();
  #stopped = false;

  constructor(private readonly deps: PolicyStateDeps) {}

  /** The epoch held for an audience; 0 before its first update. */
  epoch(audience: AudienceClass): number {
    return this.#held.get(audienceName(audience))?.epoch ?? 0;
  }

  /** Whether the audience holds `toolName` at the epoch held now (nothing before the first update). */
  holds(audience: AudienceClass, toolName: string): boolean {
    return this.#held.get(audienceName(audience))?.grants.has(toolName) ?? false;
  }

  /** The grants held for an audience, sorted (empty before its first update). */
  grants(audience: AudienceClass): string[] {
    return [...(this.#held.get(audienceName(audience))?.grants ?? [])].sort();
  }

  /**
   * A pushed update (SPEC section 7: pushes may be late or lost). Applies it if its epoch is
   * higher than the one held; returns whether it applied. A malformed update (epoch not a safe
   * positive integer, grants not an array of strings) is ignored.
   */
  push(update: PolicyUpdate): boolean {
    return this.#apply(update.audience, update, 'push');
  }

  /**
   * Starts polling `audience` (idempotent): a first poll through the scheduler with delay 0, then
   * one every `pollIntervalMs`, whatever the previous poll's fate. Replies may overlap or arrive
   * out of order; the epoch guard keeps only the highest. Does nothing without a source.
   */
  track(audience: AudienceClass): void {
    const name = audienceName(audience);
    if (this.deps.source === undefined || this.#stopped || this.#polls.has(name)) return;
    this.#polls.set(name, undefined);
    this.#schedulePoll(audience, 0);
  }

  /** Stops every poll; pushes still apply. */
  stop(): void {
    this.#stopped = true;
    for (const task of this.#polls.values()) if (task !== undefined) this.deps.scheduler.cancel(task);
    this.#polls.clear();
  }

  #schedulePoll(audience: AudienceClass, delayMs: number): void {
    const task = this.deps.scheduler.after(delayMs, () => {
      if (this.#stopped) return;
      this.#schedulePoll(audience, this.deps.pollIntervalMs);
      void this.#pollOnce(audience);
    });
    this.#polls.set(audienceName(audience), task);
  }

  /**
   * Polls `audience` once now, outside the schedule, and resolves when its answer applied (or the
   * poll failed: nothing changes then). A rollback reads the epoch this way before it decides,
   * so it judges an old generation against the policy that holds now, not a push that was lost.
   */
  pollNow(audience: AudienceClass): Promise<void> {
    return this.#pollOnce(audience);
  }

  async #pollOnce(audience: AudienceClass): Promise<void> {
    try {
      const reply = await this.deps.source?.poll(audience);
      if (reply !== undefined) this.#apply(audience, reply, 'poll');
    } catch {
      // A failed poll changes nothing; the next one runs on schedule (polls are never lost for good).
    }
  }

  #apply(audience: AudienceClass, update: PolicyGrants, via: PolicyChannel): boolean {
    if (!isPolicyGrants(update)) return false;
    const name = audienceName(audience);
    if (update.epoch <= (this.#held.get(name)?.epoch ?? 0)) return false;
    this.#held.set(name, { epoch: update.epoch, grants: new Set(update.grants) });
    this.deps.sink.emit({ type: 'policy_seen', audience: name, epoch: update.epoch, via });
    return true;
  }
}

function isPolicyGrants(value: unknown): value is PolicyGrants {
  const candidate = value as Partial<PolicyGrants> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    Number.isSafeInteger(candidate.epoch) &&
    (candidate.epoch as number) > 0 &&
    Array.isArray(candidate.grants) &&
    candidate.grants.every((grant) => typeof grant === 'string')
  );
}
