/**
 * The one comparison of the surface invariants (I22-I26): a list of tools the world saw against a
 * turn's baseline, contested tools optional. Digests are short stand-ins (the comparison only
 * tests them for equality).
 */
import { describe, expect, it } from 'vitest';
import { surfaceDifference } from './surface-turns.ts';

const tool = (name: string, digest = `d-${name}`) => ({ name, digest });
const base = (name: string, contested = false) => ({ name, digest: `d-${name}`, contested });
const BASELINE = [base('a'), base('b', true), base('c')];

describe('surfaceDifference', () => {
  it('equal: every uncontested tool, in order; a contested one may be there or not', () => {
    expect(surfaceDifference([tool('a'), tool('b'), tool('c')], BASELINE)).toBeNull();
    expect(surfaceDifference([tool('a'), tool('c')], BASELINE)).toBeNull();
  });

  it('a tool the baseline lacks is UNADMITTED_TOOL at its position', () => {
    expect(surfaceDifference([tool('a'), tool('c'), tool('read_tool_result')], BASELINE)).toEqual({
      code: 'UNADMITTED_TOOL',
      tool: 'read_tool_result',
      index: 2,
    });
  });

  it('an uncontested tool missing is MISSING_TOOL (a top-N cut, a removal)', () => {
    expect(surfaceDifference([tool('a')], BASELINE)).toEqual({ code: 'MISSING_TOOL', tool: 'c', index: null });
    expect(surfaceDifference([tool('c')], BASELINE)).toEqual({ code: 'MISSING_TOOL', tool: 'a', index: null });
    expect(surfaceDifference([], [base('b', true)])).toBeNull();
  });

  it('the same names in another order, or one twice, is ORDER_CHANGED', () => {
    expect(surfaceDifference([tool('c'), tool('a')], BASELINE)).toEqual({ code: 'ORDER_CHANGED', tool: 'c', index: 0 });
    expect(surfaceDifference([tool('a'), tool('a'), tool('c')], BASELINE)).toEqual({
      code: 'ORDER_CHANGED',
      tool: 'a',
      index: 1,
    });
  });

  it('another description or schema (another digest) is CONTENT_CHANGED', () => {
    expect(surfaceDifference([tool('a'), tool('c', 'd-edited')], BASELINE)).toEqual({
      code: 'CONTENT_CHANGED',
      tool: 'c',
      index: 1,
    });
  });
});

describe('I24 on a core that settles dispatched and sends nothing', () => {
  it('is SETTLED_NOT_SENT at the end of the turn', async () => {
    const { checkEvents } = await import('./check.ts');
    const header = {
      type: 'header',
      schema: 'catsim.trace.v1',
      seed: 's',
      round: 0,
      scenario: 'x',
      core: 'liar',
      bounds: {
        pageCountMax: 1,
        byteCountMax: 1,
        scanTimeoutMs: 1,
        latencyMsMax: 1,
        tHealMs: 1,
        tEndMs: 2,
        generationTtlMs: 1,
        retryBackoffMsMax: 1,
        revocationBoundMs: 1,
      },
      faults: [],
    } as const;
    const digest = 'a'.repeat(64);
    const events = [
      {
        seq: 0,
        t: 0,
        src: 'world',
        type: 'model_turn',
        session: 's0/acme.dev',
        requestId: 'r0',
        key: `fp:1|acme.dev`,
        generation: 1,
        hooks: [],
        late: null,
        harmless: true,
        baseline: [{ name: 'a', digest, contested: false }],
        capacity: null,
      },
      {
        seq: 1,
        t: 0,
        src: 'world',
        type: 'request_settled',
        requestId: 'r0',
        settlement: 'dispatched',
        accepted: true,
        code: null,
        check: null,
        field: null,
        limit: null,
      },
      { seq: 2, t: 1, src: 'world', type: 'model_turn_ended', requestId: 'r0' },
    ] as const;
    const verdict = checkEvents(header as never, events as never);
    expect(verdict.violations.map((v) => [v.invariant, v.seq, v.code])).toEqual([['I24', 2, 'SETTLED_NOT_SENT']]);
  });
});
