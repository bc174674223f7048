/**
 * The tool surface checks on a 1,000-tool surface (issue 15, item 5; SPEC section 14), against a
 * bare SDK `callTool` round trip over `InMemoryTransport` measured in the same run.
 *
 * Setup: a generation of 1,000 distinct tools (bench/lib/catalog.ts: the simulator's descriptor
 * pool, realistic draft-07 schemas) built by the real snapshot code, a grant of all of them, and
 * the baseline projected from those facts. Measured, one sample per operation:
 * - the early check alone: the comparison of a working copy (as hooks receive it) with the
 *   baseline, all 1,000 tools equal (the passing path compares every field of every tool);
 * - the final check alone, on the same request after a JSON round trip (no string shared with
 *   the baseline: every description and schema string is compared character by character);
 * - both checks, early then final, on one request: the figure the goal (≤ 0.1× a round trip) is
 *   about;
 * - the whole stage for one request with no hooks: `prepare` (projection: deep copy and freeze
 *   of 1,000 tools; working copy; early check) then `dispatch` (final check, seal, ledger);
 * - the baseline: `client.callTool` to a scripted SDK server, first and last.
 * Ratios divide by the mean of the two `callTool` figures.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Bench } from 'tinybench';
import { InMemoryRequestLedger } from '../src/surface/in-memory-request-ledger.ts';
import { compareSurface } from '../src/surface/internal/compare.ts';
import { copyJson } from '../src/surface/internal/json-value.ts';
import { projectBaseline } from '../src/surface/project-baseline.ts';
import type { AdmissionFacts } from '../src/surface/admission-facts.ts';
import type { Baseline } from '../src/surface/baseline.ts';
import type { SurfaceTool } from '../src/surface/surface-tool.ts';
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
const BOTH = 'both checks (early + final)';
/** Untimed runs of every operation before measuring (JIT warm-up). */
const PRIME_ITERATIONS = 200;

interface SurfaceSetup {
  facts: AdmissionFacts;
  baseline: Baseline;
  /** A working copy, as hooks receive it. */
  working: SurfaceTool[];
  /** The same surface after a JSON round trip: no string shared with the baseline. */
  reserialised: SurfaceTool[];
  pair: ScriptedPair;
  stage: ToolSurfaceStage;
}

/** Runs the surface benchmark and returns its table. */
export async function surfaceBench(options: BenchOptions): Promise<BenchTable[]> {
  const loadBefore = loadAverage();
  const setup = await startSurface();
  try {
    checkSetup(setup);
    const bench = new Bench({ time: options.quick ? 300 : 1_500, iterations: 200, warmupTime: options.quick ? 100 : 300, warmupIterations: 50, throws: true });
    addSurfaceTasks(bench, setup);
    await prime(setup);
    await bench.run();
    return [surfaceTable(bench, loadBefore, setup)];
  } finally {
    await setup.pair.close();
  }
}

function addSurfaceTasks(bench: Bench, setup: SurfaceSetup): void {
  const client = setup.pair.client as Client;
  const bare = async (): Promise<void> => { await client.callTool({ name: 'echo', arguments: { message: 'hi' } }); };
  let request = 0;
  bench
    .add(BARE_FIRST, bare)
    .add('early check (working copy)', () => { compareSurface(setup.baseline.surface, setup.working, 'early'); })
    .add('final check (after a JSON round trip)', () => { compareSurface(setup.baseline.surface, setup.reserialised, 'final'); })
    .add(BOTH, () => { compareSurface(setup.baseline.surface, setup.working, 'early'); compareSurface(setup.baseline.surface, setup.working, 'final'); })
    .add('whole stage: prepare + dispatch, no hooks', async () => { await wholeStage(setup, `r${request++}`); })
    .add(BARE_LAST, bare);
}

