/**
 * Settlement: every reservation the stage sees is closed exactly once, through the owner's own
 * ledger, and a second settlement is an error raised to the caller (seed 003, section 5). Also
 * the reference ledger's own contract.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryRequestLedger } from './in-memory-request-ledger.ts';
import type { RequestLedger, RequestReservation } from './request-ledger.ts';
import type { SealedDispatchRecord } from './sealed-dispatch-record.ts';
import { SettlementError } from './settlement-error.ts';
import type { SurfaceRejection } from './surface-rejection.ts';
import type { SurfaceTool } from './surface-tool.ts';
import { researchFacts, researchGeneration, reserved } from './testing/fixtures.ts';
import { recordingModel } from './testing/generation.ts';
import { ToolSurfaceStage } from './tool-surface-stage.ts';

const FACTS = researchFacts(researchGeneration());

/** A ledger port that logs every call the stage makes, in order, and delegates to a reference ledger. */
class LoggingLedger implements RequestLedger {
  readonly calls: string[] = [];
  readonly inner = new InMemoryRequestLedger();

  reserve(request: { requestId: string; session: string }): RequestReservation {
    this.calls.push(`reserve ${request.requestId}`);
    return this.inner.reserve(request);
  }

  dispatched(reservation: RequestReservation, record: SealedDispatchRecord): void {
    this.calls.push(`dispatched ${reservation.requestId}`);
    this.inner.dispatched(reservation, record);
  }

  preDispatchRejected(reservation: RequestReservation, rejection: SurfaceRejection): void {
    this.calls.push(`preDispatchRejected ${reservation.requestId} ${rejection.code}`);
    this.inner.preDispatchRejected(reservation, rejection);
  }
}

describe("the stage settles each request exactly once through the owner's ledger", () => {
  it('a dispatched request: one dispatched call, made before the model-call port is called', async () => {
    const ledger = new LoggingLedger();
    const reservation = ledger.reserve({ requestId: 'r1', session: 's1' });
    const stage = new ToolSurfaceStage();
    const prepared = await stage.prepare({ owner: { ledger, reservation }, facts: FACTS, context: null });
    if (!prepared.ok) throw new Error('refused');
    const result = await stage.dispatch(prepared.preparation, prepared.request, () => {
      ledger.calls.push('send r1');
      return 42;
    });
    expect(ledger.calls).toEqual(['reserve r1', 'dispatched r1', 'send r1']);
    expect(result).toMatchObject({ ok: true, response: 42 });
  });

  it('an early refusal, a final refusal, a capacity refusal and a hook failure: one preDispatchRejected each', async () => {
    const ledger = new LoggingLedger();
    const owner = (requestId: string) => ({ ledger, reservation: ledger.reserve({ requestId, session: 's1' }) });
    const adder = new ToolSurfaceStage({
      hooks: [
        {
          name: 'add',
          transform: (request) => {
            request.tools.push({ name: 'extra', description: '', inputSchema: {} });
          },
        },
      ],
    });
    const thrower = new ToolSurfaceStage({
      hooks: [
        {
          name: 'boom',
          transform: () => {
            throw new Error('boom');
          },
        },
      ],
    });
    const plain = new ToolSurfaceStage();
    await adder.prepare({ owner: owner('early'), facts: FACTS, context: null });
    const late = await plain.prepare({ owner: owner('final'), facts: FACTS, context: null });
    if (!late.ok) throw new Error('refused');
    late.request.tools.pop();
    await plain.dispatch(late.preparation, late.request, () => 'never');
    await plain.prepare({ owner: owner('capacity'), facts: FACTS, context: null, capacity: { toolCountMax: 0 } });
    await thrower.prepare({ owner: owner('hook'), facts: FACTS, context: null });
    expect(ledger.calls).toEqual([
      'reserve early',
      'preDispatchRejected early SURFACE_MISMATCH',
      'reserve final',
      'preDispatchRejected final SURFACE_MISMATCH',
      'reserve capacity',
      'preDispatchRejected capacity CAPACITY_EXCEEDED',
      'reserve hook',
      'preDispatchRejected hook HOOK_FAILED',
    ]);
  });

  it('dispatching the same preparation twice: the second raises ALREADY_SETTLED and the model is called once', async () => {
    const { ledger, owner } = reserved();
    const stage = new ToolSurfaceStage();
    const model = recordingModel();
    const prepared = await stage.prepare({ owner, facts: FACTS, context: null });
    if (!prepared.ok) throw new Error('refused');
    await stage.dispatch(prepared.preparation, prepared.request, model.send);
    const second = stage.dispatch(prepared.preparation, prepared.request, model.send);
    await expect(second).rejects.toBeInstanceOf(SettlementError);
    await expect(second).rejects.toMatchObject({
      code: 'ALREADY_SETTLED',
      message: 'request turn-1 is already settled (dispatched); a second settlement (dispatched) is refused',
    });
    expect(model.sent.length).toBe(1);
    expect(ledger.entries().map((entry) => entry.settlement?.kind)).toEqual(['dispatched']);
  });

  it("preparing a request whose reservation is already closed: the refusal's settlement raises to the caller", async () => {
    const { ledger, owner } = reserved();
    const stage = new ToolSurfaceStage({
      hooks: [
        {
          name: 'drop-all',
          transform: (request) => {
            request.tools = [];
          },
        },
      ],
    });
    await stage.prepare({ owner, facts: FACTS, context: null });
    await expect(stage.prepare({ owner, facts: FACTS, context: null })).rejects.toMatchObject({
      name: 'SettlementError',
      code: 'ALREADY_SETTLED',
      requestId: 'turn-1',
    });
    expect(ledger.entries().length).toBe(1);
    expect(ledger.entry('turn-1')?.settlement).toMatchObject({
      kind: 'preDispatchRejected',
      rejection: {
        code: 'SURFACE_MISMATCH',
        check: 'early',
        mismatch: { field: 'count', expected: 4, actual: 0, tool: 'market__search_instruments' },
      },
    });
  });

  it("each request goes to its own owner's ledger (a Main and a Child runtime)", async () => {
    const main = new InMemoryRequestLedger();
    const child = new InMemoryRequestLedger();
    const stage = new ToolSurfaceStage({
      hooks: [
        {
          name: 'child-only-edit',
          transform: (request, info) => {
            if (info.requestId === 'child-1') (request.tools[0] as SurfaceTool).description = '';
          },
        },
      ],
    });
    const model = recordingModel();
    const fromMain = await stage.prepare({ owner: reserved('main-1', main).owner, facts: FACTS, context: null });
    const fromChild = await stage.prepare({ owner: reserved('child-1', child).owner, facts: FACTS, context: null });
    if (!fromMain.ok) throw new Error('refused');
    await stage.dispatch(fromMain.preparation, fromMain.request, model.send);
    expect(fromChild.ok).toBe(false);
    expect(main.entries().map((entry) => [entry.reservation.requestId, entry.settlement?.kind])).toEqual([
      ['main-1', 'dispatched'],
    ]);
    expect(child.entries().map((entry) => [entry.reservation.requestId, entry.settlement?.kind])).toEqual([
      ['child-1', 'preDispatchRejected'],
    ]);
  });

  it('a model-call port that throws: the request stays settled dispatched (once) and the error reaches the caller', async () => {
    const { ledger, owner } = reserved();
    const stage = new ToolSurfaceStage();
    const prepared = await stage.prepare({ owner, facts: FACTS, context: null });
    if (!prepared.ok) throw new Error('refused');
    await expect(
      stage.dispatch(prepared.preparation, prepared.request, () => {
        throw new Error('provider down');
      }),
    ).rejects.toThrow('provider down');
    expect(ledger.entries().map((entry) => entry.settlement?.kind)).toEqual(['dispatched']);
  });
});

