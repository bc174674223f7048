/**
 * Runs the real command line (`bin/catsim.mjs`) in a child process, for tests that need what a
 * user's shell sees: the process exit code, and stdout and stderr as written.
 */
import { execFile } from 'node:child_process';

/** What one command printed, and its exit code. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `catsim ARGS` from the repository root; resolves (never rejects) with the exit code and
 * output. A command still running after `timeoutMs` (default 60,000 ms) is killed.
 */
export function catsim(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/catsim.mjs', ...args], { timeout: options.timeoutMs ?? 60_000, env: options.env ?? process.env }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number((error as { code?: number }).code), stdout, stderr });
    });
  });
}
