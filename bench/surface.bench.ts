/**
 * The tool surface checks on a 1,000-tool surface (issue 15, item 5; SPEC section 14), in the
 * three modes of the stage, against a bare SDK `callTool` round trip over `InMemoryTransport` measured
 * in the same run, and against the physical floor of comparing that much content.
 *
 * Setup: a generation of 1,000 distinct tools (bench/lib/catalog.ts: the simulator's descriptor
 * pool, realistic draft-07 schemas) built by the real snapshot code, a grant of all of them, and
 * the baseline projected from those facts. Measured:
 * - tracked mode (`hookTools: 'tracked'`, the default), where hooks receive the working copy
 *   through write-tracking proxies and the checks compare only what was written, replaced or
 *   moved. Each case is a real `prepare` (no hooks) whose request is then edited as a hook or a
 *   late stage would (the tracker records the same marks either way); the checks change nothing
 *   in the tracker, so one prepared request serves every sample:
 *   - both checks on the untouched surface (the goal's figure);
 *   - both checks after tool 500's description was rebuilt in place (an equal string: that tool
 *     is compared in full), and after one of its schema members was set to `undefined` in place
 *     (the schema handed out: that tool is compared in full);
 *   - both checks after the same tools were put in a new array (`[...request.tools]`);
 *   - both checks after the array was reversed in place (refused `order` at position 0: the
 *     cost of finding a reordering) and reversed twice (every tool back in place, the array
 *     written: each position read through the array proxy);
 *   - the whole stage for one request with no hooks;
 * - plain mutable mode (`'mutable'`), where hooks receive a mutable deep copy and each check
 *   compares every name, description and schema of every tool:
 *   - the early check alone: a working copy (as hooks receive it) against the baseline;
 *   - the final check alone, on the same surface after a JSON round trip (no string shared with
 *     the baseline: every description and schema string is compared character by character);
 *   - both checks, early then final, on one working copy: the figure the goal (≤ 0.1x a round
 *     trip) is about;
 *   - the early check on a reversed working copy (refused `order`: the cost of classifying it);
 *   - the whole stage for one request with no hooks: `prepare` (projection: deep copy and freeze
 *     of 1,000 tools; working copy; early check) then `dispatch` (final check, seal, ledger);
 * - frozen mode (`hookTools: 'frozen'`), where hooks receive a deep-frozen copy issued to their
 *   request and the checks accept it, and its tools left in place, by identity:
 *   - the early check, the final check and both, on the untouched issued copy (the goal's figure
 *     for this mode);
 *   - both checks when a hook put the same frozen tools in a new array (1,000 identity tests);
 *   - both checks when a hook replaced one tool by an equal new object (compared in full);
 *   - the whole stage for one request with no hooks (the issued copy is also deep-frozen);
 * - the floors, on the same data: the surface's JSON text compared with an equal, separately
 *   built string (`===`: one memcmp of 400,665 characters, the least any check that reads the
 *   content can cost), and one walk over the working copy that reads every member and compares
 *   nothing (the least a check that must visit every value of an object graph can cost);
 * - the baseline: `client.callTool` to a scripted SDK server, first and last.
 * Ratios divide by the mean of the two `callTool` figures. Operations far below a microsecond
 * run `batch` times a sample; their figures are per operation (sample / batch).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Bench } from 'tinybench';
import { trackerOf } from '../src/surface/internal/preparation.ts';
import { InMemoryRequestLedger } from '../src/surface/in-memory-request-ledger.ts';
import { compareSurface } from '../src/surface/internal/compare.ts';
import { copyJson } from '../src/surface/internal/json-value.ts';
import { projectBaseline } from '../src/surface/project-baseline.ts';
import type { AdmissionFacts } from '../src/surface/admission-facts.ts';
import type { Baseline } from '../src/surface/baseline.ts';
import type { SurfaceTool } from '../src/surface/surface-tool.ts';
import type { ModelRequest } from '../src/surface/model-request.ts';
import type { WriteTracker } from '../src/surface/internal/write-tracker.ts';
import { factsOf, generationOf } from '../src/surface/testing/generation.ts';
import { ToolSurfaceStage } from '../src/surface/tool-surface-stage.ts';
import { OK_RESULT, scriptedPair, type ScriptedPair } from '../test/support/scripted-server.ts';
import type { BenchOptions } from './lib/args.ts';
import { benchTools } from './lib/catalog.ts';
import { runIfEntry } from './lib/entry.ts';
import { loadAverage } from './lib/machine.ts';
import { latencyOf } from './lib/stats.ts';
import { micros, times, type BenchTable } from './lib/table.ts';

const TOOL_COUNT = 1_000;
const BARE_FIRST = 'bare SDK client.callTool';
const BARE_LAST = 'bare SDK client.callTool (again, last)';
const BOTH = 'mutable mode: both checks (early + final)';
const TRACKED_BOTH = 'tracked mode (default): both checks, untouched surface';
const TRACKED_ONE = 'tracked mode: both checks, one description edited in place';
const TRACKED_REORDERED = 'tracked mode: both checks, reversed in place (refused order)';
const FROZEN_BOTH = 'frozen mode: both checks, untouched surface';
const FLOOR = 'floor: JSON text === an equal string (memcmp)';
/** Untimed runs of every operation before measuring (JIT warm-up). */
const PRIME_ITERATIONS = 200;
/** Runs a sample of the operations that take well under a microsecond. */
const BATCH = 1_000;

