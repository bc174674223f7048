/**
 * In-process rounds for profiling: `npx tsx bench/round-profile.ts [N] [--profile FILE]` runs
 * rounds 0..N-1 of seed 1 (default scenario, reference core) and checks each with the oracle,
 * then prints CPU and wall ms a round. With `--profile FILE`, a V8 CPU profile of the N rounds
 * (after 10 warm-up rounds, so module loading and first compiles stay out) is written to FILE;
 * summarise it with `npx tsx bench/profile-summary.ts FILE`. With `--count-stringify`, it also
 * counts the `JSON.stringify` calls of the N rounds and the characters they return (a figure that
 * does not depend on the machine's load: issue 12 measured 8,647 calls and 2.3 MB a round).
 *
 * `--era MIX` runs the default scenario with its `eraMix` set to that one mix (legacy, modern,
 * mixed, gateway: every round then draws it, and every other draw of the round stays the same),
 * and `--http FRACTION` sets `faultRates.ERA.modernHttpFraction` (0: every modern server over
 * stdio, 1: every one over Streamable HTTP): the per-era costs of docs/BENCHMARKS.md's
 * "Modern-era rounds". The default is the default scenario as it ships.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { runRound } from '../sim/round.ts';
import { referenceCore } from '../cores/reference.ts';
import { checkEvents } from '../oracle/index.ts';

const WARMUP_FIRST_ROUND = 100_000;
const sc = loadScenario('default');
const eraIndex = process.argv.indexOf('--era');
if (eraIndex >= 0) sc.eraMix = [process.argv[eraIndex + 1] as NonNullable<typeof sc.eraMix>[number]];
const httpIndex = process.argv.indexOf('--http');
if (httpIndex >= 0)
  sc.faultRates = {
    ...sc.faultRates,
    ERA: { ...sc.faultRates?.ERA, modernHttpFraction: Number(process.argv[httpIndex + 1]) },
  };
const N = Number(process.argv[2] ?? 100);
const profileIndex = process.argv.indexOf('--profile');
const profilePath = profileIndex < 0 ? undefined : process.argv[profileIndex + 1];
let session: Session | undefined;
if (profilePath !== undefined) {
  for (let r = WARMUP_FIRST_ROUND; r < WARMUP_FIRST_ROUND + 10; r++)
    await runRound(generatePlan('1', r, sc), referenceCore(), 'reference');
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const stringified = { calls: 0, chars: 0 };
if (process.argv.includes('--count-stringify')) {
  const native = JSON.stringify;
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
    const text = native(...args);
    stringified.calls += 1;
    stringified.chars += text?.length ?? 0;
    return text;
  }) as typeof JSON.stringify;
}
let ev = 0,
  tr = 0,
  tCheck = 0;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
for (let r = 0; r < N; r++) {
  const run = await runRound(generatePlan('1', r, sc), referenceCore(), 'reference');
  ev += run.eventsRun;
  tr += run.events.length;
  const c0 = performance.now();
  checkEvents(run.header, run.events);
  tCheck += performance.now() - c0;
}
const cpu = process.cpuUsage(cpu0);
if (stringified.calls > 0)
  console.log(
    'JSON.stringify calls/round',
    (stringified.calls / N).toFixed(0),
    'chars/round',
    (stringified.chars / N).toFixed(0),
  );
if (session !== undefined && profilePath !== undefined) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profilePath, JSON.stringify(profile));
}
console.log(
  'cpu ms/round',
  ((cpu.user + cpu.system) / 1000 / N).toFixed(1),
  'wall ms/round',
  ((performance.now() - t0) / N).toFixed(1),
  'world events/round',
  (ev / N).toFixed(0),
  'trace events/round',
  (tr / N).toFixed(0),
  'oracle ms/round',
  (tCheck / N).toFixed(2),
);