/** One request through the public stage, on a fresh ledger (a ledger only grows). */
async function wholeStage(setup: SurfaceSetup, requestId: string): Promise<void> {
  const ledger = new InMemoryRequestLedger();
  const owner = { ledger, reservation: ledger.reserve({ requestId, session: 's1' }) };
  const prepared = await setup.stage.prepare({ owner, facts: setup.facts, context: null });
  if (!prepared.ok) throw new Error('surface bench: refused at prepare');
  const dispatched = await setup.stage.dispatch(prepared.preparation, prepared.request, () => undefined);
  if (!dispatched.ok) throw new Error('surface bench: refused at dispatch');
}

function surfaceTable(bench: Bench, loadBefore: string, setup: SurfaceSetup): BenchTable {
  const first = latencyOf(bench.getTask(BARE_FIRST));
  const last = latencyOf(bench.getTask(BARE_LAST));
  const bare = { p50Ms: (first.p50Ms + last.p50Ms) / 2, p99Ms: (first.p99Ms + last.p99Ms) / 2 };
  const both = latencyOf(bench.getTask(BOTH));
  const rows = bench.tasks.map((task) => {
    const latency = latencyOf(task);
    return [task.name, String(latency.samples), micros(latency.p50Ms), micros(latency.p99Ms), times(latency.p50Ms / bare.p50Ms), times(latency.p99Ms / bare.p99Ms)];
  });
  return {
    title: `surface: both checks on a ${TOOL_COUNT.toLocaleString('en')}-tool surface vs a bare SDK tools/call round trip (InMemoryTransport)`,
    columns: ['operation', 'samples', 'p50 µs', 'p99 µs', 'p50 / bare', 'p99 / bare'],
    rows,
    notes: [
      `goal (issue 15): both checks ≤ 0.1x the bare round trip; measured ${times(both.p50Ms / bare.p50Ms)} at p50, ${sigNs(both.p50Ms / (2 * TOOL_COUNT))} ns per tool per check.`,
      `surface: ${setup.baseline.surface.length} tools, ${JSON.stringify(setup.baseline.surface).length.toLocaleString('en')} characters of JSON; every check compares every name, description and schema (no shortcut: hooks receive copies).`,
      'bare = client.callTool to a scripted SDK Server over InMemoryTransport, measured first and last in this run; ratios divide by the mean of the two.',
      'the checks are synchronous: their samples include one performance.now() pair (tens of ns).',
      `load average before: ${loadBefore}; after: ${loadAverage()}.`,
    ],
  };
}

function sigNs(ms: number): string {
  return (ms * 1e6).toFixed(1);
}

async function prime(setup: SurfaceSetup): Promise<void> {
  const client = setup.pair.client as Client;
  for (let i = 0; i < PRIME_ITERATIONS; i += 1) {
    await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    compareSurface(setup.baseline.surface, setup.working, 'early');
    compareSurface(setup.baseline.surface, setup.reserialised, 'final');
    await wholeStage(setup, `prime-${i}`);
  }
}

/** The premise: every check passes (a refused surface would measure the short path). */
function checkSetup(setup: SurfaceSetup): void {
  if (setup.baseline.surface.length !== TOOL_COUNT) throw new Error(`surface bench: ${setup.baseline.surface.length} tools admitted, expected ${TOOL_COUNT}`);
  for (const tools of [setup.working, setup.reserialised]) {
    const mismatch = compareSurface(setup.baseline.surface, tools, 'early');
    if (mismatch !== undefined) throw new Error(`surface bench: unexpected mismatch ${JSON.stringify(mismatch)}`);
  }
}

async function startSurface(): Promise<SurfaceSetup> {
  const tools = benchTools(TOOL_COUNT).map((tool) => tool.descriptor);
  const generation = generationOf(tools);
  const facts = factsOf(generation, tools.map((tool) => String(tool.name)));
  const baseline = projectBaseline(facts);
  const working = copyJson(baseline.surface) as SurfaceTool[];
  const reserialised = JSON.parse(JSON.stringify(baseline.surface)) as SurfaceTool[];
  const pair = await scriptedPair(() => ({ tools: [] }), { onCall: () => ({ result: OK_RESULT }) });
  return { facts, baseline, working, reserialised, pair, stage: new ToolSurfaceStage() };
}

await runIfEntry(import.meta.url, surfaceBench);
