/**
 * `npm run bench`: the benchmarks of SPEC section 14, each against a baseline measured in the
 * same run, printed as one table per benchmark. Figures are reported, never asserted.
 *
 * Order: the machine and the time; admission, surface, store, capability diff, discovery, campaign and the round
 * floor in this process; start-up (whole catsim processes: dist/ must be fresh, `npm run build`); then memory
 * in a child process (a fresh heap, with `--expose-gc` so heapUsed is measured after a full GC).
 * `--quick` runs a reduced set without memory (a smoke check, well under a minute);
 * `--rounds N[,M...]` sets the memory benchmark's round counts (default 1,000 and 5,000).
 * Each benchmark also runs alone: `npx tsx bench/admission.bench.ts [--quick]`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { admissionBench } from './admission.bench.ts';
import { campaignBench } from './campaign.bench.ts';
import { capabilityDiffBench } from './capability-diff.bench.ts';
import { discoveryBench } from './discovery.bench.ts';
import { startupBench } from './startup.bench.ts';
import { BenchArgumentError, parseBenchArgs, type BenchOptions } from './lib/args.ts';
import { loadAverage, machineLines } from './lib/machine.ts';
import { printTable, sig, type BenchTable } from './lib/table.ts';
import { roundFloorBench } from './round-floor.bench.ts';
import { storeBench } from './store.bench.ts';
import { surfaceBench } from './surface.bench.ts';

/** The benchmarks run in this process, in order. */
const IN_PROCESS: readonly (readonly [string, (options: BenchOptions) => Promise<BenchTable[]>])[] = [
  ['admission', admissionBench],
  ['surface', surfaceBench],
  ['store', storeBench],
  ['capability diff', capabilityDiffBench],
  ['discovery', discoveryBench],
  ['campaign', campaignBench],
  ['round floor', roundFloorBench],
  ['startup', startupBench],
];

const options = parsedOrExit(process.argv.slice(2));
const started = performance.now();
console.log(`catsim benchmarks${options.quick ? ' (--quick: reduced set, no memory benchmark)' : ''}`);
for (const line of machineLines()) console.log(line);
for (const [, bench] of IN_PROCESS) for (const table of await bench(options)) printTable(table);
if (!options.quick) runMemoryChild(process.argv.slice(2));
console.log('');
console.log(`done in ${sig((performance.now() - started) / 1000)} s; load average now: ${loadAverage()}`);

/** The options of `argv`, or one line on stderr and exit 2 for one the benchmarks cannot take. */
function parsedOrExit(argv: readonly string[]): BenchOptions {
  try {
    return parseBenchArgs(argv);
  } catch (error) {
    if (!(error instanceof BenchArgumentError)) throw error;
    console.error(`bench: ${error.message}`);
    process.exit(2);
  }
}

/** Runs bench/memory.bench.ts in a fresh node with `--expose-gc`; its table goes to this stdout. */
function runMemoryChild(args: readonly string[]): void {
  const script = fileURLToPath(new URL('./memory.bench.ts', import.meta.url));
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, '--no-header', ...args], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (child.status !== 0) throw new Error(`memory benchmark failed (exit ${child.status ?? child.signal})`);
}
