/**
 * I36, a result that breaks its output schema is never passed on as valid (SPEC section 9; MCP
 * 2025-11-25 `server/tools.mdx`: servers MUST return structured results that conform to the
 * tool's `outputSchema`, clients SHOULD validate them; issue 30: "a result violating its output
 * schema never passed on as valid"). For every structured result a server sent (`result_sent`,
 * F33), the oracle validates the content against the schema the world wrote beside it
 * (result-checks.ts), and reads the core's `receipt_outcome` of the same lease:
 *
 * - a violating result must be reported `output: "violates"` with an outcome other than `ok`
 *   (`INVALID_RESULT_PASSED`: the core said `conforms`, or `ok`);
 * - a conforming result must not be reported `violates` (`VALID_RESULT_REFUSED`: the core threw
 *   away a good result, which a core that refuses every result would do to pass the first rule).
 *
 * Not judged: a result whose lease has no outcome, or an `unknown` one (no answer reached the
 * core as far as it knows: a timeout, a cut connection, a host crash); a schema the oracle cannot
 * read; and an outcome without `output` (a core that does not check results: counted in the
 * round's metrics, `results.unchecked`, and the round is NOT JUDGED on `results`,
 * oracle/not-judged.ts, never passed). One work count per result judged.
 */
import type { CheckContext, Findings } from './check-context.ts';

/** I36: no result that breaks its output schema is passed on as valid, and no conforming one refused. */
export function checkOutputSchema(context: CheckContext, findings: Findings): void {
  for (const { sent, errors, outcome } of context.results) {
    if (errors === null || outcome === undefined || outcome.outcome === 'unknown' || outcome.output === undefined)
      continue;
    findings.count('I36');
    const what = `the result of ${JSON.stringify(sent.tool)} on ${sent.server} for ${sent.audience} (lease ${sent.leaseId}, result_sent seq ${sent.seq})`;
    if (errors.length > 0 && (outcome.output !== 'violates' || outcome.outcome === 'ok'))
      findings.add(
        'I36',
        outcome.seq,
        'INVALID_RESULT_PASSED',
        `${what} breaks its output schema (${errors.join(', ')}), but receipt_outcome seq ${outcome.seq} passed it on as ${outcome.outcome}, output ${outcome.output}`,
      );
    else if (errors.length === 0 && outcome.output === 'violates')
      findings.add(
        'I36',
        outcome.seq,
        'VALID_RESULT_REFUSED',
        `${what} conforms to its output schema, but receipt_outcome seq ${outcome.seq} says it violates it`,
      );
  }
}

/** How many of the round's structured results the core left unchecked (an outcome without `output`): not judged. */
export function uncheckedResults(context: CheckContext): number {
  return context.results.filter(
    ({ errors, outcome }) =>
      errors !== null && outcome !== undefined && outcome.outcome !== 'unknown' && outcome.output === undefined,
  ).length;
}
