/**
 * Discovery and proof of N tools (SPEC section 14), N = 10, 100, 1,000 and 10,000 at 100 tools a
 * page, against bare SDK paging of the same N measured in the same run, and how both grow with N.
 *
 * - core: `runScan` over an `SdkPageSource` (every page bound to page 1's revision, cursor and
 *   limit checks, page digests, the final recheck of page 1, the equivocation check), then
 *   `buildSnapshot` (descriptor and schema digests, the content checks of SPEC section 5, page
 *   root, deep freeze). Publication (the snapshot digest and the registry's compare-and-swap) is
 *   not included.
 * - bare: `client.request('tools/list')` in a loop following `nextCursor`, parsed with the core's
 *   lenient result schema, nothing checked: one request fewer than the core (no recheck).
 * Both read the same scripted SDK `Server` over the SDK's `InMemoryTransport`; each page is a fresh
 * deep copy (bench/lib/catalog.ts), as a real transport delivers.
 *
 * "warm" rescans an unchanged catalog (the steady state of a refresh loop: per-descriptor content
 * verdicts and canonical forms come from the core's memos). "cold" serves new descriptors on every
 * scan (a first discovery: every tool's schemas are checked and compiled by ajv); it runs only for
 * N <= 1,000 (N = 10 and 100 under --quick), because 10,000 fresh ajv compiles take tens of seconds.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Bench } from 'tinybench';
import type { ScanLimits } from '../src/discovery/config.ts';
import { LenientListToolsResultSchema, SdkPageSource } from '../src/discovery/page-source.ts';
import { RevisionWatch } from '../src/discovery/revision-watch.ts';
import { runScan } from '../src/discovery/scan.ts';
import { CoreMemos } from '../src/memos.ts';
import { buildSnapshot, type ToolCatalogSnapshot } from '../src/snapshot/snapshot.ts';
import { DEFAULT_TRUST, type TrustConfig } from '../src/validation/trust.ts';
import { scriptedPair } from '../test/support/scripted-server.ts';
import type { BenchOptions } from './lib/args.ts';
import { benchTools, pagedScript, type ServedCatalog } from './lib/catalog.ts';
import { runIfEntry } from './lib/entry.ts';
import { loadAverage } from './lib/machine.ts';
import { CountingSink, VirtualClock } from './lib/ports.ts';
import { latencyOf, type Latency } from './lib/stats.ts';
import { sig, times, type BenchTable } from './lib/table.ts';

const PAGE_SIZE = 100;
const IDENTITY = 'fp:bench';
const KEY = { identity: IDENTITY, tenant: 'acme', role: 'dev' };
/** Limits that let 10,000 tools through: the benchmark measures the work, not a refusal. */
const LIMITS: ScanLimits = { pageCountMax: 1_000, byteCountMax: 256 * 1024 * 1024, scanTimeoutMs: 600_000 };
const TRUST: TrustConfig = { ...DEFAULT_TRUST, toolCountMax: 100_000, catalogBytesMax: 256 * 1024 * 1024 };

/** Figures of one catalog size. */
interface SizeResult {
  toolCount: number;
  warm: Latency;
  bare: Latency;
  cold: Latency | undefined;
}

/** Runs the discovery benchmark and returns its table. */
export async function discoveryBench(options: BenchOptions): Promise<BenchTable[]> {
  const loadBefore = loadAverage();
  const sizes = options.quick ? [10, 100, 1_000] : [10, 100, 1_000, 10_000];
  const coldMax = options.quick ? 100 : 1_000;
  const results: SizeResult[] = [];
  for (const toolCount of sizes) results.push(await measureSize(toolCount, toolCount <= coldMax, options.quick));
  return [discoveryTable(results, loadBefore)];
}

/** A scripted server serving `catalog`, and one scan plus snapshot of it through the core. */
interface DiscoveryRig {
  catalog: ServedCatalog;
  client: Client;
  scanAndSnapshot(): Promise<ToolCatalogSnapshot>;
  barePaging(): Promise<number>;
  close(): Promise<void>;
}

async function measureSize(toolCount: number, withCold: boolean, quick: boolean): Promise<SizeResult> {
  const rig = await startRig(toolCount);
  try {
    checkSnapshot(await rig.scanAndSnapshot(), toolCount);
    const budget = timeBudget(toolCount, quick);
    const bench = new Bench({ ...budget, throws: true })
      .add('bare', async () => {
        await rig.barePaging();
      })
      .add('warm', async () => {
        await rig.scanAndSnapshot();
      });
    await bench.run();
    const cold = withCold ? await measureCold(rig, toolCount, quick) : undefined;
    return { toolCount, bare: latencyOf(bench.getTask('bare')), warm: latencyOf(bench.getTask('warm')), cold };
  } finally {
    await rig.close();
  }
}

/** Fresh descriptors and a new revision before every scan (outside the timed window). */
async function measureCold(rig: DiscoveryRig, toolCount: number, quick: boolean): Promise<Latency> {
  let tag = 0;
  const fresh = (): void => {
    tag += 1;
    rig.catalog.tools = benchTools(toolCount, `cold-${tag}`);
    rig.catalog.revision += 1;
  };
  const iterations = toolCount >= 1_000 ? 3 : quick ? 5 : 10;
  const bench = new Bench({ time: 0, iterations, warmup: false, throws: true }).add(
    'cold',
    async () => {
      await rig.scanAndSnapshot();
    },
    { beforeEach: fresh },
  );
  await bench.run();
  return latencyOf(bench.getTask('cold'));
}

