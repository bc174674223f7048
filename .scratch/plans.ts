import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
const s = loadScenario('default');
for (let r = 0; r < 12; r++) { const p = generatePlan('1', r, s); console.log(r, JSON.stringify(p.hostRestarts ?? []), JSON.stringify((p as any).rollbackTriggers ?? []).slice(0,120), p.servers.map(x=>x.audiences.length)); }
