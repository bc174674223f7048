/**
 * Reading the files a user names on the command line (scenario, catalog and plan files, traces,
 * reports), with the problem in plain words: a path that names a directory says so, instead of
 * being reported as "not valid JSON" or "no such file".
 */
import { readFileSync } from 'node:fs';

/**
 * The text of `path` (UTF-8).
 * @param fail makes the error to throw from a one-line message `PATH: PROBLEM` (the caller's
 *   error class decides the exit code).
 * @throws what `fail` returns, with the problem `the path is empty`, `no such file`, `is a
 *   directory, not a file`, or `cannot be read (CODE)`.
 */
export function readInputText(path: string, fail: (message: string) => Error): string {
  if (path === '') throw fail('"": the path is empty');
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw fail(`${path}: ${readProblem((error as NodeJS.ErrnoException).code)}`);
  }
}

/**
 * The parsed JSON of `path`.
 * @throws what `fail` returns: a problem of {@link readInputText}, or `PATH: not valid JSON`.
 */
export function readInputJson(path: string, fail: (message: string) => Error): unknown {
  const text = readInputText(path, fail);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw fail(`${path}: not valid JSON`);
  }
}

function readProblem(code: string | undefined): string {
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'ENOTDIR') return 'no such file (a part of the path is a file, not a directory)';
  return `cannot be read (${code ?? 'unknown error'})`;
}
