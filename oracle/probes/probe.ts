/**
 * A coverage probe (SPEC section 11): a named situation a campaign must reach, because a defence
 * that was never exercised proves nothing. A probe is a predicate over one round's events (what
 * the world did and what the core observed); a round hits a probe at most once. Probes judge
 * traces, so they live beside the oracle and read only the oracle's trace types.
 */
import type { KnownEvent } from '../trace.ts';

/** What a probe reads (see {@link Probe.basis}). */
export type ProbeBasis = 'world' | 'reference';

/** A named probe and how it is recognised in a round. */
export interface Probe {
  /** Kebab-case name, used in reports, `requiredProbes` and the fault registry. */
  readonly name: string;
  /** What the situation is, in one line. */
  readonly description: string;
  /**
   * What the probe reads. `world`: only what the world did (its own events: pages served, revisions,
   * calls sent and refused by servers, policy changes), so any core's campaign reaches it as often
   * as the reference core's, and the probe gate holds every core to it. `reference`: a defence's
   * own outcome as a core reports it (a scan ended for a reason, a gate refusal, a rollback
   * publish), which a core that defends otherwise, or reports less, never shows: the gate holds
   * only `--core reference` to it, and summaries list such probes apart.
   */
  readonly basis: ProbeBasis;
  /** Whether the round whose documented events are `events` (in trace order) reached it. */
  hit(events: readonly KnownEvent[]): boolean;
}
