/**
 * Output files the command line writes (`--report`, `--trace`, `--out`, shrink files). Their
 * paths are checked before any work starts, so a typo in a directory name costs a usage error
 * (exit 2) up front, never the result of a long campaign.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from './errors.ts';

/**
 * Checks that `path` can be written: its directory exists and is writable, and the path is not
 * a directory nor an existing read-only file. Creates nothing.
 * @param option the option that named the path (for the message), e.g. `--report`.
 * @throws InputError (exit 2) naming the option, the path and the problem.
 */
export function assertWritable(path: string, option: string): void {
  const full = resolve(path);
  const directory = dirname(full);
  const problem = ((): string | undefined => {
    let dir;
    try {
      dir = statSync(directory);
    } catch {
      return `the directory ${directory} does not exist`;
    }
    if (!dir.isDirectory()) return `${directory} is not a directory`;
    let file;
    try {
      file = statSync(full);
    } catch {
      file = undefined;
    }
    if (file?.isDirectory() === true) return 'it is a directory';
    try {
      accessSync(file === undefined ? directory : full, constants.W_OK);
    } catch {
      return file === undefined ? `the directory ${directory} is not writable` : 'the file is not writable';
    }
    return undefined;
  })();
  if (problem !== undefined) throw new InputError(`${option} ${path}: cannot write there (${problem})`);
}

/**
 * Checks that no two output options name the same file (one would silently overwrite the other).
 * @param outputs `[option, path]` pairs; undefined paths (options not given) are skipped.
 * @throws InputError (exit 2) naming both options and the path.
 */
export function assertDistinct(outputs: readonly (readonly [option: string, path: string | undefined])[]): void {
  const seen = new Map<string, string>();
  for (const [option, path] of outputs) {
    if (path === undefined) continue;
    const full = resolve(path);
    const other = seen.get(full);
    if (other !== undefined) throw new InputError(`${other} and ${option} name the same file ${path}: one would overwrite the other`);
    seen.set(full, option);
  }
}
