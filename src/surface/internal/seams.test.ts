/**
 * The internal seams are enough to build each checker-validation mutant issue 15 asks for (SPEC
 * section 12): for each, one replaced part of `SurfaceStageEngine` lets its counter-example
 * through while the reference stage refuses it. The mutants themselves belong to cores/mutants;
 * these minimal versions only prove that the seams cut exactly one defence each.
 */
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model-request.ts';
import type { SurfaceHook } from '../surface-hook.ts';
import type { SurfaceTool } from '../surface-tool.ts';
import { researchFacts, researchGeneration, reserved, SURFACE_NAMES } from '../testing/fixtures.ts';
import { recordingModel } from '../testing/generation.ts';
import { ToolSurfaceStage } from '../tool-surface-stage.ts';
import { compareSurface } from './compare.ts';
import { SurfaceStageEngine } from './engine.ts';
import { REFERENCE_PARTS, requestSurface, type SurfaceParts } from './parts.ts';
import { projectFacts } from './projection.ts';

const FACTS = researchFacts(researchGeneration());

type Late = (request: ModelRequest) => void;

/** One request through `stage`: hooks, then `late`, then dispatch; what the model and the ledger saw. */
async function run(stage: SurfaceStageEngine, late: Late = () => undefined, capacity?: { toolCountMax: number }) {
  const { ledger, owner } = reserved();
  const model = recordingModel();
  const prepared = await stage.prepare({
    owner,
    facts: FACTS,
    context: null,
    ...(capacity === undefined ? {} : { capacity }),
  });
  let refused = prepared.ok ? undefined : prepared.rejection;
  if (prepared.ok) {
    late(prepared.request);
    const dispatched = await stage.dispatch(prepared.preparation, prepared.request, model.send);
    refused = dispatched.ok ? undefined : dispatched.rejection;
  }
  return { refused, ledger, sent: model.sent };
}

function broken(parts: Partial<SurfaceParts>, hooks: SurfaceHook[] = []): SurfaceStageEngine {
  return new SurfaceStageEngine({ hooks }, { ...REFERENCE_PARTS, ...parts });
}

const editLateDescription: Late = (request) => {
  (request.tools[0] as SurfaceTool).description = 'late edit';
};
const editSchemaInPlace: SurfaceHook = {
  name: 'in-place',
  transform: (request) => {
    ((request.tools[1] as SurfaceTool).inputSchema.properties as Record<string, Record<string, unknown>>).symbol!.type =
      'number';
  },
};
const addHelper: SurfaceHook = {
  name: 'add-helper',
  transform: (request) => {
    request.tools.push({ name: 'read_tool_result', description: 'Read back.', inputSchema: { type: 'object' } });
  },
};