describe('InMemoryRequestLedger', () => {
  const record = Object.freeze({
    requestId: 'a',
    session: 's',
    key: 'k',
    generation: 1,
    snapshotDigest: 'd',
    policyEpoch: 1,
    tools: [],
    checks: [],
  }) as SealedDispatchRecord;
  const rejection: SurfaceRejection = { code: 'HOOK_FAILED', requestId: 'a', hook: 'h', index: 0 };

  it('keeps reservations in order with their settlements', () => {
    const ledger = new InMemoryRequestLedger();
    const a = ledger.reserve({ requestId: 'a', session: 's' });
    const b = ledger.reserve({ requestId: 'b', session: 's' });
    ledger.preDispatchRejected(b, rejection);
    expect(ledger.entries()).toEqual([
      { reservation: { requestId: 'a', session: 's' }, settlement: null },
      { reservation: { requestId: 'b', session: 's' }, settlement: { kind: 'preDispatchRejected', rejection } },
    ]);
    ledger.dispatched(a, record);
    expect(ledger.entry('a')?.settlement).toEqual({ kind: 'dispatched', record });
    expect(Object.isFrozen(a)).toBe(true);
  });

  it('refuses a second settlement of either kind, leaving the first', () => {
    const ledger = new InMemoryRequestLedger();
    const a = ledger.reserve({ requestId: 'a', session: 's' });
    ledger.preDispatchRejected(a, rejection);
    expect(() => ledger.preDispatchRejected(a, rejection)).toThrow(
      'request a is already settled (preDispatchRejected); a second settlement (preDispatchRejected) is refused',
    );
    expect(() => ledger.dispatched(a, record)).toThrow(
      'request a is already settled (preDispatchRejected); a second settlement (dispatched) is refused',
    );
    expect(ledger.entry('a')?.settlement).toEqual({ kind: 'preDispatchRejected', rejection });
  });

  it('refuses a reservation it did not make (an equal-looking copy included) and a duplicate request id', () => {
    const ledger = new InMemoryRequestLedger();
    ledger.reserve({ requestId: 'a', session: 's' });
    expect(() => ledger.dispatched({ requestId: 'a', session: 's' }, record)).toThrow(
      expect.objectContaining({
        code: 'UNKNOWN_RESERVATION',
        message: 'request a: this ledger made no such reservation',
      }),
    );
    expect(() => ledger.dispatched({ requestId: 'z', session: 's' }, record)).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_RESERVATION' }),
    );
    expect(() => ledger.reserve({ requestId: 'a', session: 's' })).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_RESERVATION', message: 'request a is already reserved' }),
    );
    expect(ledger.entry('a')?.settlement).toBeNull();
  });
});

