/**
 * Everything a host started, found and ended after its case (issue 28 item 7). A host runs in its
 * own process group, but a child that calls `setsid` (Node's `detached: true`, `setsid CMD`, a
 * daemon's double fork) leaves that group, and one whose parent exited is no longer anybody's
 * descendant. What every descendant keeps is its environment: the host is started with
 * `CATSIM_HOST_MARK` set to a mark unique to the run, and after the case every process whose
 * environment holds it (`/proc/PID/environ`) is killed, as Jenkins' process tree killer finds a
 * build's processes by its cookie. A process that clears its environment is not found; on a system
 * without `/proc` only the process group is killed.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** The shim's file name, as its command line shows it (blackbox/stdio-shim.mjs). */
const SHIM_FILE = 'stdio-shim.mjs';

/** The environment variable that marks a host's processes. */
export const HOST_MARK_VAR = 'CATSIM_HOST_MARK';

/** How many times the scan is repeated while it still finds processes (a process may fork while it is killed). */
const SWEEPS_MAX = 20;

/** Longest wait for killed processes to be gone, ms (SIGKILL cannot be caught; this only waits for the kernel). */
const GONE_WAIT_MS = 2_000;

let marks = 0;

/** A mark unique to this catsim process and run: `PID-N`. */
export function newHostMark(): string {
  marks += 1;
  return `${process.pid}-${marks}`;
}

/**
 * SIGKILLs the host's process group, then every process whose environment carries `mark`, until
 * a scan finds none left running; resolves once they are gone (or zombies, which hold no port).
 * Returns the pids killed outside the group, in the order found.
 */
export async function killHostTree(groupPid: number | undefined, mark: string): Promise<number[]> {
  if (groupPid !== undefined) signal(-groupPid);
  const killed: number[] = [];
  for (let sweep = 0; sweep < SWEEPS_MAX; sweep += 1) {
    const found = markedProcesses(mark).map((marked) => marked.pid);
    if (found.length === 0) break;
    for (const pid of found) {
      signal(pid);
      if (!killed.includes(pid)) killed.push(pid);
    }
    await waitGone(found);
  }
  return killed;
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already, or not ours to kill.
  }
}

/** A running process of a host's: its pid, and whether it is catsim's own stdio shim (which the host launched as its server). */
export interface MarkedProcess {
  readonly pid: number;
  readonly shim: boolean;
}

/** Running (not zombie) processes whose environment holds `HOST_MARK_VAR=mark`; empty without /proc. */
export function markedProcesses(mark: string): MarkedProcess[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = `${HOST_MARK_VAR}=${mark}`;
  const found: MarkedProcess[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const pid = Number(entry);
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(needle)) continue;
      if (!running(pid)) continue;
      const shim = readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(SHIM_FILE);
      found.push({ pid, shim });
    } catch {
      // Gone while it was read.
    }
  }
  return found;
}

/**
 * How many of the host's processes (catsim's shims aside, which end with their connection) still
 * run `graceMs` after the host exited: a host's children get that long to end on their own, then
 * whatever is left was left behind. Returns as soon as none is left.
 */
export async function leftBehind(mark: string, graceMs: number): Promise<number> {
  let left = markedProcesses(mark).filter((found) => !found.shim);
  for (let waited = 0; waited < graceMs && left.length > 0; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    left = markedProcesses(mark).filter((found) => !found.shim);
  }
  return left.length;
}

/** Whether `pid` runs: gone, or a zombie (dead, waiting to be reaped), is not running. */
export function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until none of `pids` runs, polling every 10 ms, at most GONE_WAIT_MS. */
async function waitGone(pids: readonly number[]): Promise<void> {
  for (let waited = 0; waited < GONE_WAIT_MS && pids.some(running); waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
}
