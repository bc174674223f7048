/**
 * Sampled allocation profile of in-process rounds: `npx tsx bench/heap-sample.ts [N] [top]` runs
 * 10 warm-up rounds, then rounds 0..N-1 of seed 1 (default scenario, reference core, each checked
 * by the oracle) under V8's sampling heap profiler (one sample per 32 KiB allocated on average,
 * objects collected during the run included), and prints the bytes allocated a round by function
 * (self) and by file. Which code allocates is what GC time follows; the figures are sampled
 * estimates, so compare shares of one run rather than absolute bytes across runs. `--zod` adds
 * zod's allocation by the nearest catsim caller; `--by-caller` charges every allocation (native,
 * library, catsim) to the nearest catsim function on its stack (src/, sim/, oracle/, contract/).
 */
import { Session } from 'node:inspector/promises';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { runRound } from '../sim/round.ts';
import { referenceCore } from '../cores/reference.ts';
import { checkEvents } from '../oracle/index.ts';

/** One node of a V8 sampling heap profile. */
interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

const sc = loadScenario('default');
const N = Number(process.argv[2] ?? 50);
const TOP = Number(process.argv[3] ?? 30);
for (let r = 100_000; r < 100_010; r++) await runRound(generatePlan('1', r, sc), referenceCore(), 'reference');
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 32 * 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let r = 0; r < N; r++) {
  const run = await runRound(generatePlan('1', r, sc), referenceCore(), 'reference');
  checkEvents(run.header, run.events);
}
const { profile } = await session.post('HeapProfiler.stopSampling');
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
const short = (url: string): string =>
  url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|sim|oracle|bench|cli|contract)\//, '$1/');
const zodCallers = new Map<string, number>();
const projectCallers = new Map<string, number>();
const isProject = (file: string): boolean => /^(src|sim|oracle|contract)\//.test(file);
const walk = (node: HeapNode, caller = '', projectCaller = '(none)'): void => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = short(url) || '(native)';
  byFunction.set(
    `${functionName || '(anonymous)'}  ${file}:${lineNumber + 1}`,
    (byFunction.get(`${functionName || '(anonymous)'}  ${file}:${lineNumber + 1}`) ?? 0) + node.selfSize,
  );
  byFile.set(file, (byFile.get(file) ?? 0) + node.selfSize);
  total += node.selfSize;
  if (/zod/.test(url)) zodCallers.set(caller, (zodCallers.get(caller) ?? 0) + node.selfSize);
  const here = isProject(file) ? `${functionName || '(anonymous)'}  ${file}:${lineNumber + 1}` : projectCaller;
  projectCallers.set(here, (projectCallers.get(here) ?? 0) + node.selfSize);
  const next = /zod|^$/.test(url) ? caller : `${functionName}  ${file}`;
  for (const child of node.children) walk(child, next, here);
};
walk(profile.head as HeapNode);
const print = (title: string, totals: Map<string, number>): void => {
  console.log(`\n${title}`);
  for (const [key, bytes] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(
      `${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${(bytes / N / 1024).toFixed(0).padStart(7)} KiB/round  ${key}`,
    );
};
console.log(`sampled allocation: ${(total / N / 1024 / 1024).toFixed(2)} MiB a round over ${N} rounds`);
print('by file', byFile);
print('by function (self)', byFunction);
if (process.argv.includes('--zod')) print('zod allocation by nearest catsim caller', zodCallers);
if (process.argv.includes('--by-caller'))
  print(
    'allocation by nearest catsim function (native and library allocations charged to the catsim function below them)',
    projectCallers,
  );
