/**
 * The lines `catsim replay` and `catsim check` print for the capabilities one round could not
 * judge because the core left them out (oracle/not-judged.ts): each `NOT JUDGED` (exit 1) or, when
 * accepted by `--not-judged` or the scenario, `skipped`; never a pass.
 */
import { CAPABILITIES, type Capability } from '../../oracle/not-judged.ts';
import { coveredText } from './summary.ts';

/**
 * One line per capability the round left unjudged, in `CAPABILITIES` order, e.g. `NOT JUDGED:
 * rollback (2 rollback triggers): the core does not implement it (--not-judged rollback accepts
 * it)` or `skipped (not judged, accepted): rollback (2 rollback triggers)`; `unaccepted` is true
 * when any was not accepted.
 */
export function notJudgedLines(
  unjudged: Partial<Record<Capability, number>>,
  accepted: readonly Capability[],
): { lines: string[]; unaccepted: boolean } {
  const lines: string[] = [];
  let unaccepted = false;
  for (const capability of CAPABILITIES) {
    const count = unjudged[capability];
    if (count === undefined) continue;
    const text = coveredText({ capability, rounds: 0, count });
    if (accepted.includes(capability)) lines.push(`skipped (not judged, accepted): ${text}`);
    else {
      unaccepted = true;
      lines.push(`NOT JUDGED: ${text}: the core does not implement it (--not-judged ${capability} accepts it)`);
    }
  }
  return { lines, unaccepted };
}
