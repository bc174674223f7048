/**
 * The baseline (`projectBaseline`), the facts it is projected from, the capacity measure, and the
 * stage's refusals of misuse. Expected values worked out from testing/fixtures.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ServeResult } from '../registry/registry.ts';
import { admissionFacts } from './admission-facts-of.ts';
import { surfaceBytes } from './capacity.ts';
import { projectBaseline } from './project-baseline.ts';
import type { SurfaceTool } from './surface-tool.ts';
import { CATALOG, researchFacts, researchGeneration, reserved } from './testing/fixtures.ts';
import { AUDIENCE, factsOf, generationOf, recordingModel } from './testing/generation.ts';
import { ToolSurfaceStage } from './tool-surface-stage.ts';

const GENERATION = researchGeneration();
const FACTS = researchFacts(GENERATION);
const HELPER: SurfaceTool = {
  name: 'read_tool_result',
  description: 'Read back a result.',
  inputSchema: { type: 'object', properties: { callId: { type: 'string' } } },
};

/** Every object reachable from a value. */
function objectsOf(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null && !into.has(value)) {
    into.add(value);
    for (const member of Object.values(value)) objectsOf(member, into);
  }
  return into;
}

describe('projectBaseline', () => {
  it('keeps the admissible granted tools in snapshot order, full descriptions and schemas as listed, then the host tools', () => {
    const baseline = projectBaseline(researchFacts(GENERATION, { hostTools: [HELPER] }));
    expect(baseline.surface).toEqual([
      ...[0, 2, 3, 5].map((index) => {
        const source = CATALOG[index] as unknown as SurfaceTool;
        return { name: source.name, description: source.description, inputSchema: source.inputSchema };
      }),
      HELPER,
    ]);
    expect(baseline.descriptorDigests).toEqual([
      ...[0, 2, 3, 5].map((index) => GENERATION.snapshot.tools[index]?.descriptorDigest),
      null,
    ]);
    expect({
      session: baseline.session,
      key: baseline.key,
      generation: baseline.generation,
      snapshotDigest: baseline.snapshotDigest,
      policyEpoch: baseline.policyEpoch,
    }).toEqual({
      session: 's1',
      key: 'fp:a|acme.dev',
      generation: 1,
      snapshotDigest: GENERATION.snapshotDigest,
      policyEpoch: 3,
    });
  });

  it('is deep-frozen and shares no object with the generation or the host tools', () => {
    const baseline = projectBaseline(researchFacts(GENERATION, { hostTools: [HELPER] }));
    const mine = objectsOf(baseline);
    expect([...mine].every((object) => Object.isFrozen(object))).toBe(true);
    const theirs = objectsOf(GENERATION);
    objectsOf(HELPER, theirs);
    expect([...mine].filter((object) => theirs.has(object))).toEqual([]);
    expect(() => {
      (baseline.surface[0] as SurfaceTool).inputSchema.type = 'array';
    }).toThrow(TypeError);
  });

  it('the working copy a hook receives shares no object with the baseline', async () => {
    let working: SurfaceTool[] = [];
    const stage = new ToolSurfaceStage({
      hooks: [
        {
          name: 'look',
          transform: (request) => {
            working = request.tools;
          },
        },
      ],
    });
    const prepared = await stage.prepare({ owner: reserved().owner, facts: FACTS, context: null });
    if (!prepared.ok) throw new Error('refused');
    const baselineObjects = objectsOf(prepared.preparation.baseline);
    expect([...objectsOf(working)].filter((object) => baselineObjects.has(object))).toEqual([]);
    expect([...objectsOf(working)].some((object) => Object.isFrozen(object))).toBe(false);
  });

  it('shows a tool without a description as the empty string, and nothing of an empty grant', () => {
    const generation = generationOf([{ name: 'nodesc', inputSchema: { type: 'object' } }]);
    expect(projectBaseline(factsOf(generation, ['nodesc'])).surface).toEqual([
      { name: 'nodesc', description: '', inputSchema: { type: 'object' } },
    ]);
    expect(projectBaseline(factsOf(generation, [])).surface).toEqual([]);
  });

  it('refuses contradictory facts with one line each', () => {
    expect(() => projectBaseline({ ...FACTS, generation: { ...GENERATION, status: 'RETIRED' } })).toThrow(
      new TypeError('admission facts: generation 1 of fp:a|acme.dev is RETIRED and admits nothing'),
    );
    expect(() =>
      projectBaseline({ ...FACTS, grant: { ...FACTS.grant, audience: { tenant: 'globex', role: 'dev' } } }),
    ).toThrow(new TypeError('admission facts: the grant is for globex.dev, the generation for acme.dev'));
    expect(() => projectBaseline({ ...FACTS, session: '' })).toThrow(
      new TypeError('admission facts: session must be a non-empty string'),
    );
    expect(() => projectBaseline({ ...FACTS, grant: { ...FACTS.grant, policyEpoch: 1.5 } })).toThrow(
      new TypeError('admission facts: policyEpoch must be a non-negative integer, got 1.5'),
    );
    expect(() => projectBaseline({ ...FACTS, hostTools: [{ ...HELPER, name: 'Read-Page' }] })).toThrow(
      new TypeError('admission facts: host tool Read-Page collides with another tool name'),
    );
    expect(() => projectBaseline({ ...FACTS, hostTools: [{ ...HELPER, name: 'write_report' }] })).toThrow(
      new TypeError('admission facts: host tool write_report collides with another tool name'),
    );
    expect(() => projectBaseline({ ...FACTS, hostTools: [HELPER, HELPER] })).toThrow(
      new TypeError('admission facts: host tool read_tool_result collides with another tool name'),
    );
    expect(() => projectBaseline({ ...FACTS, hostTools: [{ ...HELPER, name: 'two words' }] })).toThrow(
      new TypeError('admission facts: host tool name "two words" breaks the tool-name rule'),
    );
    expect(() => projectBaseline({ ...FACTS, hostTools: [{ ...HELPER, inputSchema: [] as never }] })).toThrow(
      new TypeError('admission facts: host tool read_tool_result needs an object inputSchema'),
    );
  });
});

