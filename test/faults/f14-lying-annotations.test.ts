/**
 * F14: annotations that lie. On an unversioned server (no revision, so only READ tools may be
 * called without a human confirmation; SPEC section 7) acme.dev is shown `read_file`, which the
 * trusted policy classes READ, and `purge_cache_a`, a destructive tool whose annotations say
 * `readOnlyHint: true` and which the policy leaves unclassified (so it counts as WRITE).
 *
 * The planner ticks every 100 ms from t=100 while t < T_heal = 1000 (9 ticks) and plans a call at
 * every tick (callFraction 1) on one of the two tools, never with a confirmation (confirmFraction 0).
 * The gate must take the effect class from the policy, never from the annotation: every call of
 * `purge_cache_a` is refused UNVERSIONED_WRITE and never sent, every call of `read_file` is
 * admitted. The quiet tail's two probes carry a confirmation and are both admitted.
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { lyingTool } from '../../sim/faults/f14-lying-annotations.ts';
import { handPlan, handServer, runHand, step, tool, type HandRun } from '../support/hand-plan.ts';

const plan = () =>
  handPlan({
    faults: ['F12', 'F14'],
    servers: [
      handServer({ versioned: false, history: [step(0, 7, { 'acme.dev': [tool('read_file'), lyingTool('a')] })] }),
    ],
    policy: { effectClasses: { read_file: 'READ' } },
    calls: { callFraction: 1, confirmFraction: 0 },
  });

/** `[tool, decision]` of each planner call before the quiet tail, in plan order. */
function plannedCalls(run: HandRun): [string, string][] {
  const decisionOf = new Map(run.of('gate_decision').map((e) => [e.callId, e.decision as string]));
  return run
    .of('plan_made')
    .filter((e) => e.kind === 'normal')
    .map((e) => [e.tool as string, decisionOf.get(`${String(e.session)}#${String(e.planId)}`) ?? 'none']);
}

describe('F14: lying annotations', () => {
  it('the readOnlyHint tool is refused UNVERSIONED_WRITE at every call without confirmation; read_file is admitted; both probes (confirmed) are admitted', async () => {
    const run = await runHand(plan());

    // Which tool each tick picks comes from the round's seed ("hand/0"): 5 reads and 4 purges.
    const R: [string, string] = ['read_file', 'ADMIT'];
    const P: [string, string] = ['purge_cache_a', 'UNVERSIONED_WRITE'];
    expect(plannedCalls(run)).toEqual([R, R, R, P, P, R, R, P, P]);
    const reads = plannedCalls(run).filter(([name]) => name === 'read_file');

    // Executed: every admitted read, then the two confirmed probes; purge_cache_a only as a probe.
    const executed = run.of('call_executed');
    expect(executed.filter((e) => e.tool === 'purge_cache_a').map((e) => e.t >= 2022)).toEqual([true]);
    expect(executed.filter((e) => e.tool === 'read_file')).toHaveLength(reads.length + 1);
    expect(run.verdict.metrics.probes).toEqual({ expected: 2, admitted: 2 });
    expect(run.verdict.violations).toEqual([]);
  });

  it('a gate that believes readOnlyHint is caught by I3 UNCONFIRMED_WRITE_EXECUTED, once per unconfirmed purge_cache_a call', async () => {
    const reference = plannedCalls(await runHand(plan()));
    const run = await runHand(plan(), resolveCore('mutant:trust-readonly-hint'), 'mutant:trust-readonly-hint');
    // The planner's choices do not depend on the gate's answers, so the mutant sees the same calls.
    expect(plannedCalls(run).map(([name]) => name)).toEqual(reference.map(([name]) => name));
    const purges = reference.filter(([name]) => name === 'purge_cache_a').length;
    expect(purges).toBe(4);
    expect(run.verdict.violations.map((v) => `${v.invariant} ${v.code}`)).toEqual(
      Array(purges).fill('I3 UNCONFIRMED_WRITE_EXECUTED'),
    );
  });
});
