import { loadCore } from '../sim/campaign/cores.ts';
import { runAndCheck } from '../sim/campaign/round-check.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { generatePlan } from '../sim/plan/generate.ts';
const name = process.argv[2]; const n = Number(process.argv[3] ?? 10);
const core = await loadCore(name);
const total: Record<string, number> = {};
for (let round = 0; round < n; round++) {
  const p = generatePlan('1', round, loadScenario('default'));
  const { summary } = await runAndCheck('1', round, loadScenario('default'), core, name);
  const c: Record<string, number> = {};
  for (const v of summary.violations) { const k = `${v.invariant} ${v.code}`; c[k] = (c[k] ?? 0) + 1; total[k] = (total[k] ?? 0) + 1; }
  console.log(round, 'restarts', JSON.stringify((p.hostRestarts??[]).map(r=>r.point+'@'+r.atMs)), 'triggers', ((p as any).rollbackTriggers??[]).length, JSON.stringify(c));
}
console.log(JSON.stringify(total, null, 1));
