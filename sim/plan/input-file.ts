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
 * The parsed JSON of `path`; a leading UTF-8 byte order mark is skipped.
 * @throws what `fail` returns: a problem of {@link readInputText}, `PATH: not valid JSON`, or
 *   `PATH: /name holds a lone UTF-16 surrogate (...)` ({@link loneSurrogateProblem}).
 */
export function readInputJson(path: string, fail: (message: string) => Error): unknown {
  const text = readInputText(path, fail);
  let data: unknown;
  try {
    // A UTF-8 byte order mark (some Windows editors write one) is not part of the JSON text.
    data = JSON.parse(text.startsWith('\ufeff') ? text.slice(1) : text) as unknown;
  } catch {
    throw fail(`${path}: not valid JSON`);
  }
  const problem = loneSurrogateProblem(data);
  if (problem !== undefined) throw fail(`${path}: ${problem}`);
  return data;
}

/**
 * `WHERE holds a lone UTF-16 surrogate (...)` for the first one in `value` ({@link loneSurrogateAt}),
 * or undefined when there is none.
 */
export function loneSurrogateProblem(value: unknown): string | undefined {
  const where = loneSurrogateAt(value);
  return where === undefined ? undefined : `${where} holds a lone UTF-16 surrogate (legal JSON, but not Unicode text: catsim cannot digest it)`;
}

/**
 * Where the first lone UTF-16 surrogate (`\ud800` without its pair) in a parsed JSON value is,
 * as a JSON Pointer (`/pages/0/tools/1/description`) or `the key "KEY" in POINTER`; undefined
 * when every string and key is well-formed. Keys are JSON-escaped in the message, so it is one
 * printable line.
 */
export function loneSurrogateAt(value: unknown, pointer = ''): string | undefined {
  if (typeof value === 'string') return isWellFormed(value) ? undefined : pointer === '' ? 'the top level' : pointer;
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  for (const [key, item] of entries) {
    if (!isWellFormed(key)) return `the key ${JSON.stringify(key)} in ${pointer === '' ? 'the top level' : pointer}`;
    const found = loneSurrogateAt(item, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function readProblem(code: string | undefined): string {
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'ENOTDIR') return 'no such file (a part of the path is a file, not a directory)';
  return `cannot be read (${code ?? 'unknown error'})`;
}