/** At least a few scans per size, and a bounded time for each. */
function timeBudget(
  toolCount: number,
  quick: boolean,
): { time: number; iterations: number; warmupTime: number; warmupIterations: number } {
  if (quick) return { time: 400, iterations: toolCount >= 1_000 ? 4 : 10, warmupTime: 100, warmupIterations: 2 };
  return {
    time: toolCount >= 10_000 ? 4_000 : 1_500,
    iterations: toolCount >= 10_000 ? 4 : 10,
    warmupTime: 300,
    warmupIterations: 2,
  };
}

async function startRig(toolCount: number): Promise<DiscoveryRig> {
  const catalog: ServedCatalog = { tools: benchTools(toolCount), revision: 1 };
  const pair = await scriptedPair(pagedScript(catalog, PAGE_SIZE));
  const client = pair.client as Client;
  const source = new SdkPageSource(client, () => IDENTITY);
  const clock = new VirtualClock();
  const sink = new CountingSink();
  // One host's memos at their default sizes: a warm rescan finds what the first scan computed.
  const memos = new CoreMemos();
  const watch = new RevisionWatch(memos);
  let scans = 0;
  const scanAndSnapshot = async (): Promise<ToolCatalogSnapshot> => {
    const scanId = `scan-${scans++}`;
    const outcome = await runScan(source, {
      scanId,
      key: `${IDENTITY}|acme.dev`,
      expectedGeneration: 0,
      policyEpoch: () => 1,
      clock,
      sink,
      limits: LIMITS,
      catalogLimits: TRUST,
      watch,
      memos,
    });
    if (outcome.state !== 'SNAPSHOT_PROVEN')
      throw new Error(`discovery of ${toolCount} tools ended ${outcome.state} ${outcome.reason}`);
    return buildSnapshot(
      {
        key: KEY,
        endpointDigest: 'bench',
        protocolVersion: '2025-11-25',
        scanId,
        discoveryState: 'SNAPSHOT_PROVEN',
        discoveryStartedAt: outcome.startedAt,
        policyEpoch: outcome.policyEpoch,
        sourceRevision: outcome.revision,
        generationTtlMs: 86_400_000,
        trust: TRUST,
        pages: outcome.pages,
      },
      memos,
    );
  };
  return { catalog, client, scanAndSnapshot, barePaging: () => barePaging(client), close: () => pair.close() };
}

/** Bare SDK paging: follows `nextCursor` to the end; returns the number of tools read. */
async function barePaging(client: Client): Promise<number> {
  let cursor: string | undefined;
  let toolCount = 0;
  do {
    const page = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      LenientListToolsResultSchema,
    );
    toolCount += page.tools.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return toolCount;
}

/** The benchmark's premise: a proven snapshot with every tool admitted by the content checks. */
function checkSnapshot(snapshot: ToolCatalogSnapshot, toolCount: number): void {
  const failing = snapshot.tools.filter((tool) => tool.verdict !== 'ok');
  if (snapshot.tools.length !== toolCount || failing.length > 0)
    throw new Error(
      `discovery setup: ${snapshot.tools.length} tools, ${failing.length} quarantined (${failing[0]?.verdict})`,
    );
}

function discoveryTable(results: readonly SizeResult[], loadBefore: string): BenchTable {
  const rows = results.map((result, index) => {
    const previous = results[index - 1];
    const growth = (pick: (r: SizeResult) => Latency | undefined): string => {
      const now = pick(result);
      const before = previous === undefined ? undefined : pick(previous);
      return now === undefined || before === undefined ? '-' : times(now.meanMs / before.meanMs);
    };
    return [
      result.toolCount.toLocaleString('en'),
      String(Math.ceil(result.toolCount / PAGE_SIZE)),
      sig(result.bare.meanMs),
      sig(result.warm.meanMs),
      times(result.warm.meanMs / result.bare.meanMs),
      result.cold === undefined ? '-' : sig(result.cold.meanMs),
      result.cold === undefined ? '-' : times(result.cold.meanMs / result.bare.meanMs),
      growth((r) => r.bare),
      growth((r) => r.warm),
      growth((r) => r.cold),
      sig((result.warm.meanMs * 1000) / result.toolCount),
    ];
  });
  return {
    title:
      'discovery: runScan (+recheck) and buildSnapshot (+content checks) vs bare SDK tools/list paging, 100 tools a page',
    columns: [
      'tools',
      'pages',
      'bare ms',
      'core warm ms',
      'warm / bare',
      'core cold ms',
      'cold / bare',
      'bare growth',
      'warm growth',
      'cold growth',
      'warm µs/tool',
    ],
    rows,
    notes: [
      'ms are means per scan (samples: ' +
        results.map((r) => `${r.toolCount}: ${r.bare.samples}/${r.warm.samples}/${r.cold?.samples ?? 0}`).join(', ') +
        ' bare/warm/cold).',
      'growth = mean at this N / mean at the previous N (10x more tools each row; 10x means linear).',
      'warm = rescan of an unchanged catalog (memoised verdicts); cold = new descriptors every scan (ajv compiles every schema).',
      'the core sends one request more than bare (the final recheck of page 1).',
      `load average before: ${loadBefore}; after: ${loadAverage()}.`,
    ],
  };
}

await runIfEntry(import.meta.url, discoveryBench);