/** The edits of the tracked-mode cases, each made on its own prepared request (see the file header). */
const TRACKED_EDITS = {
  untouched: () => undefined,
  oneDescription: (request: ModelRequest) => {
    const tool = request.tools[500] as SurfaceTool;
    tool.description = [...tool.description].join('');
  },
  oneSchemaMember: (request: ModelRequest) => {
    (request.tools[500] as SurfaceTool).inputSchema['x-unused'] = undefined;
  },
  newArray: (request: ModelRequest) => {
    request.tools = [...request.tools];
  },
  reversed: (request: ModelRequest) => {
    request.tools.reverse();
  },
  reversedTwice: (request: ModelRequest) => {
    request.tools.reverse();
    request.tools.reverse();
  },
} as const;
type TrackedCase = keyof typeof TRACKED_EDITS;

interface SurfaceSetup {
  facts: AdmissionFacts;
  baseline: Baseline;
  /** A working copy, as hooks receive it in the default mode. */
  working: SurfaceTool[];
  /** A working copy reversed (mutable mode's figure for a refused reordering). */
  reversed: SurfaceTool[];
  /** The same surface after a JSON round trip: no string shared with the baseline. */
  reserialised: SurfaceTool[];
  /** Frozen mode: the deep-frozen copy the stage issued to one request (from its preparation token). */
  issued: readonly Readonly<SurfaceTool>[];
  /** Frozen mode: the issued tools in a new array (what `request.tools = [...request.tools]` leaves). */
  issuedInNewArray: readonly Readonly<SurfaceTool>[];
  /** Frozen mode: the issued tools with tool 500 replaced by an equal new object. */
  issuedOneReplaced: readonly Readonly<SurfaceTool>[];
  /** The baseline surface's JSON text, and an equal string built separately (from the round-tripped copy). */
  text: string;
  equalText: string;
  /** Tracked mode: one prepared request per hook, its request's tools and its tracker. */
  tracked: Record<TrackedCase, { tools: unknown; tracker: WriteTracker }>;
  pair: ScriptedPair;
  stage: ToolSurfaceStage;
  trackedStage: ToolSurfaceStage;
  frozenStage: ToolSurfaceStage;
}

/** One measured operation: `batch` runs of `run` make one sample. */
interface SurfaceTask {
  name: string;
  batch: number;
  run: () => unknown;
}

/** Runs the surface benchmark and returns its table. */
export async function surfaceBench(options: BenchOptions): Promise<BenchTable[]> {
  const loadBefore = loadAverage();
  const setup = await startSurface();
  try {
    checkSetup(setup);
    const bench = new Bench({
      time: options.quick ? 300 : 1_500,
      iterations: 200,
      warmupTime: options.quick ? 100 : 300,
      warmupIterations: 50,
      throws: true,
    });
    const tasks = surfaceTasks(setup);
    for (const task of tasks)
      bench.add(
        task.name,
        task.batch === 1
          ? task.run
          : () => {
              for (let i = 0; i < task.batch; i += 1) task.run();
            },
      );
    await prime(tasks);
    await bench.run();
    return [surfaceTable(bench, tasks, loadBefore, setup)];
  } finally {
    await setup.pair.close();
  }
}

