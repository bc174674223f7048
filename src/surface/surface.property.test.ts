/**
 * Property tests (fast-check, fixed seed) of the stage over generated surfaces: the research
 * catalog's four tools followed by up to four host tools with arbitrary JSON schemas.
 *
 * 1. Any sequence of harmless edits (copies, JSON round trips, key reordering, reads, undefined
 *    members, new arrays, context edits) is dispatched, and the model receives the baseline.
 * 2. Harmless edits, one illegal edit, harmless edits: the early check refuses with exactly the
 *    mismatch the edit predicts (field, tool, index, values), settled once.
 * 3. The same illegal edit made after the early check (a late stage): the final check refuses it.
 * The predicted mismatch comes from the edit and the generated surface alone, by the rules of
 * surface-mismatch.ts, never from the stage. All three run in the default tracked mode and in
 * the plain mutable mode.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelRequest } from './model-request.ts';
import type { SurfaceMismatch } from './surface-mismatch.ts';
import type { SurfaceTool } from './surface-tool.ts';
import { CATALOG, researchFacts, researchGeneration, reserved } from './testing/fixtures.ts';
import { recordingModel } from './testing/generation.ts';
import type { HookToolsMode } from './stage-types.ts';
import { ToolSurfaceStage } from './tool-surface-stage.ts';

const PARAMS = { seed: 20261003, numRuns: 150 };
const GENERATION = researchGeneration();
/** The catalog part of every surface: entries 0, 2, 3, 5 of the fixture catalog. */
const CATALOG_SURFACE: SurfaceTool[] = [0, 2, 3, 5].map((index) => {
  const source = CATALOG[index] as unknown as SurfaceTool;
  return { name: source.name, description: source.description, inputSchema: source.inputSchema };
});
const EDIT_KEY = '\u0001edited';

type Harmless =
  | { kind: 'rebuild' | 'reserialise' | 'read' | 'newArray' | 'context' }
  | { kind: 'reverseKeys' | 'undefinedMember'; at: number };
type Illegal =
  | { kind: 'addUnadmitted' | 'remove' | 'rename' | 'editDescription' | 'editSchema'; at: number }
  | { kind: 'addDuplicate'; at: number; from: number }
  | { kind: 'swap'; at: number; other: number };

const hostTools = fc
  .array(
    fc.record({
      description: fc.string({ maxLength: 20 }),
      inputSchema: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
    }),
    { maxLength: 4 },
  )
  .map((tools) => tools.map((tool, index) => ({ name: `h_${index}`, ...tool }) as SurfaceTool));
const at = fc.nat({ max: 1000 });
const harmless: fc.Arbitrary<Harmless> = fc.oneof(
  fc.constantFrom('rebuild', 'reserialise', 'read', 'newArray', 'context').map((kind) => ({ kind }) as Harmless),
  fc.record({ kind: fc.constantFrom('reverseKeys', 'undefinedMember'), at }) as fc.Arbitrary<Harmless>,
);
const illegal: fc.Arbitrary<Illegal> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('addUnadmitted', 'remove', 'rename', 'editDescription', 'editSchema'),
    at,
  }) as fc.Arbitrary<Illegal>,
  fc.record({ kind: fc.constant('addDuplicate'), at, from: at }) as fc.Arbitrary<Illegal>,
  fc.record({ kind: fc.constant('swap'), at, other: at }) as fc.Arbitrary<Illegal>,
);
const harmlessRun = fc.array(harmless, { maxLength: 5 });

interface Chat {
  messages: string[];
}

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, member]) => [key, reverseKeys(member)]),
  );
}

function applyHarmless(request: ModelRequest<Chat>, edit: Harmless): void {
  const n = request.tools.length;
  switch (edit.kind) {
    case 'rebuild':
      request.tools = request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: structuredClone(tool.inputSchema),
      }));
      return;
    case 'reserialise':
      request.tools = JSON.parse(JSON.stringify(request.tools)) as SurfaceTool[];
      return;
    case 'read':
      void JSON.stringify(request.tools).length;
      return;
    case 'newArray':
      request.tools = [...request.tools];
      return;
    case 'context':
      request.context.messages.push('more context');
      return;
    case 'reverseKeys':
      if (n > 0) {
        const tool = request.tools[edit.at % n] as SurfaceTool;
        tool.inputSchema = reverseKeys(tool.inputSchema) as SurfaceTool['inputSchema'];
      }
      return;
    case 'undefinedMember':
      if (n > 0) {
        const schema = (request.tools[edit.at % n] as SurfaceTool).inputSchema;
        if (!Object.hasOwn(schema, '\u0002unset')) schema['\u0002unset'] = undefined;
      }
      return;
  }
}

