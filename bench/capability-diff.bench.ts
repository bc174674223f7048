/**
 * Diff classification of tool versions (SPEC section 9, src/capability/diff.ts) on the captured
 * real catalogs of scenarios/catalogs/, against the descriptor digests of the same tools measured
 * in the same run (the work every scan already does per tool, SPEC section 4).
 *
 * Setup: for each catalog file, every tool's manifest is built with no operator entry (the safest
 * defaults), and three next versions of each: the same descriptor rebuilt (identical), its
 * description changed (behavioural), and a new required input `reason` (breaking). Measured, one
 * sample per whole catalog:
 * - the baseline: `descriptorDigest` of every tool, first and last (ratios divide by the mean of
 *   the two, so drift shows);
 * - `classifyDiff` of every (tool, next version) pair, per kind of next version.
 * The classes are checked before measuring: a pair that does not classify as expected fails the run.
 */
import { readFileSync } from 'node:fs';
import { Bench } from 'tinybench';
import { classifyDiff, type DiffClass } from '../src/capability/diff.ts';
import { buildManifest, type ToolManifest } from '../src/capability/manifest.ts';
import { descriptorDigest } from '../src/snapshot/digests.ts';
import type { BenchOptions } from './lib/args.ts';
import { runIfEntry } from './lib/entry.ts';
import { loadAverage } from './lib/machine.ts';
import { latencyOf } from './lib/stats.ts';
import { micros, times, type BenchTable } from './lib/table.ts';

const CATALOGS = ['everything', 'filesystem', 'memory'] as const;

/** The kinds of next version, each with the class every pair of it must get. */
const NEXT: readonly (readonly [string, DiffClass, (tool: Record<string, unknown>) => Record<string, unknown>])[] = [
  ['identical (rebuilt)', 'identical', (tool) => structuredClone(tool)],
  [
    'description changed',
    'behavioural',
    (tool) => ({ ...structuredClone(tool), description: `${String(tool.description ?? '')} (v2)` }),
  ],
  ['new required input', 'breaking', withRequiredReason],
];

/** One catalog's tools, their manifests and the next versions of each kind. */
interface CatalogCase {
  name: string;
  tools: Record<string, unknown>[];
  manifests: ToolManifest[];
  next: ToolManifest[][];
}

/** Runs the classification benchmark and returns its table. */
export async function capabilityDiffBench(options: BenchOptions): Promise<BenchTable[]> {
  const loadBefore = loadAverage();
  const cases = CATALOGS.map(loadCase);
  for (const catalog of cases) checkClasses(catalog);
  const bench = new Bench({
    time: options.quick ? 200 : 1_000,
    iterations: 50,
    warmupTime: options.quick ? 50 : 200,
    warmupIterations: 10,
    throws: true,
  });
  for (const catalog of cases) addTasks(bench, catalog);
  await bench.run();
  return [diffTable(bench, cases, loadBefore)];
}

function loadCase(name: string): CatalogCase {
  const url = new URL(`../scenarios/catalogs/${name}.json`, import.meta.url);
  const file = JSON.parse(readFileSync(url, 'utf8')) as { pages: { tools: Record<string, unknown>[] }[] };
  const tools = file.pages.flatMap((page) => page.tools);
  return {
    name,
    tools,
    manifests: tools.map((tool) => buildManifest(tool, name)),
    next: NEXT.map(([, , edit]) => tools.map((tool) => buildManifest(edit(tool), name))),
  };
}

function withRequiredReason(tool: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(tool);
  const schema = copy.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  schema.properties = { ...schema.properties, reason: { type: 'string' } };
  schema.required = [...(schema.required ?? []), 'reason'];
  return copy;
}

function checkClasses(catalog: CatalogCase): void {
  NEXT.forEach(([label, expected], kind) => {
    catalog.manifests.forEach((manifest, index) => {
      const got = classifyDiff(manifest, catalog.next[kind]?.[index] as ToolManifest).class;
      if (got !== expected)
        throw new Error(`${catalog.name}/${String(catalog.tools[index]?.name)}: ${label} is ${got}`);
    });
  });
}

function addTasks(bench: Bench, catalog: CatalogCase): void {
  const baseline = (): void => {
    for (const tool of catalog.tools) descriptorDigest(tool);
  };
  bench.add(`${catalog.name}: descriptor digests (baseline)`, baseline);
  NEXT.forEach(([label], kind) => {
    const next = catalog.next[kind] as ToolManifest[];
    bench.add(`${catalog.name}: classify, ${label}`, () => {
      catalog.manifests.forEach((manifest, index) => classifyDiff(manifest, next[index] as ToolManifest));
    });
  });
  bench.add(`${catalog.name}: descriptor digests (baseline, again, last)`, baseline);
}

function diffTable(bench: Bench, cases: readonly CatalogCase[], loadBefore: string): BenchTable {
  const rows = cases.flatMap((catalog) => {
    const first = latencyOf(bench.getTask(`${catalog.name}: descriptor digests (baseline)`));
    const last = latencyOf(bench.getTask(`${catalog.name}: descriptor digests (baseline, again, last)`));
    const base = (first.p50Ms + last.p50Ms) / 2;
    const perTool = (ms: number): string => micros(ms / catalog.tools.length);
    return [
      [
        `${catalog.name} (${catalog.tools.length} tools): baseline, first`,
        perTool(first.p50Ms),
        perTool(first.p99Ms),
        times(first.p50Ms / base),
      ],
      ...NEXT.map(([label]) => {
        const latency = latencyOf(bench.getTask(`${catalog.name}: classify, ${label}`));
        return [
          `${catalog.name}: classify, ${label}`,
          perTool(latency.p50Ms),
          perTool(latency.p99Ms),
          times(latency.p50Ms / base),
        ];
      }),
      [`${catalog.name}: baseline, last`, perTool(last.p50Ms), perTool(last.p99Ms), times(last.p50Ms / base)],
    ];
  });
  return {
    title: 'capability versions: diff classification per tool on the captured catalogs, vs the descriptor digest',
    columns: ['catalog: operation', 'p50 µs/tool', 'p99 µs/tool', 'p50 / baseline'],
    rows,
    notes: [
      'one sample classifies every tool of the catalog once; the figures are divided by the tool count.',
      'classifyDiff digests both manifests first (two RFC 8785 canonicalisations and sha256), so an identical pair costs about two manifest digests.',
      `load average before: ${loadBefore}; after: ${loadAverage()}.`,
    ],
  };
}

await runIfEntry(import.meta.url, capabilityDiffBench);