describe('a request a hook made unreadable is still settled once (found by an adversarial review)', () => {
  const unreadable = {
    check: 'early',
    field: 'count',
    tool: null,
    index: null,
    expected: 4,
    actual: null,
    schemaPath: null,
  };

  async function run(
    hook: (request: { tools: unknown; context: unknown }) => void,
    mode: 'tracked' | 'mutable',
  ): Promise<{ result: unknown; calls: string[]; sent: number }> {
    const ledger = new LoggingLedger();
    const owner = { ledger, reservation: ledger.reserve({ requestId: 'turn-1', session: FACTS.session }) };
    const stage = new ToolSurfaceStage({ hooks: [{ name: 'h', transform: hook as never }], hookTools: mode });
    const model = recordingModel();
    let result: unknown;
    try {
      const prepared = await stage.prepare({ owner, facts: FACTS, context: null });
      result = prepared.ok
        ? await stage.dispatch(prepared.preparation, prepared.request, model.send)
        : prepared.rejection;
      if ((result as { ok?: boolean }).ok === true) result = 'dispatched';
      else if ((result as { ok?: boolean }).ok === false) result = (result as { rejection: unknown }).rejection;
    } catch (error) {
      result = `threw ${String(error)}`;
    }
    return { result, calls: ledger.calls, sent: model.sent.length };
  }

  it('a getter on request.tools that throws: refused early, count, actual null, settled once (both modes)', async () => {
    for (const mode of ['tracked', 'mutable'] as const) {
      const got = await run((request) => {
        Object.defineProperty(request, 'tools', {
          get() {
            throw new Error('boom');
          },
        });
      }, mode);
      expect(got).toEqual({
        result: { code: 'SURFACE_MISMATCH', requestId: 'turn-1', check: 'early', mismatch: unreadable },
        calls: ['reserve turn-1', 'preDispatchRejected turn-1 SURFACE_MISMATCH'],
        sent: 0,
      });
    }
  });

  it('a getter on request.tools that throws only from its second read: refused final, settled once, nothing sent', async () => {
    for (const mode of ['tracked', 'mutable'] as const) {
      const got = await run((request) => {
        const tools = request.tools;
        let reads = 0;
        Object.defineProperty(request, 'tools', {
          get() {
            reads += 1;
            if (reads > 1) throw new Error('boom-final');
            return tools;
          },
        });
      }, mode);
      expect(got).toEqual({
        result: {
          code: 'SURFACE_MISMATCH',
          requestId: 'turn-1',
          check: 'final',
          mismatch: { ...unreadable, check: 'final' },
        },
        calls: ['reserve turn-1', 'preDispatchRejected turn-1 SURFACE_MISMATCH'],
        sent: 0,
      });
    }
  });

  it('a failed hook whose name cannot be made a string: HOOK_FAILED named "hook 0", settled once', async () => {
    const got = await run(function (this: { name: unknown }) {
      this.name = {
        toString() {
          throw new Error('no name');
        },
      };
      throw new Error('hook failed');
    }, 'tracked');
    expect(got).toEqual({
      result: { code: 'HOOK_FAILED', requestId: 'turn-1', hook: 'hook 0', index: 0 },
      calls: ['reserve turn-1', 'preDispatchRejected turn-1 HOOK_FAILED'],
      sent: 0,
    });
  });

  it('a getter on request.context that throws at dispatch: dispatch rejects before anything is settled or sent (the ledger never says dispatched)', async () => {
    let reads = 0;
    const got = await run((request) => {
      Object.defineProperty(request, 'context', {
        get() {
          reads += 1;
          throw new Error('ctx');
        },
      });
    }, 'tracked');
    expect(got).toEqual({ result: 'threw Error: ctx', calls: ['reserve turn-1'], sent: 0 });
    expect(reads).toBe(1);
  });
});