function surfaceTasks(setup: SurfaceSetup): SurfaceTask[] {
  const client = setup.pair.client as Client;
  const expected = setup.baseline.surface;
  const bare = async (): Promise<void> => {
    await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
  };
  let request = 0;
  let equalTexts = 0;
  const tracked = (which: TrackedCase) => () => {
    const { tools, tracker } = setup.tracked[which];
    compareSurface(expected, tools, 'early', tracker);
    return compareSurface(expected, tools, 'final', tracker);
  };
  return [
    { name: BARE_FIRST, batch: 1, run: bare },
    { name: TRACKED_BOTH, batch: BATCH, run: tracked('untouched') },
    { name: TRACKED_ONE, batch: 10, run: tracked('oneDescription') },
    { name: 'tracked mode: both checks, one schema member set in place', batch: 10, run: tracked('oneSchemaMember') },
    { name: 'tracked mode: both checks, same tools in a new array', batch: 10, run: tracked('newArray') },
    { name: TRACKED_REORDERED, batch: 10, run: tracked('reversed') },
    { name: 'tracked mode: both checks, reversed twice in place (passes)', batch: 1, run: tracked('reversedTwice') },
    {
      name: 'tracked mode: whole stage, prepare + dispatch, no hooks',
      batch: 1,
      run: async () => {
        await wholeStage(setup.trackedStage, setup.facts, `t${request++}`);
      },
    },
    {
      name: 'mutable mode: early check (working copy)',
      batch: 1,
      run: () => compareSurface(expected, setup.working, 'early'),
    },
    {
      name: 'mutable mode: final check (after a JSON round trip)',
      batch: 1,
      run: () => compareSurface(expected, setup.reserialised, 'final'),
    },
    {
      name: BOTH,
      batch: 1,
      run: () => {
        compareSurface(expected, setup.working, 'early');
        compareSurface(expected, setup.working, 'final');
      },
    },
    {
      name: 'mutable mode: early check, reversed (refused order)',
      batch: 1,
      run: () => compareSurface(expected, setup.reversed, 'early'),
    },
    {
      name: 'mutable mode: whole stage, prepare + dispatch, no hooks',
      batch: 1,
      run: async () => {
        await wholeStage(setup.stage, setup.facts, `r${request++}`);
      },
    },
    {
      name: 'frozen mode: early check, untouched surface',
      batch: BATCH,
      run: () => compareSurface(expected, setup.issued, 'early', setup.issued),
    },
    {
      name: 'frozen mode: final check, untouched surface',
      batch: BATCH,
      run: () => compareSurface(expected, setup.issued, 'final', setup.issued),
    },
    {
      name: FROZEN_BOTH,
      batch: BATCH,
      run: () => {
        compareSurface(expected, setup.issued, 'early', setup.issued);
        compareSurface(expected, setup.issued, 'final', setup.issued);
      },
    },
    {
      name: 'frozen mode: both checks, same tools in a new array',
      batch: 10,
      run: () => {
        compareSurface(expected, setup.issuedInNewArray, 'early', setup.issued);
        compareSurface(expected, setup.issuedInNewArray, 'final', setup.issued);
      },
    },
    {
      name: 'frozen mode: both checks, one tool replaced (equal)',
      batch: 10,
      run: () => {
        compareSurface(expected, setup.issuedOneReplaced, 'early', setup.issued);
        compareSurface(expected, setup.issuedOneReplaced, 'final', setup.issued);
      },
    },
    {
      name: 'frozen mode: whole stage, prepare + dispatch, no hooks',
      batch: 1,
      run: async () => {
        await wholeStage(setup.frozenStage, setup.facts, `f${request++}`);
      },
    },
    {
      name: FLOOR,
      batch: 1,
      run: () => {
        if (setup.text === setup.equalText) equalTexts += 1;
        return equalTexts;
      },
    },
    { name: 'floor: walk the working copy, compare nothing', batch: 1, run: () => walk(setup.working) },
    { name: BARE_LAST, batch: 1, run: bare },
  ];
}

/** Visits every value of a JSON graph, reading each member once; returns how many it read. */
function walk(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  let read = 1;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) read += walk(value[index]);
  } else {
    for (const key in value) read += walk((value as Record<string, unknown>)[key]);
  }
  return read;
}

/** One request through a public stage, on a fresh ledger (a ledger only grows). */
async function wholeStage(stage: ToolSurfaceStage, facts: AdmissionFacts, requestId: string): Promise<void> {
  const ledger = new InMemoryRequestLedger();
  const owner = { ledger, reservation: ledger.reserve({ requestId, session: 's1' }) };
  const prepared = await stage.prepare({ owner, facts, context: null });
  if (!prepared.ok) throw new Error('surface bench: refused at prepare');
  const dispatched = await stage.dispatch(prepared.preparation, prepared.request, () => undefined);
  if (!dispatched.ok) throw new Error('surface bench: refused at dispatch');
}

