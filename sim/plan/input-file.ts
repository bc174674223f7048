/**
 * Reading the files a user names on the command line (scenario, catalog and plan files, traces,
 * reports), with the problem in plain words: a path that names a directory says so, instead of
 * being reported as "not valid JSON" or "no such file".
 */
import { readFileSync, statSync } from 'node:fs';

/**
 * The text of `path` (UTF-8).
 * @param fail makes the error to throw from a one-line message `PATH: PROBLEM` (the caller's
 *   error class decides the exit code).
 * @throws what `fail` returns, with the problem `the path is empty`, `is a named pipe (FIFO),
 *   not a file` (reading it would block), `no such file`, `is a
 *   directory, not a file`, or `cannot be read (CODE)`.
 */
export function readInputText(path: string, fail: (message: string) => Error): string {
  if (path === '') throw fail('"": the path is empty');
  // Reading a named pipe nobody writes would block for ever.
  if (isNamedPipe(path)) throw fail(`${path}: is a named pipe (FIFO), not a file`);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw fail(`${path}: ${readProblem((error as NodeJS.ErrnoException).code)}`);
  }
}

/**
 * The parsed JSON of `path`; a leading UTF-8 byte order mark is skipped.
 * @throws what `fail` returns: a problem of {@link readInputText}, `PATH: not valid JSON (line
 *   L, column C)` (where the parse failed), or
 *   `PATH: /name holds a lone UTF-16 surrogate (...)` ({@link loneSurrogateProblem}).
 */
export function readInputJson(path: string, fail: (message: string) => Error): unknown {
  const text = readInputText(path, fail);
  let data: unknown;
  // A UTF-8 byte order mark (some Windows editors write one) is not part of the JSON text.
  const json = text.startsWith('\ufeff') ? text.slice(1) : text;
  try {
    data = JSON.parse(json) as unknown;
  } catch (error) {
    throw fail(`${path}: not valid JSON (${lineAndColumn(json, errorOffset(json, error))})`);
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
  return where === undefined
    ? undefined
    : `${where} holds a lone UTF-16 surrogate (legal JSON, but not Unicode text: catsim cannot digest it)`;
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
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [key, item] of entries) {
    if (!isWellFormed(key)) return `the key ${JSON.stringify(key)} in ${pointer === '' ? 'the top level' : pointer}`;
    const found = loneSurrogateAt(item, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isNamedPipe(path: string): boolean {
  try {
    return statSync(path).isFIFO();
  } catch {
    return false;
  }
}

/**
 * Where `JSON.parse(text)` failed, as an offset into `text`: the position V8 names in its
 * message; the end for text that ends too early; else (V8 names no position for an unexpected
 * token) the length of the longest prefix that is JSON or fails only where it ends, found by
 * bisection (a guess where a literal such as `tru` is cut: it points at or near the token).
 */
export function errorOffset(text: string, error: unknown): number {
  const message = error instanceof Error ? error.message : '';
  const named = /at position (\d+)/.exec(message);
  if (named !== null) return Number(named[1]);
  if (endsEarly(message)) return text.length;
  let viable = 0;
  let broken = text.length;
  while (broken - viable > 1) {
    const middle = Math.floor((viable + broken) / 2);
    if (isViablePrefix(text.slice(0, middle))) viable = middle;
    else broken = middle;
  }
  return viable;
}

function endsEarly(message: string): boolean {
  return /Unexpected end of JSON input|Unterminated/.test(message);
}

/** Whether `prefix` is JSON, or fails only where it ends (more text could complete it). */
function isViablePrefix(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    const named = /at position (\d+)/.exec(message);
    return endsEarly(message) || (named !== null && Number(named[1]) >= prefix.length);
  }
}

/** `line L, column C` (both from 1; a column counts UTF-16 code units) of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return `line ${before.split('\n').length}, column ${offset - lineStart + 1}`;
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
