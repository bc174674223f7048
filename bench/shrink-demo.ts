// Shrinks the first failing round of a mutant campaign and prints how far it got.
import { resolveCore } from '../cores/index.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { shrinkPlan } from '../runner/shrink.ts';
const core = process.argv[2] ?? 'mutant:no-final-recheck';
const round = Number(process.argv[3] ?? 0);
const t0 = performance.now();
const result = await shrinkPlan(generatePlan('1', round, loadScenario('default')), resolveCore(core), core);
console.log(
  result.invariant,
  result.sizeBefore,
  '->',
  result.sizeAfter,
  'attempts',
  result.attempts,
  'ms',
  Math.round(performance.now() - t0),
);
console.log(result.steps.join('\n'));
console.log(result.violations[0]);
