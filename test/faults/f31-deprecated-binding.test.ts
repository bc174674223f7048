/**
 * F31: a new bundle binding a deprecated version, on the hand plan of test/mutants/plans.ts
 * (`deprecationPlan`): one server (latency 5 ms, pages of 2) shows acme.dev five tools at revision
 * 7, every planned call is made, the operator deprecates (no-new-binding) the `read_file` the
 * server lists at 500, and at 600 the server adds `echo` (revision 8). The core publishes
 * generation 2 at 665 and the planner is first shown it at 700 (seq 75), after the order.
 *
 * On the reference the call at 111 (generation 1, bound before the order) is admitted; the order
 * moves `read_file` v1 to `no-new-binding`, generation 2's bundle leaves it out, and the quiet
 * tail's probe of `read_file` through generation 2 at 2,038 is refused TOOL_NOT_PINNED (the world
 * does not expect it admitted). On `mutant:deprecation-ignored` the order is applied to nothing:
 * the probe is admitted through generation 2, which I34 catches at its receipt (seq 139). A core
 * without `deprecate` gets the order `unsupported`: I34 judges nothing, and the round is NOT
 * JUDGED on `lifecycle` (one order).
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { unjudgedIn } from '../../oracle/not-judged.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { deprecationPlan } from '../mutants/plans.ts';
import { runHand } from '../support/hand-plan.ts';
import { referenceKeeping } from '../support/reference-keeping.ts';

type Run = Awaited<ReturnType<typeof runHand>>;

/** The order and read_file's decisions, as `t what` lines. */
function readFileTrail(run: Run): string[] {
  return run.events.flatMap((event) => {
    if (event.type === 'deprecation_ordered')
      return [
        `${event.t} order ${event.tool} ${event.descriptorDigests.map((d) => d.slice(0, 12)).join(',')} ${event.delivery}`,
      ];
    if (event.type === 'gate_decision' && event.tool === 'read_file')
      return [`${event.t} decision ${event.decision} generation ${event.generation}`];
    return [];
  });
}

describe('F31: no new binding of a deprecated version', () => {
  it('the reference keeps the binding made before the order and binds nothing deprecated afterwards', async () => {
    const run = await runHand(deprecationPlan());
    expect(run.verdict.violations).toEqual([]);
    expect(readFileTrail(run)).toEqual([
      '111 decision ADMIT generation 1',
      '500 order read_file 038162adfa1d delivered',
      '2038 decision TOOL_NOT_PINNED generation 2',
    ]);
    expect(run.verdict.checked.I34).toBe(1);
    expect(probesHit(run.events).filter((name) => name.startsWith('deprecat'))).toEqual([
      'deprecation-ordered',
      'deprecated-not-bound',
    ]);
  });

  it('mutant:deprecation-ignored binds it again in generation 2: I34', async () => {
    const run = await runHand(deprecationPlan(), resolveCore('mutant:deprecation-ignored'));
    expect(readFileTrail(run)).toEqual([
      '111 decision ADMIT generation 1',
      '500 order read_file 038162adfa1d delivered',
      '2038 decision ADMIT generation 2',
    ]);
    expect(
      run.verdict.violations.map(({ invariant, seq, code, evidence }) => ({ invariant, seq, code, evidence })),
    ).toEqual([
      {
        invariant: 'I34',
        seq: 139,
        code: 'NEW_BINDING_OF_DEPRECATED',
        evidence:
          'receipt lease-14 (seq 139) admitted "read_file" 038162adfa1d through generation 2 of fp:0000000000000001|acme.dev, first disclosed at seq 75, after the operator deprecated that version (seq 46, t=500 ms, no-new-binding)',
      },
    ]);
  });

  it('a core without deprecate gets the order unsupported and is not judged on lifecycle, never passed', async () => {
    const run = await runHand(
      deprecationPlan(),
      referenceKeeping(['createClient', 'emergencyDisable', 'alias', 'remove', 'attachBackup']),
      'no-deprecate',
    );
    expect(run.verdict.violations).toEqual([]);
    expect(readFileTrail(run)[1]).toBe('500 order read_file 038162adfa1d unsupported');
    expect(run.verdict.checked.I34).toBe(0);
    expect(unjudgedIn(run.verdict.metrics)).toEqual({ lifecycle: 1 });
  });
});
