/**
 * F33: a result that breaks its output schema, on the hand plan of test/mutants/plans.ts
 * (`outputViolationPlan`): one server (latency 5 ms, pages of 2) shows acme.dev five tools at
 * revision 7, every planned call is made, and `read_file` declares F33's output schema. The plan
 * breaks its first executed call's result (`call` 0, an extra property `note` where
 * `additionalProperties` is false); the others conform.
 *
 * read_file is called twice: by the planner at 111 (executed at 116, lease-0, result_sent seq 24:
 * `{status: "done", count: 0, note: "unexpected"}`) and by the quiet tail's probe at 2,038
 * (executed at 2,043, lease-13, result_sent seq 123: `{status: "done", count: 1}`). The reference
 * reports the first `error` / `violates` at 121 (seq 25) and the second `ok` / `conforms` at 2,048
 * (seq 124): I36 judges both and finds nothing. `mutant:output-unchecked` reports the first `ok` /
 * `conforms`, which I36 catches at seq 25.
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import { OUTPUT_SCHEMA, RESULT_CALLS_PLANNED, resultContent } from '../../sim/faults/f33-output-schema-violation.ts';
import { outputViolationPlan } from '../mutants/plans.ts';
import { runHand } from '../support/hand-plan.ts';

type Run = Awaited<ReturnType<typeof runHand>>;

/** The structured results the server sent and the outcomes of their leases, as `seq t what`. */
function resultTrail(run: Run): string[] {
  const leases = new Set(run.events.flatMap((event) => (event.type === 'result_sent' ? [event.leaseId] : [])));
  return run.events.flatMap((event) => {
    if (event.type === 'result_sent')
      return [`${event.seq} ${event.t} sent ${event.leaseId} ${JSON.stringify(event.structuredContent)}`];
    if (event.type === 'receipt_outcome' && leases.has(event.leaseId))
      return [`${event.seq} ${event.t} outcome ${event.leaseId} ${event.outcome} ${event.output}`];
    return [];
  });
}

describe('F33: a result that breaks its output schema is never passed on as valid', () => {
  it('the kinds of violation: a missing required property, a wrong type, an extra property', () => {
    expect(
      [null, 'missing-required', 'wrong-type', 'extra-property'].map((kind) => resultContent(3, kind as never)),
    ).toEqual([
      { status: 'done', count: 3 },
      { status: 'done' },
      { status: 'done', count: '3' },
      { status: 'done', count: 3, note: 'unexpected' },
    ]);
  });

  it('the reference reports the violating result violates (outcome error) and the conforming one conforms', async () => {
    const run = await runHand(outputViolationPlan());
    expect(run.verdict.violations).toEqual([]);
    expect(resultTrail(run)).toEqual([
      '24 116 sent lease-0 {"status":"done","count":0,"note":"unexpected"}',
      '25 121 outcome lease-0 error violates',
      '123 2043 sent lease-13 {"status":"done","count":1}',
      '124 2048 outcome lease-13 ok conforms',
    ]);
    expect(run.verdict.checked.I36).toBe(2);
    expect(run.verdict.metrics.results).toEqual({ sent: 2, violating: 1, unchecked: 0 });
    expect(probesHit(run.events)).toContain('output-violation-refused');
    // No other tool of the plan declares an output schema: their outcomes carry no `output`.
    const others = run.events.filter(
      (event) => event.type === 'receipt_outcome' && event.leaseId !== 'lease-0' && event.leaseId !== 'lease-13',
    );
    expect(others.length).toBe(12);
    expect(others.every((event) => event.type === 'receipt_outcome' && event.output === undefined)).toBe(true);
  });

  it('with no violation planned every result conforms and the probe is not hit', async () => {
    const run = await runHand(outputViolationPlan([]));
    expect(run.verdict.violations).toEqual([]);
    expect(resultTrail(run).filter((line) => line.includes('outcome'))).toEqual([
      '25 121 outcome lease-0 ok conforms',
      '124 2048 outcome lease-13 ok conforms',
    ]);
    expect(probesHit(run.events)).not.toContain('output-violation-refused');
  });

  it('mutant:output-unchecked passes the violating result on as ok: I36', async () => {
    const run = await runHand(outputViolationPlan(), resolveCore('mutant:output-unchecked'));
    expect(resultTrail(run)).toEqual([
      '24 116 sent lease-0 {"status":"done","count":0,"note":"unexpected"}',
      '25 121 outcome lease-0 ok conforms',
      '123 2043 sent lease-13 {"status":"done","count":1}',
      '124 2048 outcome lease-13 ok conforms',
    ]);
    expect(run.verdict.violations.map(({ invariant, seq, code }) => `${invariant}@${seq} ${code}`)).toEqual([
      'I36@25 INVALID_RESULT_PASSED',
    ]);
    expect(probesHit(run.events)).not.toContain('output-violation-refused');
  });

  it("the generator's F33 plans (capability-versions, seed 1, rounds 0..19): the tool declares the schema wherever listed", () => {
    const scenario = loadScenario('capability-versions');
    const kinds: Record<string, number> = {};
    let servers = 0;
    const rounds = new Set<number>();
    for (let round = 0; round < 20; round += 1) {
      for (const server of generatePlan('1', round, scenario).servers) {
        const results = server.structuredResults;
        if (results === undefined) continue;
        servers += 1;
        rounds.add(round);
        expect(results.tool).not.toBe('');
        for (const { call, kind } of results.violations) {
          expect(call).toBeLessThan(RESULT_CALLS_PLANNED);
          kinds[kind] = (kinds[kind] ?? 0) + 1;
        }
        const planted = new Set(server.planted.map((entry) => JSON.stringify(entry.descriptor)));
        for (const step of server.history)
          for (const view of Object.values(step.views))
            for (const tool of view)
              if (tool.name === results.tool && !planted.has(JSON.stringify(tool)))
                expect(tool.outputSchema).toEqual(OUTPUT_SCHEMA);
      }
    }
    // Counted from the plans when the fault took the id F33 (its streams `server/<id>/F33`).
    expect([rounds.size, servers]).toEqual([10, 15]);
    expect(kinds).toEqual({ 'extra-property': 16, 'missing-required': 22, 'wrong-type': 22 });
  });
});
