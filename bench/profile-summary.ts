/**
 * Summarises a V8 CPU profile (`node --cpu-prof`) by self time: shares by part of the code
 * (src/, sim/, oracle/, the SDK, zod, ajv, canonicalize, GC, ...), by file, and the top
 * functions. Used for the profile shares tables of docs/BENCHMARKS.md:
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/round-profile.ts 60
 *   npx tsx bench/profile-summary.ts /tmp/prof/<file>.cpuprofile [top]
 *
 * Idle and "(program)" ticks are left out of the shares (they are not the program's work).
 *
 * It also gives two inclusive shares (a sample counts if the frame is anywhere on its stack), to
 * size the cuts issue 12 names: the simulated servers' side of the SDK (the SDK's request
 * handling, `Protocol._onrequest` and the continuations it defines, and `server/`, outside the
 * catalog server's own handlers), and the catalog server's handlers with all they call.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The parts of a V8 `.cpuprofile` this summary reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of the code a script URL belongs to. */
function partOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'GC';
  if (url === '') return 'V8/native';
  const rules: readonly (readonly [RegExp, string])[] = [
    [/node_modules\/zod\//, 'zod'],
    [/node_modules\/@modelcontextprotocol\/sdk\//, 'SDK'],
    [/node_modules\/@modelcontextprotocol\//, 'SDK v2 packages'],
    [/node_modules\/ajv/, 'ajv'],
    [/node_modules\/canonicalize\//, 'canonicalize'],
    [/node_modules\//, 'other libraries'],
    [/^node:/, 'node'],
    [/\/src\//, 'src/'],
    [/\/sim\//, 'sim/'],
    [/\/oracle\//, 'oracle/'],
    [/\/bench\//, 'bench/'],
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

/**
 * The source lines [first, end) of `Protocol._onrequest` in the SDK's protocol.js at `url`
 * (0-based, as V8 numbers them): its own frame and the promise continuations it creates.
 */
function onRequestLines(url: string): readonly [number, number] {
  const lines = readFileSync(fileURLToPath(url), 'utf8').split('\n');
  const first = lines.findIndex((line) => /^ {4}_onrequest\(/.test(line));
  const end = lines.findIndex((line, index) => index > first && /^ {4}[_A-Za-z]+\(.*\) \{$/.test(line));
  return [first, end < 0 ? lines.length : end];
}

/** Time (µs) of the samples with a server-side SDK frame, or a catalog-server frame, on their stack. */
function inclusiveShares(cpu: CpuProfile): Map<string, number> {
  const parentOf = new Map<number, number>();
  for (const node of cpu.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const frames = new Map(cpu.nodes.map((node) => [node.id, node.callFrame]));
  const ranges = new Map<string, readonly [number, number]>();
  const serverSdk = (frame: CpuProfile['nodes'][number]['callFrame']): boolean => {
    if (frame.url.includes('@modelcontextprotocol/sdk/dist/esm/server/')) return true;
    if (!frame.url.endsWith('@modelcontextprotocol/sdk/dist/esm/shared/protocol.js')) return false;
    if (!ranges.has(frame.url)) ranges.set(frame.url, onRequestLines(frame.url));
    const [first, end] = ranges.get(frame.url) as readonly [number, number];
    return frame.lineNumber >= first && frame.lineNumber < end;
  };
  const SERVER_SDK = 'SDK server side, outside the catalog server';
  const HANDLERS = 'catalog-server.ts and all it calls';
  const totals = new Map<string, number>([
    [SERVER_SDK, 0],
    [HANDLERS, 0],
  ]);
  cpu.samples.forEach((id, index) => {
    const self = frames.get(id);
    if (self === undefined || self.functionName === '(idle)' || self.functionName === '(program)') return;
    let server = false;
    let handler = false;
    for (let node: number | undefined = id; node !== undefined; node = parentOf.get(node)) {
      const frame = frames.get(node);
      if (frame === undefined) break;
      if (frame.url.endsWith('/sim/server/catalog-server.ts')) handler = true;
      else if (serverSdk(frame)) server = true;
    }
    const us = cpu.timeDeltas[index] ?? 0;
    if (server && !handler) addTo(totals, SERVER_SDK, us);
    if (handler) addTo(totals, HANDLERS, us);
  });
  return totals;
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
printShares('inclusive (on the stack)', inclusiveShares(profile), all, 10);
printShares('by file', files, all, top);
printShares('by function', functions, all, top);
