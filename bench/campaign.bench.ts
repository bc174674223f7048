/**
 * Campaign throughput and the simulator's overhead (SPEC section 14).
 *
 * 1. Throughput: `runCampaign` on the default scenario against the reference core, seed 1,
 *    rounds 0..R-1 (R = 60, 12 under --quick), with 1 and 2 worker threads, no determinism
 *    replays. Rounds per second are wall-clock from the call to the report, worker start-up
 *    (tsx registration and module loading in each thread) included; six batches (10 rounds each
 *    for R = 60) so that two workers share R rounds evenly. A campaign of one round per worker,
 *    run just before, estimates the start-up.
 * 2. Overhead: one simulated round in this thread (`runAndCheck`: plan, world, servers, the
 *    reference core through the SDK over the queued transport, then the oracle, whose share is
 *    re-timed afterwards on the same traces) against a bare SDK round of comparable message
 *    count over the SDK's `InMemoryTransport`: 4 `tools/list` pages (12 pool tools, 3 a page),
 *    the recheck of page 1 and 3 `client.callTool`s, with and without connecting (Server,
 *    Client, initialize) first. Ratios are given on means and on medians.
 *    The simulated rounds are rounds 0..R-1 (6 under --quick), so their mean is the campaign's
 *    mean; 5 warm-up rounds (3 under --quick; far from those) run first.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Bench } from 'tinybench';
import { checkEvents } from '../oracle/index.ts';
import { LenientListToolsResultSchema } from '../src/discovery/page-source.ts';
import { runCampaign } from '../runner/campaign.ts';
import type { CampaignReport } from '../runner/report.ts';
import { resolveCore } from '../cores/index.ts';
import { runAndCheck } from '../runner/round-check.ts';
import { loadScenario, type Scenario } from '../sim/plan/scenario.ts';
import type { RoundRun } from '../sim/round.ts';
import { scriptedPair, type ScriptedPair } from '../test/support/scripted-server.ts';
import type { BenchOptions } from './lib/args.ts';
import { benchTools, pagedScript, type BenchTool, type ServedCatalog } from './lib/catalog.ts';
import { runIfEntry } from './lib/entry.ts';
import { loadAverage } from './lib/machine.ts';
import { latencyOf, type Latency } from './lib/stats.ts';
import { sig, times, type BenchTable } from './lib/table.ts';

const SEED = '1';
const CORE = 'reference';
const BARE_TOOLS = 12;
const BARE_PAGE_SIZE = 3;
const BARE_CALLS = 3;
/** Rounds the in-thread warm-up runs, far from the measured ones. */
const WARMUP_FIRST_ROUND = 100_000;

/** One campaign run and what it reported. */
interface ThroughputResult {
  workers: number;
  rounds: number;
  wallMs: number;
  roundsPerSecond: number;
  /** Wall time of a campaign of one round per worker: thread start-up plus one round. */
  startupWallMs: number;
  failingRounds: number;
}

/** Runs the campaign benchmark and returns its two tables. */
export async function campaignBench(options: BenchOptions): Promise<BenchTable[]> {
  const rounds = options.quick ? 12 : 60;
  const scenario = loadScenario('default');
  const loadBefore = loadAverage();
  const throughput: ThroughputResult[] = [];
  for (const workers of [1, 2]) throughput.push(await measureThroughput(scenario, rounds, workers));
  const throughputTable = campaignTable(throughput, `load average before: ${loadBefore}; after: ${loadAverage()}.`);
  const overheadLoad = loadAverage();
  const overhead = await measureOverhead(scenario, options.quick ? 6 : rounds, options.quick);
  return [throughputTable, overheadTable(overhead, `load average before: ${overheadLoad}; after: ${loadAverage()}.`)];
}

async function measureThroughput(scenario: Scenario, rounds: number, workers: number): Promise<ThroughputResult> {
  const startup = await timedCampaign(scenario, workers, workers);
  const { report, wallMs } = await timedCampaign(scenario, rounds, workers);
  return {
    workers,
    rounds: report.roundsRun,
    wallMs,
    roundsPerSecond: report.roundsPerSecond,
    startupWallMs: startup.wallMs,
    failingRounds: report.failingRounds.length,
  };
}

async function timedCampaign(
  scenario: Scenario,
  rounds: number,
  workers: number,
): Promise<{ report: CampaignReport; wallMs: number }> {
  const started = performance.now();
  const report = await runCampaign({
    seed: SEED,
    scenario,
    core: CORE,
    firstRound: 0,
    rounds,
    workers,
    determinismEvery: 0,
    batchSize: batchSizeFor(rounds),
  });
  return { report, wallMs: performance.now() - started };
}

/** Six batches a campaign (10 rounds each for 60), so one or two workers share the rounds evenly. */
function batchSizeFor(rounds: number): number {
  return Math.max(1, Math.floor(rounds / 6));
}

function campaignTable(results: readonly ThroughputResult[], load: string): BenchTable {
  const single = results[0];
  return {
    title: `campaign throughput: default scenario, ${CORE} core, seed ${SEED}, worker threads`,
    columns: [
      'workers',
      'rounds',
      'wall s',
      'rounds/s',
      'ms/round',
      'speed-up vs 1',
      'start-up s',
      'rounds/s excl. start-up',
      'failing rounds',
    ],
    rows: results.map((result) => [
      String(result.workers),
      String(result.rounds),
      sig(result.wallMs / 1000),
      sig(result.roundsPerSecond),
      sig(result.wallMs / result.rounds),
      single === undefined ? '-' : times(result.roundsPerSecond / single.roundsPerSecond),
      sig(result.startupWallMs / 1000),
      sig(steadyRoundsPerSecond(result)),
      String(result.failingRounds),
    ]),
    notes: [
      'rounds/s as the campaign report computes it (wall clock, worker start-up included); determinism replays off.',
      'start-up s = wall time of a campaign of one round per worker (threads, tsx, module loading, one round); rounds/s excl. start-up = (rounds - workers) / (wall - start-up).',
      'failing rounds should be 0 on the reference core; a non-zero count means the figures include failure paths.',
      load,
    ],
  };
}

