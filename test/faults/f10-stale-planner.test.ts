/**
 * F10: a stale planner calls late with a plan bound to an old snapshot.
 *
 * One versioned server shows acme.dev read_file and write_file (revision 7) until t=300, then
 * search_files and move_file instead (revision 8), and announces the change: list_changed reaches
 * the core at 305, the refresh starts 20 ms later and publishes generation 2 at 345 (one page and
 * the recheck, 10 ms each; generation 1 was published at 30 the same way). The planner ticks every
 * 100 ms from t=100 while t < 1000 and plans a call at every tick (callFraction 1), every one late
 * on purpose (staleFraction 1) by exactly 400 ms. The plans of 100, 200 and 300 are bound to
 * generation 1 and go out at 500, 600 and 700, when generation 2 is active and their tool is gone
 * from it: STALE_CATALOG, and nothing reaches the server. The plans of 400 to 900 are bound to
 * generation 2, still active when they go out at 800 to 1300: ADMIT.
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { handPlan, handServer, publishes, runHand, step, tools, type HandRun } from '../support/hand-plan.ts';

const plan = () =>
  handPlan({
    faults: ['F10'],
    servers: [
      handServer({
        history: [
          step(0, 7, { 'acme.dev': tools('read_file', 'write_file') }),
          step(300, 8, { 'acme.dev': tools('search_files', 'move_file') }, 'F1'),
        ],
      }),
    ],
    calls: { callFraction: 1, staleFraction: 1, staleDelayMs: [400, 400] },
  });

/** `[planned at, generation, decided at, decision]` of each planner call before the quiet tail. */
function staleCalls(run: HandRun): [number, number, number, string][] {
  const decisionOf = new Map(run.of('gate_decision').map((e) => [e.callId, e]));
  return run
    .of('plan_made')
    .filter((e) => e.kind === 'stale')
    .map((e) => {
      const decision = decisionOf.get(`${String(e.session)}#${String(e.planId)}`);
      return [e.t, e.generation as number, decision?.t ?? -1, String(decision?.decision)];
    });
}

describe('F10: stale planners', () => {
  it('plans bound to generation 1 are refused STALE_CATALOG 400 ms later, once generation 2 dropped their tools; later plans are admitted', async () => {
    const run = await runHand(plan());

    expect(
      publishes(run)
        .slice(0, 2)
        .map(([t, , generation, revision, names]) => [t, generation, revision, names]),
    ).toEqual([
      [30, 1, 7, ['read_file', 'write_file']],
      [345, 2, 8, ['search_files', 'move_file']],
    ]);
    expect(staleCalls(run)).toEqual([
      [100, 1, 500, 'STALE_CATALOG'],
      [200, 1, 600, 'STALE_CATALOG'],
      [300, 1, 700, 'STALE_CATALOG'],
      [400, 2, 800, 'ADMIT'],
      [500, 2, 900, 'ADMIT'],
      [600, 2, 1000, 'ADMIT'],
      [700, 2, 1100, 'ADMIT'],
      [800, 2, 1200, 'ADMIT'],
      [900, 2, 1300, 'ADMIT'],
    ]);
    expect(run.of('call_executed').filter((e) => ['read_file', 'write_file'].includes(e.tool as string))).toEqual([]);
    expect(run.verdict.violations).toEqual([]);
  });

  it("a gate that trusts the plan's generation admits the three stale calls, and I8 catches each as TOOL_NOT_IN_GENERATION", async () => {
    const run = await runHand(plan(), resolveCore('mutant:no-recheck-at-call'), 'mutant:no-recheck-at-call');
    expect(
      staleCalls(run)
        .slice(0, 3)
        .map(([, , , decision]) => decision),
    ).toEqual(['ADMIT', 'ADMIT', 'ADMIT']);
    expect(run.verdict.violations.map((v) => `${v.invariant} ${v.code}`)).toEqual(
      Array(3).fill('I8 TOOL_NOT_IN_GENERATION'),
    );
  });
});
