import { describe, expect, it } from 'vitest';
import { checkTrace } from './check.ts';
import {
  DEV,
  DEV_KEY,
  DEV_SESSION,
  admissionRound,
  admissionWorld,
  devWalk,
  finish,
  opsWalk,
} from './testing/scenarios.ts';
import { TraceBuilder } from './testing/trace-builder.ts';

describe('round metrics', () => {
  it('count gate decisions by decision, keys in code-unit order whatever the trace order', () => {
    const b = new TraceBuilder();
    admissionWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    opsWalk(b);
    b.disclosure(devPublish, { session: DEV_SESSION });
    for (const [planId, decision] of [
      ['p0', 'UNVERSIONED_WRITE'],
      ['p1', 'ADMIT'],
      ['p2', 'ARGS_INVALID'],
      ['p3', 'UNVERSIONED_WRITE'],
    ] as const) {
      b.call({ session: DEV_SESSION, planId, key: DEV_KEY, tool: 'a', decision });
    }
    finish(b);
    const { decisions } = checkTrace(b.build()).metrics;
    expect(decisions).toEqual({ ADMIT: 1, ARGS_INVALID: 1, UNVERSIONED_WRITE: 2 });
    expect(Object.keys(decisions)).toEqual(['ADMIT', 'ARGS_INVALID', 'UNVERSIONED_WRITE']);
  });

  it('count an executed call as covered only with exactly one binding receipt', () => {
    const b = new TraceBuilder();
    admissionWorld(b);
    const devPublish = devWalk(b).publishSeq ?? -1;
    opsWalk(b);
    b.disclosure(devPublish, { session: DEV_SESSION });
    b.call({ session: DEV_SESSION, planId: 'p0', key: DEV_KEY, tool: 'a' });
    b.callExecuted({ audience: DEV, tool: 'a', leaseId: null });
    b.receipt({ callId: 'x', leaseId: 'lease-u', key: DEV_KEY, tool: 'a', binding: { policyEpoch: 0 } });
    b.callExecuted({ audience: DEV, tool: 'a', leaseId: 'lease-u' });
    finish(b);
    expect(checkTrace(b.build()).metrics.receipts).toEqual({ executed: 3, covered: 1 });
  });

  it('are plain JSON, equal across two checks of the same trace, and fresh each time', () => {
    const trace = admissionRound().builder.build();
    const first = checkTrace(trace).metrics;
    const second = checkTrace(trace).metrics;
    expect(JSON.parse(JSON.stringify(first))).toEqual(first);
    expect(second).toEqual(first);
    first.revocationDelaysMs.push(1);
    expect(checkTrace(trace).metrics.revocationDelaysMs).toEqual([40]);
  });
});
