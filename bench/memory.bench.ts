/**
 * Peak memory over a long campaign, and whether it grows with rounds (SPEC section 14).
 *
 * The rounds of one campaign of the largest requested round count run in this thread
 * (`runAndCheck`, as a campaign's worker thread runs them, so this thread's heap is one worker's),
 * default scenario, reference core, seed 1, no determinism replays. Until 2026-12-07 it ran
 * `runCampaign` with workers 0, which by then ran the rounds on a worker thread: its heapUsed was
 * the idle main thread's. Between rounds (never during one: a round owns
 * the thread's timers) it samples `process.memoryUsage()`; at each checkpoint (round 500 and each
 * requested count, default 1,000 and 5,000) it forces a full GC first when `--expose-gc` is on
 * (`bench/run.ts` starts this file in a child process with it), so heapUsed there is live data.
 * Growth is heapUsed at the end minus heapUsed after round 500, per round, and the least-squares
 * slope of about 40 such samples from round 500 on (the core's bounded memos saw-tooth).
 *
 * The SPEC's figures are for 10,000 and 100,000 rounds: run `npx tsx --expose-gc
 * bench/memory.bench.ts --rounds 10000,100000` (hours at about 100 ms a round on these machines).
 * Not part of `--quick`.
 */
import { resolveCore } from '../cores/index.ts';
import { runAndCheck } from '../runner/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import type { BenchOptions } from './lib/args.ts';
import { runIfEntry } from './lib/entry.ts';
import { loadAverage } from './lib/machine.ts';
import { mebibytes, sig, type BenchTable } from './lib/table.ts';

/** Round counts measured when `--rounds` is not given. */
export const DEFAULT_MEMORY_ROUNDS = [1_000, 5_000];
/** The early checkpoint growth is measured from (after warm-up: caches and pools are full). */
const BASELINE_ROUND = 500;
/** Growth below this many bytes a round over the run counts as flat (noise of a forced GC). */
const FLAT_BYTES_PER_ROUND_MAX = 256;

/** Memory at one checkpoint. */
interface Checkpoint {
  rounds: number;
  heapUsedBytes: number;
  rssBytes: number;
  /** Highest RSS and heapUsed sampled between rounds up to this checkpoint. */
  peakRssBytes: number;
  /** The process's maximum resident set so far (`resourceUsage().maxRSS`): the true peak, rounds included. */
  maxRssBytes: number;
  peakHeapUsedBytes: number;
  elapsedMs: number;
}

/** Runs the memory benchmark and returns its table. */
export async function memoryBench(options: BenchOptions): Promise<BenchTable[]> {
  const targets = options.rounds ?? DEFAULT_MEMORY_ROUNDS;
  const totalRounds = targets.at(-1) as number;
  const checkpointsAt = [...new Set([BASELINE_ROUND, ...targets])]
    .filter((rounds) => rounds <= totalRounds)
    .sort((a, b) => a - b);
  const loadBefore = loadAverage();
  const gc = (globalThis as { gc?: () => void }).gc;
  const start = sampleNow(gc);
  const run = await runSampled(totalRounds, checkpointsAt, gc);
  return [memoryTable(start, run, gc !== undefined, `load average before: ${loadBefore}; after: ${loadAverage()}.`)];
}

/** The checkpoints of one sampled campaign, its heap trend samples, and how many of its rounds failed. */
interface SampledRun {
  checkpoints: Checkpoint[];
  /** (rounds done, heapUsed bytes) from round 500 on, about 40 over the run, each after a forced GC. */
  trend: [number, number][];
  failingRounds: number;
}

/** Runs the campaign, sampling memory between rounds and taking checkpoints. */
async function runSampled(
  totalRounds: number,
  checkpointsAt: readonly number[],
  gc: (() => void) | undefined,
): Promise<SampledRun> {
  const checkpoints: Checkpoint[] = [];
  const trend: [number, number][] = [];
  const trendEvery = Math.max(50, Math.round(totalRounds / 40));
  const started = performance.now();
  let peakRssBytes = 0;
  let peakHeapUsedBytes = 0;
  const onProgress = (done: number): void => {
    const usage = process.memoryUsage();
    peakRssBytes = Math.max(peakRssBytes, usage.rss);
    peakHeapUsedBytes = Math.max(peakHeapUsedBytes, usage.heapUsed);
    const checkpoint = checkpointsAt.includes(done);
    if (!checkpoint && (done < BASELINE_ROUND || done % trendEvery !== 0)) return;
    const settled = sampleNow(gc);
    if (done >= BASELINE_ROUND) trend.push([done, settled.heapUsedBytes]);
    if (checkpoint)
      checkpoints.push({
        rounds: done,
        ...settled,
        peakRssBytes,
        peakHeapUsedBytes,
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
        elapsedMs: performance.now() - started,
      });
  };
  // In this thread, round after round (`runAndCheck`, as a campaign's worker runs them, with the
  // thread's shared memos): `runCampaign` with workers 0 runs its rounds on a worker thread, whose
  // heap `process.memoryUsage().heapUsed` never sees.
  const scenario = loadScenario('default');
  const core = resolveCore('reference');
  let failingRounds = 0;
  for (let round = 0; round < totalRounds; round++) {
    const { summary } = await runAndCheck('1', round, scenario, core, 'reference');
    if (summary.status === 'undecided' || summary.violations.length > 0) failingRounds += 1;
    onProgress(round + 1);
  }
  return { checkpoints, trend, failingRounds };
}

