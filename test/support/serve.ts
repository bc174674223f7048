/**
 * `catsim serve` started from a test as a user starts it: its own process from the checkout
 * (`bin/catsim.mjs`), waited on until it has printed its environment block.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** A running `catsim serve`. */
export interface Served {
  /** The serve process. */
  readonly process: ChildProcess;
  /** The `export CATSIM_...='...'` lines it printed, by name, in their order. */
  readonly env: Record<string, string>;
  /** Everything it has printed on stdout so far. */
  stdout(): string;
  /** Resolves with its exit code once it exits. */
  exited(): Promise<number | null>;
}

/**
 * Starts `catsim serve ARGS` and resolves once its `# catsim serve` line is out (polled every 50 ms;
 * the test's own timeout bounds the wait).
 */
export async function startServe(args: readonly string[]): Promise<Served> {
  const child = spawn(process.execPath, ['bin/catsim.mjs', 'serve', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  while (!stdout.includes('# catsim serve')) await new Promise((resolve) => setTimeout(resolve, 50));
  const env = Object.fromEntries(
    [...stdout.matchAll(/^export (CATSIM_[A-Z_]+)='(.*)'$/gm)].map((match) => [match[1] as string, match[2] as string]),
  );
  return { process: child, env, stdout: () => stdout, exited: () => exit };
}
