/**
 * F19: operator and monitor rollback triggers, on the hand plan of test/mutants/plans.ts
 * (`rollbackPlan`): one server (latency 5 ms, pages of 2) shows acme.dev five tools at revision 7,
 * then the same five at revision 8 from 300. The reference publishes generation 1 at 50 and,
 * after the revision's list_changed, generation 2 at 365; its next refresh is one refresh interval
 * (1,000 ms) after that.
 *
 * A trigger at 500: the reference polls the policy (one message latency each way, 5 ms) and at 505
 * rolls back to generation 1 (still epoch 1, unexpired): generation 3, `rolledBackFrom` 1. With a
 * revocation at 400 (epoch 2) and a trigger at 600, both earlier generations were discovered at
 * epoch 1: the key is DISABLED at 605 until the refresh at 1,405 publishes again. That refresh
 * also shows what F19 does not prevent yet: the server still serves revision 8, so the rolled-away
 * content comes back as generation 4 at 1,405 (nothing holds a rolled-away page root).
 */
import { describe, expect, it } from 'vitest';
import { probesHit } from '../../oracle/probes/index.ts';
import { resolveCore } from '../../cores/index.ts';
import { runHand } from '../support/hand-plan.ts';
import { rollbackPlan } from '../mutants/plans.ts';

/** The pointer moves and the trigger, as `t kind generation/from` lines. */
function pointerTrail(run: Awaited<ReturnType<typeof runHand>>): string[] {
  return run.events.flatMap((event) => {
    if (event.type === 'published')
      return [
        `${event.t} published ${event.generation}${event.rolledBackFrom === null ? '' : ` from ${event.rolledBackFrom}`} r${event.sourceRevision}`,
      ];
    if (event.type === 'server_disabled') return [`${event.t} server_disabled ${event.reason}`];
    if (event.type === 'rollback_triggered') return [`${event.t} trigger ${event.kind} ${event.delivery}`];
    return [];
  });
}

describe('F19: rollback triggers', () => {
  it("rolls back to the fresh, still-authorized generation 1; the next refresh republishes the server's revision 8", async () => {
    const run = await runHand(rollbackPlan({ triggerAtMs: 500 }));
    expect(run.verdict.violations).toEqual([]);
    expect(pointerTrail(run)).toEqual([
      '50 published 1 r7',
      '365 published 2 r8',
      '500 trigger missing_tool_rate delivered',
      '505 published 3 from 1 r7',
      '1405 published 4 r8',
    ]);
    expect(probesHit(run.events).filter((name) => name.includes('roll'))).toEqual([
      'rollback-missing-tool-delivered',
      'rolled-back-to-fresh',
    ]);
    expect([run.verdict.checked.I21, run.verdict.checked.I28, run.verdict.checked.I29]).toEqual([1, 1, 1]);
  });

  it('DISABLES the key when no earlier generation was discovered under the policy holding at the trigger', async () => {
    const run = await runHand(rollbackPlan({ triggerAtMs: 600, kind: 'privilege_escalation', revokeAtMs: 400 }));
    expect(run.verdict.violations).toEqual([]);
    expect(pointerTrail(run)).toEqual([
      '50 published 1 r7',
      '365 published 2 r8',
      '600 trigger privilege_escalation delivered',
      '605 server_disabled privilege_escalation',
      '1405 published 3 r8',
    ]);
    expect(probesHit(run.events).filter((name) => name.includes('roll'))).toEqual([
      'rollback-escalation-delivered',
      'rollback-disabled',
    ]);
  });

  it('a core without rollback hears nothing: the trigger is written unsupported and nothing is judged', async () => {
    const run = await runHand(rollbackPlan({ triggerAtMs: 500 }), resolveCore('peer:list-once'), 'peer:list-once');
    expect(run.of('rollback_triggered').map((event) => [event.t, event.delivery])).toEqual([[500, 'unsupported']]);
    expect([run.verdict.checked.I21, run.verdict.checked.I28, run.verdict.checked.I29]).toEqual([0, 0, 0]);
    expect(run.verdict.metrics.rollbackTriggers).toEqual({ unsupported: 1 });
  });
});