describe('admissionFacts (the link to the catalog host)', () => {
  const policy = { epoch: () => 9, grants: () => ['read_page'] };

  it('reads the served generation and the grant now', () => {
    const served: ServeResult = { ok: true, record: GENERATION };
    expect(admissionFacts({ session: 's1', served, audience: AUDIENCE, policy })).toEqual({
      ok: true,
      facts: {
        session: 's1',
        generation: GENERATION,
        grant: { audience: AUDIENCE, policyEpoch: 9, tools: ['read_page'] },
      },
    });
    expect(admissionFacts({ session: 's1', served, audience: AUDIENCE, policy, hostTools: [HELPER] })).toMatchObject({
      ok: true,
      facts: { hostTools: [HELPER] },
    });
  });

  it('passes on why a key serves nothing', () => {
    expect(
      admissionFacts({ session: 's1', served: { ok: false, code: 'CATALOG_EXPIRED' }, audience: AUDIENCE, policy }),
    ).toEqual({ ok: false, code: 'CATALOG_EXPIRED' });
  });

  it('gives no facts while the audience policy is unknown (epoch 0), not a baseline of no tools (issue 36)', () => {
    // A host just restarted on its registry serves the reloaded generation before its first poll
    // answers: epoch 0, no grants. That is no decision of the policy; an empty grant would be one.
    const served: ServeResult = { ok: true, record: GENERATION };
    const unheard = { epoch: () => 0, grants: () => [] };
    expect(admissionFacts({ session: 's1', served, audience: AUDIENCE, policy: unheard })).toEqual({
      ok: false,
      code: 'POLICY_UNKNOWN',
    });
    // The registry's refusal still comes first.
    expect(
      admissionFacts({
        session: 's1',
        served: { ok: false, code: 'SERVER_DISABLED' },
        audience: AUDIENCE,
        policy: unheard,
      }),
    ).toEqual({ ok: false, code: 'SERVER_DISABLED' });
  });
});

describe('capacity', () => {
  // {"description":"b","inputSchema":{"type":"object"},"name":"a"}: 62 characters, all ASCII;
  // {"description":"é","inputSchema":{"type":"object"},"name":"c"}: 62 characters, é is 2 bytes: 63.
  const tiny = generationOf([
    { name: 'a', description: 'b', inputSchema: { type: 'object' } },
    { name: 'c', description: 'é', inputSchema: { type: 'object' } },
  ]);
  const facts = factsOf(tiny, ['a', 'c']);

  it("measures a surface as the UTF-8 bytes of each tool's RFC 8785 form", () => {
    expect(surfaceBytes(projectBaseline(facts).surface)).toBe(125);
  });

  it('admits a surface exactly at its budgets and refuses one byte or one tool less', async () => {
    const stage = new ToolSurfaceStage();
    expect(
      (
        await stage.prepare({
          owner: reserved('fits').owner,
          facts,
          context: null,
          capacity: { toolCountMax: 2, surfaceBytesMax: 125 },
        })
      ).ok,
    ).toBe(true);
    expect(
      await stage.prepare({ owner: reserved('bytes').owner, facts, context: null, capacity: { surfaceBytesMax: 124 } }),
    ).toEqual({
      ok: false,
      rejection: {
        code: 'CAPACITY_EXCEEDED',
        requestId: 'bytes',
        stage: 'prepare',
        limit: 'surfaceBytesMax',
        required: 125,
        available: 124,
      },
    });
    expect(
      await stage.prepare({
        owner: reserved('count').owner,
        facts,
        context: null,
        capacity: { toolCountMax: 1, surfaceBytesMax: 1 },
      }),
    ).toEqual({
      ok: false,
      rejection: {
        code: 'CAPACITY_EXCEEDED',
        requestId: 'count',
        stage: 'prepare',
        limit: 'toolCountMax',
        required: 2,
        available: 1,
      },
    });
  });

  it('a late capacity at dispatch (the context grew) is refused there, settled once, not sent', async () => {
    const stage = new ToolSurfaceStage();
    const { ledger, owner } = reserved();
    const model = recordingModel();
    const prepared = await stage.prepare({ owner, facts, context: null, capacity: { surfaceBytesMax: 200 } });
    if (!prepared.ok) throw new Error('refused');
    const result = await stage.dispatch(prepared.preparation, prepared.request, model.send, {
      capacity: { surfaceBytesMax: 100 },
    });
    const rejection = {
      code: 'CAPACITY_EXCEEDED',
      requestId: 'turn-1',
      stage: 'dispatch',
      limit: 'surfaceBytesMax',
      required: 125,
      available: 100,
    };
    expect(result).toEqual({ ok: false, rejection });
    expect(ledger.entries().map((entry) => entry.settlement)).toEqual([{ kind: 'preDispatchRejected', rejection }]);
    expect(model.sent).toEqual([]);
  });

  it('refuses a malformed budget before anything is settled', async () => {
    const { ledger, owner } = reserved();
    await expect(
      new ToolSurfaceStage().prepare({ owner, facts, context: null, capacity: { toolCountMax: -1 } }),
    ).rejects.toThrow(new TypeError('surface capacity: toolCountMax must be a non-negative integer, got -1'));
    expect(ledger.entry('turn-1')?.settlement).toBeNull();
  });
});