/** The distinct second position of a swap. */
function partner(edit: { at: number; other: number }, n: number): number {
  const i = edit.at % n;
  const j = edit.other % n;
  return j === i ? (i + 1) % n : j;
}

/**
 * An equal copy of a tool the hook received: `structuredClone` of the whole tool in mutable
 * mode; in tracked mode the tool is a Proxy, which cannot be structured-cloned (the hook would
 * fail, HOOK_FAILED: tracked-mode.test.ts), so its fields are copied and only its schema cloned.
 */
function duplicate(tool: SurfaceTool, mode: HookToolsMode): SurfaceTool {
  return mode === 'mutable'
    ? structuredClone(tool)
    : { name: tool.name, description: tool.description, inputSchema: structuredClone(tool.inputSchema) };
}

function applyIllegal(request: ModelRequest<Chat>, edit: Illegal, mode: HookToolsMode): void {
  const tools = request.tools;
  const n = tools.length;
  const tool = tools[edit.at % n] as SurfaceTool;
  switch (edit.kind) {
    case 'addUnadmitted':
      tools.splice(edit.at % (n + 1), 0, { name: 'zz_added', description: 'added', inputSchema: { type: 'object' } });
      return;
    case 'addDuplicate':
      tools.splice(edit.at % (n + 1), 0, duplicate(tools[edit.from % n] as SurfaceTool, mode));
      return;
    case 'remove':
      tools.splice(edit.at % n, 1);
      return;
    case 'swap': {
      const i = edit.at % n;
      const j = partner(edit, n);
      [tools[i], tools[j]] = [tools[j] as SurfaceTool, tools[i] as SurfaceTool];
      return;
    }
    case 'rename':
      tool.name = `${tool.name}_renamed`;
      return;
    case 'editDescription':
      tool.description += ' (edited)';
      return;
    case 'editSchema':
      tool.inputSchema[EDIT_KEY] = 1;
      return;
  }
}

/** The mismatch `edit` must produce on `surface`, by the rules of surface-mismatch.ts. */
function predicted(surface: readonly SurfaceTool[], edit: Illegal, check: 'early' | 'final'): SurfaceMismatch {
  const n = surface.length;
  const name = (index: number): string => (surface[index] as SurfaceTool).name;
  const none = { check, schemaPath: null };
  switch (edit.kind) {
    case 'addUnadmitted':
      return {
        ...none,
        field: 'unadmitted',
        tool: 'zz_added',
        index: edit.at % (n + 1),
        expected: null,
        actual: 'zz_added',
      };
    case 'addDuplicate':
      return { ...none, field: 'count', tool: name(edit.from % n), index: null, expected: n, actual: n + 1 };
    case 'remove':
      return { ...none, field: 'count', tool: name(edit.at % n), index: null, expected: n, actual: n - 1 };
    case 'swap': {
      const i = Math.min(edit.at % n, partner(edit, n));
      const j = Math.max(edit.at % n, partner(edit, n));
      return { ...none, field: 'order', tool: name(i), index: i, expected: name(i), actual: name(j) };
    }
    case 'rename':
      return {
        ...none,
        field: 'name',
        tool: name(edit.at % n),
        index: edit.at % n,
        expected: name(edit.at % n),
        actual: `${name(edit.at % n)}_renamed`,
      };
    case 'editDescription': {
      const old = (surface[edit.at % n] as SurfaceTool).description;
      return {
        ...none,
        field: 'description',
        tool: name(edit.at % n),
        index: edit.at % n,
        expected: old,
        actual: `${old} (edited)`,
      };
    }
    case 'editSchema':
      return {
        check,
        field: 'inputSchema',
        tool: name(edit.at % n),
        index: edit.at % n,
        expected: null,
        actual: 1,
        schemaPath: `/${EDIT_KEY}`,
      };
  }
}

