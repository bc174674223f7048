/**
 * F8: a revocation whose push is lost must still reach the core by polling, within the bound.
 *
 * One versioned server shows acme.dev five tools (latency 5 ms each way); the policy service
 * revokes `write_file` from acme.dev at t=300. The core polls every 500 ms from t=0 and a poll
 * answers after the nominal 5 ms, so it sees epoch 1 at 5 and epoch 2 at 505 when every push is
 * lost: the revocation took 505 - 300 = 205 ms to propagate. When the push is delivered (push
 * latency 5 ms) the core sees epoch 2 at 305, 5 ms after the revocation. Either way, the quiet
 * tail's probe of `write_file` at t=2022 (the world expects it refused) is refused locally with
 * POLICY_REVOKED at epoch 2 and never reaches the server; the other four probes are admitted and
 * executed, each with one receipt at epoch 2.
 */
import { describe, expect, it } from 'vitest';
import { handPlan, handServer, runHand, step, tools, type HandRun } from '../support/hand-plan.ts';
import { probesHit } from '../../oracle/probes/index.ts';

const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

async function revokeWriteFileAt300(pushLossFraction: number): Promise<HandRun> {
  return runHand(
    handPlan({
      faults: ['F8'],
      servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] })],
      policy: { changes: [{ atMs: 300, audience: 'acme.dev', revoke: ['write_file'], grant: [] }], pushLossFraction },
    }),
  );
}

/** `[tool, decision, policyEpoch]` of every gate decision, sorted by tool. */
function decisions(run: HandRun): [string, string, number][] {
  return run
    .of('gate_decision')
    .map((e): [string, string, number] => [e.tool as string, e.decision as string, e.policyEpoch as number])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

describe('F8: revocation with lost or delivered pushes', () => {
  it('every push lost: the poll at 500 brings epoch 2 at 505, 205 ms after the revocation, and write_file is refused POLICY_REVOKED without reaching the server', async () => {
    const run = await revokeWriteFileAt300(1);

    expect(run.of('policy_changed').map((e) => [e.t, e.epoch, e.revoked])).toEqual([
      [0, 1, []],
      [300, 2, ['write_file']],
    ]);
    expect(run.of('policy_push').map((e) => [e.t, e.epoch, e.delivered])).toEqual([
      [0, 1, false],
      [300, 2, false],
    ]);
    expect(run.of('policy_seen').map((e) => [e.t, e.epoch, e.via])).toEqual([
      [5, 1, 'poll'],
      [505, 2, 'poll'],
    ]);
    expect(run.verdict.metrics.revocationDelaysMs).toEqual([205]);

    expect(run.of('plan_made').map((e) => [e.t, e.tool, e.kind, e.expectAdmit])).toEqual([
      [2022, 'read_file', 'probe', true],
      [2022, 'write_file', 'probe', false],
      [2022, 'list_directory', 'probe', true],
      [2022, 'search_files', 'probe', true],
      [2022, 'move_file', 'probe', true],
    ]);
    expect(decisions(run)).toEqual([
      ['list_directory', 'ADMIT', 2],
      ['move_file', 'ADMIT', 2],
      ['read_file', 'ADMIT', 2],
      ['search_files', 'ADMIT', 2],
      ['write_file', 'POLICY_REVOKED', 2],
    ]);
    expect(
      run
        .of('call_executed')
        .map((e) => e.tool)
        .sort(),
    ).toEqual(['list_directory', 'move_file', 'read_file', 'search_files']);
    expect(
      run
        .of('receipt')
        .map((e) => [e.tool, e.policyEpoch])
        .sort(),
    ).toEqual([
      ['list_directory', 2],
      ['move_file', 2],
      ['read_file', 2],
      ['search_files', 2],
    ]);
    expect(run.verdict.metrics.receipts).toEqual({ executed: 4, covered: 4 });
    expect(run.verdict.violations).toEqual([]);
  });

  it('push delivered: the core sees epoch 2 at 305, 5 ms after the revocation, by push', async () => {
    const run = await revokeWriteFileAt300(0);

    expect(run.of('policy_push').map((e) => [e.t, e.epoch, e.delivered])).toEqual([
      [0, 1, true],
      [300, 2, true],
    ]);
    expect(
      run
        .of('policy_seen')
        .filter((e) => e.epoch === 2)
        .map((e) => [e.t, e.via]),
    ).toEqual([[305, 'push']]);
    expect(run.verdict.metrics.revocationDelaysMs).toEqual([5]);
    expect(decisions(run).find(([tool]) => tool === 'write_file')).toEqual(['write_file', 'POLICY_REVOKED', 2]);
    expect(run.of('call_executed').map((e) => e.tool)).not.toContain('write_file');
    expect(run.verdict.violations).toEqual([]);
  });

  it('a mid-call revocation: the first executed call revokes its own tool while its lease is live, and the tool is refused from the next call on', async () => {
    // The planner's tick at 100 plans read_file (the round's seed picks it); the call leaves the
    // core at 111 (receipt, lease-0), the server executes it at 116 and the policy service revokes
    // read_file for acme.dev at that instant (epoch 2), 5 ms before the answer reaches the core at
    // 121 (receipt_outcome). The push (latency 5) reaches the core at 121 too, so the planner's
    // retries of the revoked tool (a model is not told) from 200 on are refused POLICY_REVOKED.
    const run = await runHand(
      handPlan({
        faults: ['F8'],
        servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] })],
        policy: { midCallRevocations: 1 },
        calls: { callFraction: 1 },
      }),
    );
    const story = run.events
      .filter(
        (e) =>
          e.t < 250 &&
          ['receipt', 'call_executed', 'policy_changed', 'receipt_outcome', 'gate_decision'].includes(e.type),
      )
      .map((e) => {
        switch (e.type) {
          case 'policy_changed':
            return [e.t, e.type, e.epoch, e.revoked];
          case 'gate_decision':
            return [e.t, e.type, e.tool, e.decision];
          case 'receipt_outcome':
            return [e.t, e.type, e.leaseId, e.outcome];
          default:
            return [e.t, e.type, (e as { leaseId?: unknown }).leaseId];
        }
      });
    expect(story).toEqual([
      [0, 'policy_changed', 1, []],
      [111, 'gate_decision', 'read_file', 'ADMIT'],
      [111, 'receipt', 'lease-0'],
      [116, 'call_executed', 'lease-0'],
      [116, 'policy_changed', 2, ['read_file']],
      [121, 'receipt_outcome', 'lease-0', 'ok'],
      [216, 'gate_decision', 'read_file', 'POLICY_REVOKED'],
    ]);
    // Only the first call revokes (midCallRevocations 1): one revocation in the whole round.
    expect(run.of('policy_changed').filter((e) => e.revoked.length > 0).length).toBe(1);
    expect(probesHit(run.events)).toContain('revocation-while-lease-live');
    expect(run.verdict.violations).toEqual([]);
  });
});