function sampleNow(gc: (() => void) | undefined): { heapUsedBytes: number; rssBytes: number } {
  gc?.();
  const usage = process.memoryUsage();
  return { heapUsedBytes: usage.heapUsed, rssBytes: usage.rss };
}

function memoryTable(
  start: { heapUsedBytes: number; rssBytes: number },
  run: SampledRun,
  gcForced: boolean,
  load: string,
): BenchTable {
  const measured = run.checkpoints;
  const baseline = measured.find((checkpoint) => checkpoint.rounds === BASELINE_ROUND);
  const rows = measured.map((checkpoint) => [
    checkpoint.rounds.toLocaleString('en'),
    mebibytes(checkpoint.heapUsedBytes),
    mebibytes(checkpoint.rssBytes),
    mebibytes(checkpoint.peakHeapUsedBytes),
    mebibytes(checkpoint.peakRssBytes),
    mebibytes(checkpoint.maxRssBytes),
    sig(checkpoint.elapsedMs / checkpoint.rounds),
    baseline === undefined || checkpoint === baseline
      ? '-'
      : sig((checkpoint.heapUsedBytes - baseline.heapUsedBytes) / (checkpoint.rounds - baseline.rounds), 3),
  ]);
  return {
    title: `memory: a campaign's rounds in this thread (runAndCheck), default scenario, reference core; heapUsed ${gcForced ? 'after a forced full GC' : 'WITHOUT a forced GC (run with --expose-gc for live-data figures)'}`,
    columns: [
      'after rounds',
      'heapUsed MiB',
      'rss MiB',
      'peak heapUsed MiB',
      'peak rss MiB',
      'process max rss MiB',
      'ms/round',
      'heap growth B/round since 500',
    ],
    rows: [['start', mebibytes(start.heapUsedBytes), mebibytes(start.rssBytes), '-', '-', '-', '-', '-'], ...rows],
    notes: [
      growthVerdict(baseline, measured.at(-1), run.trend),
      "peak columns: highest value sampled between rounds; process max rss: the kernel's high-water mark (rounds included).",
      'by design the campaign keeps, per round, its trace digest and revocation delays (about 100 B; ReportBuilder), not its summary.',
      "SPEC section 14's figures are for 10,000 and 100,000 rounds: `npx tsx --expose-gc bench/memory.bench.ts --rounds 10000,100000` (a long run).",
      ...(run.failingRounds === 0 ? [] : [`${run.failingRounds} rounds failed: the figures include failure paths.`]),
      load,
    ],
  };
}

/**
 * Growth per round two ways: the two checkpoints the table shows, and a least-squares slope over
 * the trend samples (bounded memos in the core clear themselves at their limits, so heapUsed
 * saw-tooths by several MiB; the slope is the steadier figure). The verdict reads the slope.
 */
function growthVerdict(
  baseline: Checkpoint | undefined,
  last: Checkpoint | undefined,
  trend: readonly [number, number][],
): string {
  if (baseline === undefined || last === undefined || last === baseline)
    return `growth not measured: needs more than ${BASELINE_ROUND} rounds.`;
  const twoPoint = (last.heapUsedBytes - baseline.heapUsedBytes) / (last.rounds - baseline.rounds);
  const slope = trend.length >= 3 ? leastSquaresSlope(trend) : twoPoint;
  const span = `heapUsed from round ${BASELINE_ROUND} to ${last.rounds.toLocaleString('en')}: ${sig(twoPoint)} B/round (two checkpoints), ${sig(slope)} B/round (slope over ${trend.length} samples)`;
  if (slope <= FLAT_BYTES_PER_ROUND_MAX) return `${span}: flat (no growth with rounds).`;
  return `${span}: GROWS with rounds; at that slope 100,000 rounds add ${mebibytes(slope * 100_000)} MiB.`;
}

function leastSquaresSlope(points: readonly [number, number][]): number {
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return variance === 0 ? 0 : covariance / variance;
}

await runIfEntry(import.meta.url, memoryBench);
