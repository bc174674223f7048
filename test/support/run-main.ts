/**
 * Runs the command line in-process (`main` from cli/main.ts) with stdout and stderr captured, for
 * tests that need the exact exit code and message without paying for a child process.
 */
import { vi } from 'vitest';
import { main } from '../../cli/main.ts';

/** What one command printed, and its exit code. */
export interface MainResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `catsim ARGS` in-process; the output is captured, not shown. */
export async function runMain(args: string[]): Promise<MainResult> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