describe('each seam removes exactly one defence', () => {
  it('a seal made from the final request: the final check passes a late edit', async () => {
    expect((await run(new ToolSurfaceStage(), editLateDescription)).refused).toMatchObject({
      check: 'final',
      mismatch: { field: 'description' },
    });
    const mutant = broken({
      finalExpected: (_baseline, actual) => requestSurface(actual),
      dispatchedSurface: (_baseline, actual) => requestSurface(actual),
    });
    const { refused, sent } = await run(mutant, editLateDescription);
    expect(refused).toBeUndefined();
    expect(sent[0]?.request.tools[0]?.description).toBe('late edit');
  });

  it('a shallow baseline sharing schema objects with the working copy: an in-place edit changes both sides and passes', async () => {
    expect((await run(new ToolSurfaceStage({ hooks: [editSchemaInPlace] }))).refused).toMatchObject({
      check: 'early',
      mismatch: { field: 'inputSchema', schemaPath: '/properties/symbol/type' },
    });
    const mutant = broken(
      { project: (facts) => projectFacts(facts, { freeze: false }), copyTool: (tool) => ({ ...tool }) },
      [editSchemaInPlace],
    );
    const { refused, sent } = await run(mutant);
    expect(refused).toBeUndefined();
    expect(
      (sent[0]?.request.tools[1]?.inputSchema.properties as Record<string, Record<string, unknown>>).symbol?.type,
    ).toBe('number');
  });

  it('only the early check: a late edit is dispatched', async () => {
    const mutant = broken({
      checks: { early: true, final: false },
      dispatchedSurface: (_baseline, actual) => requestSurface(actual),
    });
    const { refused, sent } = await run(mutant, editLateDescription);
    expect(refused).toBeUndefined();
    expect(sent[0]?.request.tools[0]?.description).toBe('late edit');
    expect(sent[0]?.seal.checks).toEqual(['early']);
  });

  it('refusal without settlement: the reservation stays open; double settlement: the ledger raises', async () => {
    const silent = await run(broken({ settleRejected: () => undefined }, [addHelper]));
    expect(silent.refused).toMatchObject({ code: 'SURFACE_MISMATCH' });
    expect(silent.ledger.entries().map((entry) => entry.settlement)).toEqual([null]);
    const twice = broken(
      {
        settleRejected: (owner, rejection) => {
          owner.ledger.preDispatchRejected(owner.reservation, rejection);
          owner.ledger.preDispatchRejected(owner.reservation, rejection);
        },
      },
      [addHelper],
    );
    await expect(run(twice)).rejects.toMatchObject({ code: 'ALREADY_SETTLED' });
  });

  it('silent top-N: the surface is cut to the capacity instead of CAPACITY_EXCEEDED', async () => {
    expect((await run(new ToolSurfaceStage(), undefined, { toolCountMax: 3 })).refused).toMatchObject({
      code: 'CAPACITY_EXCEEDED',
    });
    const mutant = broken({
      project: (facts) => projectFacts(facts, { freeze: false }),
      fit: (baseline, capacity) => ({
        ok: true,
        baseline: {
          ...baseline,
          surface: baseline.surface.slice(0, capacity.toolCountMax),
          descriptorDigests: baseline.descriptorDigests.slice(0, capacity.toolCountMax),
        },
      }),
    });
    const { refused, sent } = await run(mutant, undefined, { toolCountMax: 3 });
    expect(refused).toBeUndefined();
    expect(sent[0]?.request.tools.map((tool) => tool.name)).toEqual(SURFACE_NAMES.slice(0, 3));
  });

  it('hooks allowed to add tools: an unadmitted helper reaches the model', async () => {
    const admittedOnly = (expected: readonly Readonly<SurfaceTool>[], actual: unknown): unknown => {
      const names = new Set(expected.map((tool) => tool.name));
      return (actual as SurfaceTool[]).filter((tool) => names.has(tool.name));
    };
    const mutant = broken(
      {
        compare: (expected, actual, check) => compareSurface(expected, admittedOnly(expected, actual), check),
        dispatchedSurface: (_baseline, actual) => requestSurface(actual),
      },
      [addHelper],
    );
    const { refused, sent } = await run(mutant);
    expect(refused).toBeUndefined();
    expect(sent[0]?.request.tools.map((tool) => tool.name)).toEqual([...SURFACE_NAMES, 'read_tool_result']);
  });

  it('the reference parts are frozen, and the public stage ignores anything passed beside its configuration', async () => {
    expect(Object.isFrozen(REFERENCE_PARTS)).toBe(true);
    const Public = ToolSurfaceStage as unknown as new (
      config: object,
      parts: Partial<SurfaceParts>,
    ) => SurfaceStageEngine;
    const stage = new Public(
      { hooks: [addHelper] },
      { checks: { early: false, final: false }, settleRejected: () => undefined },
    );
    const { refused, ledger } = await run(stage);
    expect(refused).toMatchObject({ check: 'early', mismatch: { field: 'unadmitted', tool: 'read_tool_result' } });
    expect(ledger.entries().map((entry) => entry.settlement?.kind)).toEqual(['preDispatchRejected']);
  });
});