/** Rounds per second once the threads run: the rounds beyond the start-up campaign over the time beyond it. */
function steadyRoundsPerSecond(result: ThroughputResult): number {
  return ((result.rounds - result.workers) * 1000) / Math.max(1, result.wallMs - result.startupWallMs);
}

/** The latencies of the overhead benchmark, by task name. */
type OverheadResult = Map<string, Latency>;

const BARE_CONNECTED = 'bare SDK round, connected (4 pages + recheck + 3 calls)';
const BARE_CONNECT = 'bare SDK round incl. connect (Server + Client + initialize)';
const SIM_CHECKED = 'simulated round: runAndCheck (plan, world, servers, core, oracle)';
const ORACLE = '  of which the oracle (checkEvents, re-timed on the same traces)';

async function measureOverhead(scenario: Scenario, simulatedRounds: number, quick: boolean): Promise<OverheadResult> {
  const catalog: ServedCatalog = { tools: benchTools(BARE_TOOLS), revision: 1 };
  const connected = await scriptedPair(pagedScript(catalog, BARE_PAGE_SIZE));
  const core = resolveCore(CORE);
  try {
    const bare = new Bench({ time: quick ? 300 : 1_500, iterations: 50, warmupTime: 100, throws: true })
      .add(BARE_CONNECTED, () => bareMessages(connected.client as Client, catalog.tools))
      .add(BARE_CONNECT, () => bareRoundWithConnect(catalog));
    await bare.run();
    const simulated = new Bench({
      time: 0,
      iterations: simulatedRounds,
      warmupIterations: quick ? 3 : 5,
      warmupTime: 0,
      throws: true,
    });
    let next = 0;
    const runs: RoundRun[] = [];
    simulated.add(
      SIM_CHECKED,
      async () => {
        const { run } = await runAndCheck(SEED, next++, scenario, core, CORE);
        runs.push(run);
      },
      {
        beforeAll: (mode?: string) => {
          next = mode === 'warmup' ? WARMUP_FIRST_ROUND : 0;
          runs.length = 0;
        },
      },
    );
    await simulated.run();
    const oracle = oracleLatency(runs);
    return new Map([
      ...[...bare.tasks, ...simulated.tasks].map((task) => [task.name, latencyOf(task)] as const),
      [ORACLE, oracle] as const,
    ]);
  } finally {
    await connected.close();
  }
}

/** The oracle's time per round: `checkEvents` again on each measured round's trace (it is pure). */
function oracleLatency(runs: readonly RoundRun[]): Latency {
  const samplesMs = runs
    .map((run) => {
      const started = performance.now();
      checkEvents(run.header, run.events);
      return performance.now() - started;
    })
    .sort((a, b) => a - b);
  const at = (quantile: number): number =>
    samplesMs[Math.min(samplesMs.length - 1, Math.floor(quantile * samplesMs.length))] ?? 0;
  return {
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    meanMs: samplesMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, samplesMs.length),
    samples: samplesMs.length,
  };
}

/** 4 pages following `nextCursor`, page 1 again (the recheck), then 3 calls. */
async function bareMessages(client: Client, tools: readonly BenchTool[]): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      LenientListToolsResultSchema,
    );
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  await client.request({ method: 'tools/list', params: {} }, LenientListToolsResultSchema);
  for (const tool of tools.slice(0, BARE_CALLS))
    await client.callTool({ name: String(tool.descriptor.name), arguments: tool.sampleArgs });
}

async function bareRoundWithConnect(catalog: ServedCatalog): Promise<void> {
  const pair: ScriptedPair = await scriptedPair(pagedScript(catalog, BARE_PAGE_SIZE));
  await bareMessages(pair.client as Client, catalog.tools);
  await pair.close();
}

function overheadTable(results: OverheadResult, load: string): BenchTable {
  const base = results.get(BARE_CONNECT) as Latency;
  const connected = results.get(BARE_CONNECTED) as Latency;
  const row = (name: string): string[] => {
    const latency = results.get(name) as Latency;
    return [
      name,
      String(latency.samples),
      sig(latency.meanMs),
      sig(latency.p50Ms),
      sig(latency.p99Ms),
      times(latency.meanMs / base.meanMs),
      times(latency.p50Ms / base.p50Ms),
      times(latency.meanMs / connected.meanMs),
      times(latency.p50Ms / connected.p50Ms),
    ];
  };
  return {
    title:
      'simulator overhead: one simulated round vs a bare SDK round over InMemoryTransport (SPEC: about 1.2-1.9 ms)',
    columns: [
      'operation',
      'samples',
      'mean ms',
      'p50 ms',
      'p99 ms',
      'mean / bare+connect',
      'p50 / bare+connect',
      'mean / bare connected',
      'p50 / bare connected',
    ],
    rows: [BARE_CONNECTED, BARE_CONNECT, SIM_CHECKED, ORACLE].map(row),
    notes: [
      'simulated rounds differ from each other (1-2 servers, 1-3 audiences, faults, racing refreshers): p50/p99 spread over rounds, not noise.',
      'a simulated round carries many scans, calls and reconnects, on a copying transport with virtual time; the ratio is the cost of one simulated round in bare rounds.',
      load,
    ],
  };
}

await runIfEntry(import.meta.url, campaignBench);
