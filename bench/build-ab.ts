/**
 * Two builds of catsim on the same rounds, alternated: `npx tsx bench/build-ab.ts ROOT_A ROOT_B
 * [--rounds N] [--reps K]`. ROOT_A and ROOT_B are checkouts (a `git worktree` of an older commit,
 * say), each with its `dist/` built (`node scripts/build.mjs`) and a `node_modules` beside it.
 *
 * Each repetition runs A, then B, each in a fresh Node process: rounds 0..29 of seed 1 (default
 * scenario, reference core) as warm-up, then rounds 30..30+N-1 through `runAndCheck` (plan,
 * world, servers, core, SDK, oracle, summary), timed with the process's wall clock (ms a round).
 * Every process also prints the first 16 hex digits of the sha256 over its rounds' trace digests:
 * a change that claims to leave traces alone must show the same digest on both sides, and the
 * bench says so. Alternating in fresh processes keeps a drift of the machine's speed (another
 * job starting, a thermal change) on both sides; read the ratio of the medians, and repeat on a
 * noisy machine (an A/A run, the same root twice, shows how much noise there is).
 *
 * Each process also reads its CPU time over the timed rounds (`process.cpuUsage`, user + system,
 * V8's helper threads included): on a loaded machine the CPU ms a round move far less than the
 * wall ms, and the bench prints the ratio of both medians. `--era MIX` and `--http FRACTION` run
 * the default scenario with its `eraMix` set to that one mix and `faultRates.ERA.modernHttpFraction`
 * set to FRACTION (as `bench/round-profile.ts` does): `--era modern --http 1` times rounds whose
 * servers are all modern over Streamable HTTP.
 *
 * Defaults: N = 100 rounds, K = 5 repetitions. Exit 2 with one line when an argument is wrong,
 * 3 when the two builds give different digests (the traces differ).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadAverage } from './lib/machine.ts';

/** One timed process: wall and CPU ms a round and the digest prefix of its rounds. */
interface Sample {
  msPerRound: number;
  cpuMsPerRound: number;
  digest: string;
}

/** The `--era` and `--http` arguments given, for the summary line ('' without them). */
function overrideArgs(): string {
  const given = ['--era', '--http'].filter((name) => process.argv.includes(name));
  return given.map((name) => `, ${name} ${process.argv[process.argv.indexOf(name) + 1]}`).join('');
}

/** The scenario overrides of `--era` and `--http`, as a statement of the child program. */
function overrides(): string {
  const era = process.argv.indexOf('--era');
  const http = process.argv.indexOf('--http');
  return [
    era < 0 ? '' : `scenario.eraMix = [${JSON.stringify(process.argv[era + 1] ?? '')}];`,
    http < 0
      ? ''
      : `scenario.faultRates = { ...scenario.faultRates, ERA: { ...scenario.faultRates?.ERA, modernHttpFraction: ${Number(process.argv[http + 1])} } };`,
  ].join(' ');
}

const WARMUP_ROUNDS = 30;

/** The program each fresh process runs, for one build at `root`. */
function childProgram(root: string, rounds: number): string {
  const at = (path: string): string => JSON.stringify(pathToFileURL(resolve(root, path)).href);
  return `
const { runAndCheck } = await import(${at('dist/runner/round-check.js')});
const { resolveCore } = await import(${at('dist/cores/index.js')});
const { loadScenario } = await import(${at('dist/sim/plan/scenario.js')});
const { createHash } = await import('node:crypto');
const scenario = loadScenario('default');
${overrides()}
const core = resolveCore('reference');
for (let round = 0; round < ${WARMUP_ROUNDS}; round++) await runAndCheck('1', round, scenario, core, 'reference');
const hash = createHash('sha256');
const started = performance.now(); // real-clock: the bench's measure, outside any round
const cpu = process.cpuUsage();
for (let round = ${WARMUP_ROUNDS}; round < ${WARMUP_ROUNDS + rounds}; round++) hash.update((await runAndCheck('1', round, scenario, core, 'reference')).summary.traceDigest);
const used = process.cpuUsage(cpu);
console.log(((performance.now() - started) / ${rounds}).toFixed(2), ((used.user + used.system) / 1000 / ${rounds}).toFixed(2), hash.digest('hex').slice(0, 16));`;
}

function sample(root: string, rounds: number): Sample {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', childProgram(root, rounds)], {
    encoding: 'utf8',
  }).trim();
  const [ms, cpuMs, digest] = out.split(' ');
  return { msPerRound: Number(ms), cpuMsPerRound: Number(cpuMs), digest: digest ?? '' };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function fail(code: number, message: string): never {
  process.stderr.write(`build-ab: ${message}\n`);
  process.exit(code);
}

function countOption(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isSafeInteger(value) || value < 1)
    fail(2, `${name} must be a whole number >= 1, got ${process.argv[index + 1] ?? 'nothing'}`);
  return value;
}

const roots = process.argv
  .slice(2)
  .filter((arg, index, all) => !arg.startsWith('--') && !all[index - 1]?.startsWith('--'));
if (roots.length !== 2) fail(2, 'usage: npx tsx bench/build-ab.ts ROOT_A ROOT_B [--rounds N] [--reps K]');
for (const root of roots) {
  if (!existsSync(resolve(root, 'dist/runner/round-check.js')))
    fail(2, `${root} has no built dist/ (run node scripts/build.mjs there)`);
}
const [rootA, rootB] = roots as [string, string];
const rounds = countOption('--rounds', 100);
const reps = countOption('--reps', 5);
const loadBefore = loadAverage();
const a: Sample[] = [];
const b: Sample[] = [];
for (let rep = 0; rep < reps; rep++) {
  a.push(sample(rootA, rounds));
  b.push(sample(rootB, rounds));
  const [lastA, lastB] = [a.at(-1) as Sample, b.at(-1) as Sample];
  process.stdout.write(
    `rep ${rep + 1}: A ${lastA.msPerRound} ms/round (cpu ${lastA.cpuMsPerRound}), B ${lastB.msPerRound} ms/round (cpu ${lastB.cpuMsPerRound})\n`,
  );
}
const [medianA, medianB] = [median(a.map((s) => s.msPerRound)), median(b.map((s) => s.msPerRound))];
const [cpuA, cpuB] = [median(a.map((s) => s.cpuMsPerRound)), median(b.map((s) => s.cpuMsPerRound))];
process.stdout.write(
  `A ${rootA}: median ${medianA} ms a round, cpu ${cpuA} ms\nB ${rootB}: median ${medianB} ms a round, cpu ${cpuB} ms\n`,
);
process.stdout.write(
  `B / A = ${(medianB / medianA).toFixed(3)}, cpu ${(cpuB / cpuA).toFixed(3)} (seed 1 rounds ${WARMUP_ROUNDS}..${WARMUP_ROUNDS + rounds - 1}${overrideArgs()}, ${reps} alternated pairs; load average before: ${loadBefore}; after: ${loadAverage()})\n`,
);
const digests = new Set([...a, ...b].map((s) => s.digest));
if (digests.size !== 1) fail(3, `the builds' traces differ: digests ${[...digests].join(', ')}`);
process.stdout.write(`same traces on both sides: digest ${[...digests][0]}\n`);