function surfaceTable(
  bench: Bench,
  tasks: readonly SurfaceTask[],
  loadBefore: string,
  setup: SurfaceSetup,
): BenchTable {
  const perOperation = (name: string): { p50Ms: number; p99Ms: number; samples: number } => {
    const latency = latencyOf(bench.getTask(name));
    const batch = tasks.find((task) => task.name === name)?.batch ?? 1;
    return { p50Ms: latency.p50Ms / batch, p99Ms: latency.p99Ms / batch, samples: latency.samples };
  };
  const first = perOperation(BARE_FIRST);
  const last = perOperation(BARE_LAST);
  const bare = { p50Ms: (first.p50Ms + last.p50Ms) / 2, p99Ms: (first.p99Ms + last.p99Ms) / 2 };
  const both = perOperation(BOTH);
  const trackedBoth = perOperation(TRACKED_BOTH);
  const trackedOne = perOperation(TRACKED_ONE);
  const trackedReordered = perOperation(TRACKED_REORDERED);
  const frozenBoth = perOperation(FROZEN_BOTH);
  const floor = perOperation(FLOOR);
  const rows = tasks.map((task) => {
    const latency = perOperation(task.name);
    return [
      task.name,
      String(task.batch),
      String(latency.samples),
      micros(latency.p50Ms),
      micros(latency.p99Ms),
      times(latency.p50Ms / bare.p50Ms),
      times(latency.p99Ms / bare.p99Ms),
    ];
  });
  const verdict = (ratio: number): string => (ratio <= 0.1 ? 'met' : 'not met');
  return {
    title: `surface: both checks on a ${TOOL_COUNT.toLocaleString('en')}-tool surface, tracked (default), mutable and frozen mode, vs a bare SDK tools/call round trip (InMemoryTransport)`,
    columns: ['operation', 'batch', 'samples', 'p50 µs', 'p99 µs', 'p50 / bare', 'p99 / bare'],
    rows,
    notes: [
      `goal (issue 15): both checks ≤ 0.1x the bare round trip. Tracked mode (the default), untouched surface: ${times(trackedBoth.p50Ms / bare.p50Ms)} at p50 (${verdict(trackedBoth.p50Ms / bare.p50Ms)}), ${sigNs(trackedBoth.p50Ms)} ns; one description edited in place: ${times(trackedOne.p50Ms / bare.p50Ms)} (${verdict(trackedOne.p50Ms / bare.p50Ms)}); reversed in place: ${times(trackedReordered.p50Ms / bare.p50Ms)} (${verdict(trackedReordered.p50Ms / bare.p50Ms)}).`,
      `mutable mode: ${times(both.p50Ms / bare.p50Ms)} at p50 (${verdict(both.p50Ms / bare.p50Ms)}), ${sigNs(both.p50Ms / (2 * TOOL_COUNT))} ns per tool per check, ${times(both.p50Ms / (2 * floor.p50Ms))} the memcmp floor per check.`,
      `goal, frozen mode, untouched surface: ${times(frozenBoth.p50Ms / bare.p50Ms)} at p50 (${verdict(frozenBoth.p50Ms / bare.p50Ms)}), ${sigNs(frozenBoth.p50Ms)} ns for both checks whatever the size; a tool a hook replaced costs a full compare of that tool.`,
      `floor: even a memcmp of the content is ${times(floor.p50Ms / bare.p50Ms)} the round trip per check, so no check that reads the whole surface can meet the goal; tracked and frozen mode read only what was written or replaced.`,
      `surface: ${setup.baseline.surface.length} tools, ${setup.text.length.toLocaleString('en')} characters of JSON; mutable mode compares every name, description and schema (hooks receive plain mutable copies).`,
      'bare = client.callTool to a scripted SDK Server over InMemoryTransport, measured first and last in this run; ratios divide by the mean of the two.',
      `batch: runs of the operation in one sample; figures are per operation (sample / batch). Unbatched samples include one performance.now() pair (tens of ns).`,
      `load average before: ${loadBefore}; after: ${loadAverage()}.`,
    ],
  };
}

function sigNs(ms: number): string {
  return (ms * 1e6).toFixed(1);
}

async function prime(tasks: readonly SurfaceTask[]): Promise<void> {
  for (let i = 0; i < PRIME_ITERATIONS; i += 1) for (const task of tasks) await task.run();
}

