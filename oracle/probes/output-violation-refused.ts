/**
 * Coverage probe `output-violation-refused` (F33): the core checked a result's `structuredContent`
 * against the output schema of the version it admitted and did not pass it on as valid
 * (`receipt_outcome.output` `violates`), so a server broke its schema in the round and the defence
 * judged by I36 ran. It reads the core's outcomes, so only the reference core is held to it.
 */
import type { Probe } from './probe.ts';

/** A `receipt_outcome` that says the result violates its output schema. */
export const outputViolationRefused: Probe = {
  name: 'output-violation-refused',
  basis: 'reference',
  description: 'a result that broke its output schema was not passed on as valid (F33)',
  hit: (events) => events.some((event) => event.type === 'receipt_outcome' && event.output === 'violates'),
};
