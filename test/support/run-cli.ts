/**
 * Runs the real command line (`bin/catsim.mjs`) in a child process, for tests that need what a
 * user's shell sees: the process exit code, and stdout and stderr as written.
 *
 * It runs the compiled CLI of dist/ when dist/ was built from the sources as they are now (it
 * starts several times faster, and it is then the same code), else the sources through tsx, so
 * the tests always test the sources being edited and never see the "running the sources" note.
 */
import { execFile } from 'node:child_process';
import { buildState } from '../../bin/build-state.mjs';

/** `CATSIM_RUN_FROM` for every child (see bin/catsim.mjs), decided once per test file. */
export const RUN_FROM = buildState().fresh ? 'dist' : 'source';

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
export function catsim(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/catsim.mjs', ...args],
      { timeout: options.timeoutMs ?? 60_000, env: { CATSIM_RUN_FROM: RUN_FROM, ...(options.env ?? process.env) } },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number((error as { code?: number }).code), stdout, stderr });
      },
    );
  });
}