/** The premises: every check passes (a refused surface would measure the short path), the floor's strings are equal. */
function checkSetup(setup: SurfaceSetup): void {
  if (setup.baseline.surface.length !== TOOL_COUNT)
    throw new Error(`surface bench: ${setup.baseline.surface.length} tools admitted, expected ${TOOL_COUNT}`);
  for (const tools of [setup.working, setup.reserialised]) {
    const mismatch = compareSurface(setup.baseline.surface, tools, 'early');
    if (mismatch !== undefined) throw new Error(`surface bench: unexpected mismatch ${JSON.stringify(mismatch)}`);
  }
  for (const tools of [setup.issued, setup.issuedInNewArray, setup.issuedOneReplaced]) {
    const mismatch = compareSurface(setup.baseline.surface, tools, 'early', setup.issued);
    if (mismatch !== undefined)
      throw new Error(`surface bench: unexpected mismatch (frozen mode) ${JSON.stringify(mismatch)}`);
  }
  // Tracked mode: each case took the path it is named for, and only the reversal is refused.
  const paths: Record<TrackedCase, string> = {
    untouched: 'untouched',
    oneDescription: 'tools [500]',
    oneSchemaMember: 'tools [500]',
    newArray: 'replaced',
    reversed: 'array',
    reversedTwice: 'array',
  };
  for (const [which, { tools, tracker }] of Object.entries(setup.tracked) as [
    TrackedCase,
    SurfaceSetup['tracked'][TrackedCase],
  ][]) {
    const path =
      tools !== tracker.tools
        ? 'replaced'
        : tracker.untouched
          ? 'untouched'
          : tracker.arrayIntact
            ? `tools [${tracker.dirtyPositions().join(',')}]`
            : 'array';
    if (path !== paths[which])
      throw new Error(`surface bench: tracked case ${which} took path ${path}, expected ${paths[which]}`);
    const mismatch = compareSurface(setup.baseline.surface, tools, 'final', tracker);
    if ((which === 'reversed') !== (mismatch?.field === 'order' && mismatch.index === 0))
      throw new Error(`surface bench: tracked case ${which}: unexpected result ${JSON.stringify(mismatch)}`);
    if (which !== 'reversed' && mismatch !== undefined)
      throw new Error(`surface bench: tracked case ${which}: unexpected mismatch ${JSON.stringify(mismatch)}`);
  }
  if (setup.text !== setup.equalText) throw new Error("surface bench: the floor's two strings differ");
}

async function startSurface(): Promise<SurfaceSetup> {
  const tools = benchTools(TOOL_COUNT).map((tool) => tool.descriptor);
  const generation = generationOf(tools);
  const facts = factsOf(
    generation,
    tools.map((tool) => String(tool.name)),
  );
  const baseline = projectBaseline(facts);
  const working = copyJson(baseline.surface) as SurfaceTool[];
  const reserialised = JSON.parse(JSON.stringify(baseline.surface)) as SurfaceTool[];
  const frozenStage = new ToolSurfaceStage({ hookTools: 'frozen' });
  const ledger = new InMemoryRequestLedger();
  const prepared = await frozenStage.prepare({
    owner: { ledger, reservation: ledger.reserve({ requestId: 'issued', session: 's1' }) },
    facts,
    context: null,
  });
  if (!prepared.ok || prepared.preparation.issuedTools === undefined)
    throw new Error('surface bench: the frozen stage issued no copy');
  const issued = prepared.preparation.issuedTools;
  const issuedOneReplaced = issued.map((tool, index) => (index === 500 ? copyJson(tool) : tool));
  const tracked = {} as SurfaceSetup['tracked'];
  const trackedStage = new ToolSurfaceStage();
  for (const [which, edit] of Object.entries(TRACKED_EDITS) as [TrackedCase, (request: ModelRequest) => void][]) {
    const trackedLedger = new InMemoryRequestLedger();
    const result = await trackedStage.prepare({
      owner: {
        ledger: trackedLedger,
        reservation: trackedLedger.reserve({ requestId: `tracked-${which}`, session: 's1' }),
      },
      facts,
      context: null,
    });
    const tracker = result.ok ? trackerOf(result.preparation) : undefined;
    if (!result.ok || tracker === undefined)
      throw new Error(`surface bench: tracked case ${which} was refused or issued no tracker`);
    edit(result.request);
    tracked[which] = { tools: result.request.tools, tracker };
  }
  const pair = await scriptedPair(() => ({ tools: [] }), { onCall: () => ({ result: OK_RESULT }) });
  return {
    facts,
    baseline,
    working,
    reversed: (copyJson(baseline.surface) as SurfaceTool[]).reverse(),
    reserialised,
    issued,
    issuedInNewArray: [...issued],
    issuedOneReplaced,
    text: JSON.stringify(baseline.surface),
    equalText: JSON.stringify(reserialised),
    tracked,
    pair,
    stage: new ToolSurfaceStage({ hookTools: 'mutable' }),
    trackedStage,
    frozenStage,
  };
}

await runIfEntry(import.meta.url, surfaceBench);
