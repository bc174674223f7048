/**
 * What checking observations against the trace contract costs (contract/trace/event-problem.ts): the
 * simulator's observation sink checks every observation a core emits, in every campaign round, so
 * the check must stay far below a round's own cost (about 80 ms on a quiet 2-core machine).
 *
 * Runs rounds 0..19 of seed 1 on the reference core, keeps their core events, then times
 * `eventProblem` over all of them: 10 warm-up passes, best of 30 (a figure to read, never
 * asserted). `npx tsx bench/trace-contract.ts`
 */
import { eventProblem } from '../contract/trace/event-problem.ts';
import { referenceCore } from '../cores/reference.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { runRound } from '../sim/round.ts';
import { loadAverage } from './lib/machine.ts';

const ROUNDS = 20;
const scenario = loadScenario('default');
const events: Readonly<Record<string, unknown>>[] = [];
const cpu0 = process.cpuUsage();
for (let round = 0; round < ROUNDS; round += 1) {
  const run = await runRound(generatePlan('1', round, scenario), referenceCore(), 'reference');
  for (const event of run.events) if (event.src === 'core') events.push(event);
}
const cpu = process.cpuUsage(cpu0);
let bestMs = Number.POSITIVE_INFINITY;
for (let pass = 0; pass < 40; pass += 1) {
  const started = performance.now();
  for (const event of events)
    if (eventProblem(event) !== null) throw new Error(`the reference core broke the contract: ${eventProblem(event)}`);
  if (pass >= 10) bestMs = Math.min(bestMs, performance.now() - started);
}
console.log(
  `rounds 0..${ROUNDS - 1} of seed 1, reference core: ${(events.length / ROUNDS).toFixed(0)} core events a round, a round costs ${((cpu.user + cpu.system) / 1000 / ROUNDS).toFixed(1)} ms CPU`,
);
console.log(
  `contract check: ${(bestMs / ROUNDS).toFixed(3)} ms a round, ${((bestMs * 1000) / events.length).toFixed(2)} µs an event (best of 30 passes; load average ${loadAverage()})`,
);
