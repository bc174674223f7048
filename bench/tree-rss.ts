/**
 * Peak resident memory of a command and every process it starts (issue 12, item 4: "peak RSS
 * ... for the process and its workers"): `npx tsx bench/tree-rss.ts [--every MS] -- COMMAND
 * [ARGS...]` runs COMMAND with its output passed through, and every MS ms (default 100) sums the
 * resident set (`VmRSS` of /proc/PID/status, in KB) of COMMAND and all its descendants. At the end
 * it prints, on stderr, the peak of that sum, the peak of the largest single process and the
 * most processes seen at once, and exits with COMMAND's exit code.
 *
 * `/usr/bin/time -f %M` is no substitute once a command starts processes (campaign workers as
 * processes, the build docs/BENCHMARKS.md's "Worker processes" entry measured; a stdio server under
 * `discover`): it reports the largest single process of the tree, never their sum. A peak shorter
 * than one sampling interval can be missed, so the figure is a lower bound (at 100 ms the 94 s
 * main job was sampled 933 times). Ended by a signal, COMMAND gives 128 + the signal's number.
 * Linux only (it reads /proc); elsewhere exit 2 with one line.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';

/** One process's parent and resident set (KB), or undefined once it ended. */
function processInfo(pid: number): { parent: number; rssKb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const parent = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
    const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0); // a zombie has no VmRSS
    return { parent, rssKb };
  } catch {
    return undefined;
  }
}

/** The resident sets (KB) of `root` and its live descendants. */
function treeRss(root: number): number[] {
  const info = new Map<number, { parent: number; rssKb: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const found = processInfo(Number(name));
    if (found !== undefined) info.set(Number(name), found);
  }
  const inTree = new Set<number>([root]);
  // Parents are listed before children only by chance: repeat until no process joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, { parent }] of info) {
      if (!inTree.has(pid) && inTree.has(parent)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  return [...inTree].map((pid) => info.get(pid)?.rssKb ?? 0).filter((kb) => kb > 0);
}

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const everyIndex = argv.indexOf('--every');
const everyMs = everyIndex >= 0 && everyIndex < dashes ? Number(argv[everyIndex + 1]) : 100;
const command = dashes < 0 ? [] : argv.slice(dashes + 1);
if (command.length === 0 || !Number.isInteger(everyMs) || everyMs < 10) {
  process.stderr.write('usage: npx tsx bench/tree-rss.ts [--every MS (>= 10)] -- COMMAND [ARGS...]\n');
  process.exit(2);
}
if (!existsSync('/proc/self/status')) {
  process.stderr.write('bench/tree-rss: needs /proc (Linux)\n');
  process.exit(2);
}

const child = spawn(command[0] as string, command.slice(1), { stdio: 'inherit' });
let peakSumKb = 0;
let peakOneKb = 0;
let mostProcesses = 0;
let samples = 0;
const sample = (): void => {
  if (child.pid === undefined) return;
  const sizes = treeRss(child.pid);
  samples += 1;
  peakSumKb = Math.max(
    peakSumKb,
    sizes.reduce((sum, kb) => sum + kb, 0),
  );
  peakOneKb = Math.max(peakOneKb, ...sizes, 0);
  mostProcesses = Math.max(mostProcesses, sizes.length);
};
const timer = setInterval(sample, everyMs);
child.on('error', (error) => {
  process.stderr.write(`bench/tree-rss: cannot start ${command[0]}: ${error.message}\n`);
  process.exit(2);
});
child.on('exit', (code, signal) => {
  clearInterval(timer);
  const mib = (kb: number): string => (kb / 1024).toFixed(1);
  process.stderr.write(
    `tree-rss: peak ${mib(peakSumKb)} MiB (${peakSumKb} KB) over the process tree, largest process ${mib(peakOneKb)} MiB, up to ${mostProcesses} processes, ${samples} samples every ${everyMs} ms\n`,
  );
  process.exit(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
});
