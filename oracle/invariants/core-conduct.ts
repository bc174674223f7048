/**
 * Core conduct, CORE_FAILED (docs/CORE-API.md): the core answered every call of the world. Not an
 * invariant of the catalog but a clause of the core API `catsim.core.v1`; the world writes a
 * `core_failed` event (ground truth: the world saw it) when a call of the core threw, `call`
 * rejected, an answer was outside the API, or a promise the core left unhandled rejected.
 *
 * One violation per kind of failure (`during` and `reason`) in a round, anchored at its first
 * `core_failed` and counting the others of that kind, so that a core that throws at every
 * disclosure reports the fact once, not a hundred times. The code is the event's `reason`
 * (`THREW`, `REJECTED`, `MALFORMED_ANSWER`, `UNHANDLED_REJECTION`).
 */
import type { CoreFailedEvent } from '../trace.ts';
import { CORE_FAILED } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** Reports the round's core failures. */
export function checkCoreConduct(context: CheckContext, findings: Findings): void {
  const byKind = new Map<string, CoreFailedEvent[]>();
  for (const failure of context.truth.coreFailures) {
    const kind = JSON.stringify([failure.during, failure.reason]);
    const same = byKind.get(kind);
    if (same === undefined) byKind.set(kind, [failure]);
    else same.push(failure);
  }
  for (const [first, ...others] of byKind.values()) {
    if (first === undefined) continue;
    const more =
      others.length === 0 ? '' : ` (and ${others.length} more time${others.length === 1 ? '' : 's'} in this round)`;
    findings.add(
      CORE_FAILED,
      first.seq,
      first.reason,
      `the core ${describeFailure(first)} at seq ${first.seq} (t=${first.t} ms): ${first.error}${more}`,
    );
  }
}

/** `disclose threw`, `call rejected`, `answered disclose outside the core API`, `left a promise rejection unhandled`. */
function describeFailure(failure: CoreFailedEvent): string {
  switch (failure.reason) {
    case 'REJECTED':
      return `${failure.during} rejected`;
    case 'MALFORMED_ANSWER':
      return `answered ${failure.during} outside the core API`;
    case 'UNHANDLED_REJECTION':
      return 'left a promise rejection unhandled';
    default:
      return failure.during === 'scheduled' ? 'threw in a callback it scheduled' : `${failure.during} threw`;
  }
}