/** Whether `edit` is illegal on this surface (an added duplicate needs at least one tool, a swap two distinct tools, a schema edit a key not already there). */
function applicable(surface: readonly SurfaceTool[], edit: Illegal): boolean {
  if (edit.kind !== 'editSchema') return true;
  return !Object.hasOwn((surface[edit.at % surface.length] as SurfaceTool).inputSchema, EDIT_KEY);
}

function stageRunning(edits: (request: ModelRequest<Chat>) => void, mode: HookToolsMode): ToolSurfaceStage<Chat> {
  return new ToolSurfaceStage<Chat>({ hooks: [{ name: 'edits', transform: edits }], hookTools: mode });
}

describe.each(['tracked', 'mutable'] as const)(
  'surface checks over generated surfaces and edits (hookTools %s)',
  (mode) => {
    it('1. any sequence of harmless edits is dispatched, and the model receives the baseline', async () => {
      await fc.assert(
        fc.asyncProperty(hostTools, harmlessRun, harmlessRun, async (host, early, late) => {
          const stage = stageRunning((request) => {
            for (const edit of early) applyHarmless(request, edit);
          }, mode);
          const { ledger, owner } = reserved();
          const model = recordingModel();
          const prepared = await stage.prepare({
            owner,
            facts: researchFacts(GENERATION, { hostTools: host }),
            context: { messages: [] },
          });
          if (!prepared.ok) throw new Error(`refused: ${JSON.stringify(prepared.rejection)}`);
          for (const edit of late) applyHarmless(prepared.request, edit);
          const dispatched = await stage.dispatch(prepared.preparation, prepared.request, model.send);
          expect(dispatched.ok).toBe(true);
          expect(model.sent[0]?.request.tools).toEqual([...CATALOG_SURFACE, ...host]);
          expect(ledger.entries().map((entry) => entry.settlement?.kind)).toEqual(['dispatched']);
        }),
        PARAMS,
      );
    });

    it('2. harmless edits around one illegal edit: the early check refuses with the predicted mismatch, settled once', async () => {
      await fc.assert(
        fc.asyncProperty(hostTools, harmlessRun, illegal, harmlessRun, async (host, before, edit, after) => {
          const surface = [...CATALOG_SURFACE, ...host];
          fc.pre(applicable(surface, edit));
          const stage = stageRunning((request) => {
            for (const step of before) applyHarmless(request, step);
            applyIllegal(request, edit, mode);
            for (const step of after) applyHarmless(request, step);
          }, mode);
          const { ledger, owner } = reserved();
          const result = await stage.prepare({
            owner,
            facts: researchFacts(GENERATION, { hostTools: host }),
            context: { messages: [] },
          });
          const rejection = {
            code: 'SURFACE_MISMATCH',
            requestId: 'turn-1',
            check: 'early',
            mismatch: predicted(surface, edit, 'early'),
          };
          expect(result).toEqual({ ok: false, rejection });
          expect(ledger.entries().map((entry) => entry.settlement)).toEqual([
            { kind: 'preDispatchRejected', rejection },
          ]);
        }),
        PARAMS,
      );
    });

    it('3. the same illegal edit made after the early check is refused by the final check, and nothing is sent', async () => {
      await fc.assert(
        fc.asyncProperty(hostTools, harmlessRun, illegal, async (host, before, edit) => {
          const surface = [...CATALOG_SURFACE, ...host];
          fc.pre(applicable(surface, edit));
          const stage = stageRunning((request) => {
            for (const step of before) applyHarmless(request, step);
          }, mode);
          const { ledger, owner } = reserved();
          const model = recordingModel();
          const prepared = await stage.prepare({
            owner,
            facts: researchFacts(GENERATION, { hostTools: host }),
            context: { messages: [] },
          });
          if (!prepared.ok) throw new Error('refused early');
          applyIllegal(prepared.request, edit, mode);
          const result = await stage.dispatch(prepared.preparation, prepared.request, model.send);
          const rejection = {
            code: 'SURFACE_MISMATCH',
            requestId: 'turn-1',
            check: 'final',
            mismatch: predicted(surface, edit, 'final'),
          };
          expect(result).toEqual({ ok: false, rejection });
          expect(ledger.entries().map((entry) => entry.settlement)).toEqual([
            { kind: 'preDispatchRejected', rejection },
          ]);
          expect(model.sent).toEqual([]);
        }),
        PARAMS,
      );
    });
  },
);
