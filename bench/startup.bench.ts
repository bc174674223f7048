/**
 * Start-up of the command line (issue 12, item 3): whole processes, timed from outside.
 *
 * 1. `catsim --help`: wall ms from spawn to exit.
 * 2. `catsim discover --stdio "node bench/lib/initialize-probe-server.mjs"`: ms from spawning
 *    catsim until the server receives `initialize` (the probe server records it against the
 *    start time it is given), and wall ms until catsim exits with the snapshot.
 * 3. `catsim run --rounds 1 --workers 1`: wall ms of a campaign of one round on one worker
 *    thread (the thread's start-up and module loading, then one round).
 *
 * Each runs from the compiled CLI (`CATSIM_RUN_FROM=dist`, dist/ must be fresh: `npm run build`)
 * and from the sources through tsx (`CATSIM_RUN_FROM=source`), in turn (dist, source, dist, ...)
 * so that a drift in the machine's load hits both alike. Baselines: a bare `node -e 0`, and a
 * bare node parent that spawns the probe server and sends `initialize` (the floor of row 2).
 * Figures are min / median / max over the runs; nothing asserts on them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildState } from '../bin/build-state.mjs';
import type { BenchOptions } from './lib/args.ts';
import { runIfEntry } from './lib/entry.ts';
import { loadAverage } from './lib/machine.ts';
import { sig, type BenchTable } from './lib/table.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROBE = fileURLToPath(new URL('./lib/initialize-probe-server.mjs', import.meta.url));
const FROM = ['dist', 'source'] as const;

/** One measured quantity: a label and its samples in ms. */
interface Series {
  label: string;
  from: string;
  samplesMs: number[];
}

/** Runs the start-up benchmark and returns its table. @throws Error when dist/ is not fresh. */
export async function startupBench(options: BenchOptions): Promise<BenchTable[]> {
  const state = buildState();
  if (!state.fresh) throw new Error(`startup benchmark: ${state.why}; run npm run build first`);
  const runs = options.quick ? 3 : 9;
  const loadBefore = loadAverage();
  const dir = mkdtempSync(join(tmpdir(), 'catsim-startup-'));
  const series = new Map<string, Series>();
  const add = (label: string, from: string, ms: number): void => {
    const key = `${label}\0${from}`;
    if (!series.has(key)) series.set(key, { label, from, samplesMs: [] });
    series.get(key)?.samplesMs.push(ms);
  };
  try {
    for (let run = 0; run < runs; run += 1) {
      add(
        'node -e 0 (baseline)',
        '-',
        timed(() => spawnChecked(process.execPath, ['-e', '0'], {})),
      );
      add(
        'bare node parent: spawn the probe server, send initialize (baseline)',
        '-',
        bareInitialize(join(dir, `bare-${run}.txt`)),
      );
      for (const from of FROM) {
        const env = { CATSIM_RUN_FROM: from };
        add(
          'catsim --help',
          from,
          timed(() => catsim(['--help'], env)),
        );
        const out = join(dir, `discover-${from}-${run}.txt`);
        const wall = timed(() => catsim(['discover', '--stdio', probeCommand(out)], env));
        add('catsim discover: until the server gets initialize', from, Number(readFileSync(out, 'utf8').trim()));
        add('catsim discover: until it exits with the snapshot', from, wall);
        add(
          'catsim run --rounds 1 --workers 1',
          from,
          timed(() =>
            catsim(
              ['run', '--rounds', '1', '--workers', '1', '--quiet', '--no-shrink', '--determinism-every', '0'],
              env,
            ),
          ),
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    {
      title: 'start-up: whole catsim processes, compiled (dist) vs the sources through tsx (source)',
      columns: ['command', 'from', 'runs', 'min ms', 'median ms', 'max ms'],
      rows: [...series.values()].map(({ label, from, samplesMs }) => {
        const sorted = [...samplesMs].sort((a, b) => a - b);
        return [
          label,
          from,
          String(sorted.length),
          sig(sorted[0] ?? Number.NaN),
          sig(sorted[Math.floor(sorted.length / 2)] ?? Number.NaN),
          sig(sorted[sorted.length - 1] ?? Number.NaN),
        ];
      }),
      notes: [
        'wall ms from spawn to exit, read in this process; the discover "initialize" row is read by the probe server against the spawn time.',
        'runs alternate dist, source, dist, ... so both see the same load; the source rows are the fallback bin/catsim.mjs takes when dist/ is stale.',
        `load average before: ${loadBefore}; after: ${loadAverage()}.`,
      ],
    },
  ];
}

/** The real clock around `run`, in ms. */
function timed(run: () => void): number {
  const started = performance.now(); // real-clock: benchmark only
  run();
  return performance.now() - started;
}

/** `node bin/catsim.mjs ARGS` from the package root, with `env` added. @throws Error on a non-zero exit. */
function catsim(args: readonly string[], env: Record<string, string>): void {
  spawnChecked(process.execPath, ['bin/catsim.mjs', ...args], env);
}

function spawnChecked(command: string, args: readonly string[], env: Record<string, string>): void {
  const result = spawnSync(command, args, { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${args.join(' ')}: exit ${result.status ?? result.signal}: ${result.stderr.trim()}`);
}

/**
 * The `--stdio` line of the probe server; the start time and output file go through `env`
 * because catsim starts servers with the SDK's default environment, not its own.
 */
function probeCommand(out: string): string {
  return `env CATSIM_PROBE_T0=${performance.timeOrigin + performance.now()} CATSIM_PROBE_OUT=${out} ${process.execPath} ${PROBE}`; // real-clock: benchmark only
}

/** A node parent that only spawns the probe server and sends `initialize`: ms until it arrives. */
function bareInitialize(out: string): number {
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bare', version: '0' } },
  });
  const parent =
    `const c = require('node:child_process').spawn('sh', ['-c', ${JSON.stringify(probeCommand(out))}], { stdio: ['pipe', 'pipe', 'inherit'] });` +
    `c.stdin.write(${JSON.stringify(`${initialize}\n`)}); c.stdout.once('data', () => c.stdin.end());`;
  spawnChecked(process.execPath, ['-e', parent], {});
  return Number(readFileSync(out, 'utf8').trim());
}

await runIfEntry(import.meta.url, startupBench);
