import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { runRound } from '../sim/round.ts';
import { referenceCore } from '../sim/cores/reference.ts';
import { checkEvents } from '../oracle/index.ts';
const sc = loadScenario('default');
const N = Number(process.argv[2] ?? 100);
let ev = 0, tr = 0, tCheck = 0;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
for (let r = 0; r < N; r++) {
  const run = await runRound(generatePlan('1', r, sc), referenceCore(), 'reference');
  ev += run.eventsRun; tr += run.events.length;
  const c0 = performance.now();
  checkEvents(run.header, run.events);
  tCheck += performance.now() - c0;
}
const cpu = process.cpuUsage(cpu0);
console.log('cpu ms/round', ((cpu.user + cpu.system) / 1000 / N).toFixed(1), 'wall ms/round', ((performance.now() - t0) / N).toFixed(1), 'world events/round', (ev / N).toFixed(0), 'trace events/round', (tr / N).toFixed(0), 'oracle ms/round', (tCheck / N).toFixed(2));
