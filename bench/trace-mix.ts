/**
 * Where a round's work goes, by trace event: `npx tsx bench/trace-mix.ts [ROUNDS] [SCENARIO]`
 * runs rounds 0..ROUNDS-1 of seed 1 (default 50 rounds, scenario `default`, reference core) and
 * prints each event type's count a round, split at T_heal: before it the faults act, after it is
 * the quiet tail (T_heal..T_end), whose scans issue 12 asks to make leaner. Counts do not depend
 * on the machine's load.
 */
import { referenceCore } from '../cores/reference.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { boundsOf, loadScenario } from '../sim/plan/scenario.ts';
import { runRound } from '../sim/round.ts';

const scenario = loadScenario(process.argv[3] ?? 'default');
const rounds = Number(process.argv[2] ?? 50);
/** Count of each event type: [before T_heal, at or after it]. */
const counts = new Map<string, [number, number]>();
const { tHealMs, tEndMs } = boundsOf(scenario);
for (let round = 0; round < rounds; round += 1) {
  const plan = generatePlan('1', round, scenario);
  const run = await runRound(plan, referenceCore(), 'reference');
  for (const event of run.events) {
    const split = counts.get(event.type) ?? [0, 0];
    split[event.t >= tHealMs ? 1 : 0] += 1;
    counts.set(event.type, split);
  }
}
const perRound = (count: number): string => (count / rounds).toFixed(1).padStart(8);
const share = ([before, after]: [number, number]): string =>
  `${((100 * after) / Math.max(1, before + after)).toFixed(0).padStart(4)}%`;
console.log(
  `${rounds} rounds, scenario ${process.argv[3] ?? 'default'}; the quiet tail is ${tEndMs - tHealMs} ms of each round`,
);
console.log(`${'event'.padEnd(24)}${'before'.padStart(8)}${'tail'.padStart(8)}  tail share`);
const all: [number, number] = [0, 0];
for (const [type, split] of [...counts].sort((a, b) => b[1][0] + b[1][1] - a[1][0] - a[1][1])) {
  all[0] += split[0];
  all[1] += split[1];
  console.log(`${type.padEnd(24)}${perRound(split[0])}${perRound(split[1])}  ${share(split)}`);
}
console.log(`${'all'.padEnd(24)}${perRound(all[0])}${perRound(all[1])}  ${share(all)}`);