describe('misuse of the stage is a TypeError, never a silent pass', () => {
  it("facts of another session than the reservation's", async () => {
    const owner = reserved().owner;
    await expect(
      new ToolSurfaceStage().prepare({ owner, facts: { ...FACTS, session: 's2' }, context: null }),
    ).rejects.toThrow(new TypeError('request turn-1: reserved for session s1, facts are of session s2'));
  });

  it('a forged or foreign preparation token, or another request', async () => {
    const stage = new ToolSurfaceStage();
    const prepared = await stage.prepare({ owner: reserved().owner, facts: FACTS, context: null });
    if (!prepared.ok) throw new Error('refused');
    const forged = Object.create(Object.getPrototypeOf(prepared.preparation) as object, {
      requestId: { value: 'turn-1' },
      owner: { value: prepared.preparation.owner },
      baseline: { value: prepared.preparation.baseline },
    });
    await expect(stage.dispatch(forged, prepared.request, () => 1)).rejects.toThrow(
      new TypeError('dispatch needs the preparation token ToolSurfaceStage.prepare returned'),
    );
    const Constructor = prepared.preparation.constructor as new (...args: unknown[]) => unknown;
    expect(
      () =>
        new Constructor(
          Symbol('SurfacePreparation.mint'),
          prepared.preparation.owner,
          prepared.preparation.baseline,
          true,
        ),
    ).toThrow(new TypeError('a SurfacePreparation comes only from ToolSurfaceStage.prepare'));
    await expect(
      stage.dispatch(prepared.preparation, { ...prepared.request, requestId: 'turn-9' }, () => 1),
    ).rejects.toThrow(new TypeError('dispatch: the request is turn-9, the preparation is for turn-1'));
  });

  it('a hook that reassigns the request id fails the request (HOOK_FAILED), settled', async () => {
    const { ledger, owner } = reserved();
    const stage = new ToolSurfaceStage({
      hooks: [
        {
          name: 'relabel',
          transform: (request) => {
            (request as { requestId: string }).requestId = 'other';
          },
        },
      ],
    });
    expect(await stage.prepare({ owner, facts: FACTS, context: null })).toEqual({
      ok: false,
      rejection: { code: 'HOOK_FAILED', requestId: 'turn-1', hook: 'relabel', index: 0 },
    });
    expect(ledger.entry('turn-1')?.settlement?.kind).toBe('preDispatchRejected');
  });

  it('a hook without a transform function', () => {
    expect(() => new ToolSurfaceStage({ hooks: [{ name: 'empty' } as never] })).toThrow(
      new TypeError('surface hook empty has no transform function'),
    );
  });

  it("the hook info holds scalars only, frozen, with the hook's position", async () => {
    const seen: unknown[] = [];
    const look = {
      name: 'look',
      transform: (_request: unknown, info: unknown) => {
        seen.push(info);
      },
    };
    await new ToolSurfaceStage({ hooks: [look, look] }).prepare({
      owner: reserved().owner,
      facts: FACTS,
      context: null,
    });
    expect(seen).toEqual(
      [0, 1].map((index) => ({
        requestId: 'turn-1',
        session: 's1',
        key: 'fp:a|acme.dev',
        generation: 1,
        policyEpoch: 3,
        index,
      })),
    );
    expect(seen.every((info) => Object.isFrozen(info))).toBe(true);
  });
});
