// Counts trace events by type over a few rounds: where a round's work goes.
import { referenceCore } from '../sim/cores/reference.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { runRound } from '../sim/round.ts';

const scenario = loadScenario(process.argv[3] ?? 'default');
const rounds = Number(process.argv[2] ?? 50);
const counts = new Map<string, number>();
for (let round = 0; round < rounds; round += 1) {
  const run = await runRound(generatePlan('1', round, scenario), referenceCore(), 'reference');
  for (const event of run.events) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
}
for (const [type, count] of [...counts].sort((a, b) => b[1] - a[1])) console.log(type.padEnd(22), (count / rounds).toFixed(1));
