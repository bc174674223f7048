/**
 * Summarises a V8 CPU profile (`node --cpu-prof`) by self time: shares by part of the code
 * (src/, sim/, oracle/, the SDK, zod, ajv, canonicalize, GC, ...), by file, and the top
 * functions. Used for the profile shares table in the README:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/round-profile.ts 60
 *   npx tsx bench/profile-summary.ts /tmp/prof/<file>.cpuprofile [top]
 *
 * Idle and "(program)" ticks are left out of the shares (they are not the program's work).
 */
import { readFileSync } from 'node:fs';

/** The parts of a V8 `.cpuprofile` this summary reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of the code a script URL belongs to. */
function partOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (url === '') return 'V8/native';
  const rules: readonly (readonly [RegExp, string])[] = [
    [/node_modules\/zod\//, 'zod'], [/node_modules\/@modelcontextprotocol\//, 'SDK'], [/node_modules\/ajv/, 'ajv'],
    [/node_modules\/canonicalize\//, 'canonicalize'], [/node_modules\//, 'other libraries'], [/^node:/, 'node'],
    [/\/src\//, 'src/'], [/\/sim\//, 'sim/'], [/\/oracle\//, 'oracle/'], [/\/bench\//, 'bench/'],
  ];
  return rules.find(([pattern]) => pattern.test(url))?.[1] ?? 'other';
}

/** A file's path from the repository root (or the package), for the by-file table. */
function shortFile(url: string): string {
  const packaged = /node_modules\/(.*)$/.exec(url);
  if (packaged) return packaged[1] as string;
  return url.replace(/^file:\/\/.*?\/(src|sim|oracle|bench|cli)\//, '$1/');
}

function addTo(totals: Map<string, number>, key: string, us: number): void {
  totals.set(key, (totals.get(key) ?? 0) + us);
}

function printShares(title: string, totals: Map<string, number>, all: number, top: number): void {
  console.log(`\n${title}`);
  for (const [key, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * us) / all).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  }
}

const [path, topArg] = process.argv.slice(2);
if (path === undefined) {
  console.error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
const top = Number(topArg ?? 25);
const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
const parts = new Map<string, number>();
const files = new Map<string, number>();
const functions = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, index) => {
  const frame = byId.get(id);
  const us = profile.timeDeltas[index] ?? 0;
  if (frame === undefined || frame.functionName === '(idle)' || frame.functionName === '(program)') return;
  all += us;
  addTo(parts, partOf(frame.url, frame.functionName), us);
  addTo(files, frame.url === '' ? frame.functionName : shortFile(frame.url), us);
  addTo(functions, `${frame.functionName || '(anonymous)'}  ${shortFile(frame.url)}:${frame.lineNumber + 1}`, us);
});
console.log(`self time, idle and (program) left out: ${(all / 1000).toFixed(0)} ms`);
printShares('by part', parts, all, 20);
printShares('by file', files, all, top);
printShares('by function', functions, all, top);
