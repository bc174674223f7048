/**
 * A coverage probe (SPEC section 11): a named situation a campaign must reach, because a defence
 * that was never exercised proves nothing. A probe is a predicate over one round's events (what
 * the world did and what the core observed); a round hits a probe at most once. Probes judge
 * traces, so they live beside the oracle and read only the oracle's trace types.
 */
import type { KnownEvent } from '../trace.ts';

/** A named probe and how it is recognised in a round. */
export interface Probe {
  /** Kebab-case name, used in reports, `requiredProbes` and the fault registry. */
  readonly name: string;
  /** What the situation is, in one line. */
  readonly description: string;
  /** Whether the round whose documented events are `events` (in trace order) reached it. */
  hit(events: readonly KnownEvent[]): boolean;
}
