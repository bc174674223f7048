/**
 * Output files the command line writes (`--report`, `--junit`, `--trace`, `--out`, shrink files).
 *
 * Their paths are checked before any work starts, by really creating a file there (and removing
 * it), so a typo in a directory name or a directory nobody may write costs a usage error (exit 2)
 * up front, never the result of a long campaign. A write can still fail at the end (the disk
 * filled, the directory was removed meanwhile): then the text goes to a fallback file in the
 * system's temporary directory, whose path is printed, and the command exits 2, so nothing a
 * campaign computed is lost.
 */
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError } from './errors.ts';

/**
 * Checks that `path` can be written: the path is not empty, its directory exists, the path is
 * neither a directory nor a named pipe, and a file can really be written there. An existing file
 * is opened for writing without being truncated or changed; and since every file is written
 * beside its path and renamed over it ({@link writeFileAtomically}), a probe file with a unique
 * name (`.catsim-probe-PID-RANDOM`) is created in the same directory and removed at once, so no
 * existing file is ever touched. (Permission bits alone prove nothing: root passes them for
 * `/proc`, where no file can be created.)
 * @param option the option that named the path (for the message), e.g. `--report`.
 * @throws InputError (exit 2) naming the option, the path and the problem, e.g. `--report
 *   /proc/r.json: cannot write there (cannot create a file in /proc: ENOENT)`.
 */
export function assertWritable(path: string, option: string): void {
  if (path === '') throw new InputError(`${option}: the path is empty`);
  const problem = writeProblem(resolve(path));
  if (problem !== undefined) throw new InputError(`${option} ${path}: cannot write there (${problem})`);
}

/** Why `full` (an absolute path) cannot be written, or undefined when it can. */
function writeProblem(full: string): string | undefined {
  const directory = dirname(full);
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
  if (file?.isFIFO() === true)
    return 'it is a named pipe (FIFO): catsim writes files, and a pipe nobody reads would block it for ever';
  if (file !== undefined) {
    const notWritable = attempt(
      () => closeSync(openSync(full, 'r+')),
      (code) => `the file is not writable: ${code}`,
    );
    // A device (/dev/null) is written in place; a file is replaced by a new one made beside it.
    if (notWritable !== undefined || !file.isFile()) return notWritable;
    return creatable(dirname(realpathSync(full)));
  }
  return creatable(directory);
}

/**
 * Checks that `path` can be used as an output folder (`host-test --out`, `serve --out`) before any
 * work starts: the path is not empty, and either it is a directory a file can be created in, or it
 * does not exist yet and its nearest existing ancestor is a directory a file can be created in
 * (the folder is made there when the reports are written). Nothing is left behind: a probe file is
 * made and removed, and no folder is created. (`mkdirSync(..., { recursive: true })` never returns
 * under `/proc`, so the check must come before any such call.)
 * @param option the option that named the folder (for the message), e.g. `--out`.
 * @throws InputError (exit 2) naming the option, the path and the problem, e.g. `--out
 *   /tmp/r.json: cannot write there (it is not a directory)`.
 */
export function assertWritableDirectory(path: string, option: string): void {
  if (path === '') throw new InputError(`${option}: the path is empty`);
  const full = resolve(path);
  let existing = full;
  let stat = statOrUndefined(existing);
  while (stat === undefined && dirname(existing) !== existing) {
    existing = dirname(existing);
    stat = statOrUndefined(existing);
  }
  const problem =
    stat === undefined
      ? `no part of ${full} exists`
      : !stat.isDirectory()
        ? existing === full
          ? 'it is not a directory'
          : `${existing} is not a directory`
        : creatable(existing);
  if (problem !== undefined) throw new InputError(`${option} ${path}: cannot write there (${problem})`);
}

/** `statSync(path)`, or undefined when it cannot be read (it does not exist, or a part of it is a file). */
function statOrUndefined(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Why no file can be created in `directory`, or undefined when one can (a probe file is made and removed). */
function creatable(directory: string): string | undefined {
  const probe = join(directory, `.catsim-probe-${process.pid}-${randomBytes(6).toString('hex')}`);
  return attempt(
    () => {
      closeSync(openSync(probe, 'wx'));
      unlinkSync(probe);
    },
    (code) => `cannot create a file in ${directory}: ${code}`,
  );
}

/** Runs `action`; undefined when it worked, else `describe(the error's code)`. */
function attempt(action: () => void, describe: (code: string) => string): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    return describe(errorCode(error));
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/** One output file: where it was asked for, and what it is called in messages and in its fallback's name. */
export interface Output {
  /** The path the user gave (`--report FILE`), or the default one. */
  path: string;
  /** What the file holds, for the message, e.g. `report`, `JUnit XML`, `trace`. */
  what: string;
  /**
   * The fallback file's name without the process id and extension, e.g. `catsim-report-SEED`;
   * it is written as `<tmpdir>/<stem>-<pid><extension>`. Characters outside `[A-Za-z0-9._-]`
   * (from a seed) become `_`.
   */
  stem: string;
  /** The fallback file's extension, e.g. `.json`. */
  extension: string;
}

/** Writes `text` to `path` (UTF-8); a seam for tests, which pass one that fails. */
export type FileWriter = (path: string, text: string) => void;

/** The file system calls {@link writeFileAtomically} makes; a seam for tests, which pass one whose write fails half-way. */
export interface AtomicWriteFs {
  writeFileSync(path: string, text: string): void;
  renameSync(from: string, to: string): void;
  unlinkSync(path: string): void;
}

const NODE_FS: AtomicWriteFs = { writeFileSync: (path, text) => writeFileSync(path, text), renameSync, unlinkSync };

/**
 * Writes `text` to `path` (UTF-8) so that `path` holds either its previous content or all of
 * `text`, never a part: the text goes to a temporary file beside it (`.NAME.catsim-PID-RANDOM.tmp`,
 * in the same directory, so the rename cannot cross file systems), which is then renamed over
 * `path`. When the write fails (a full disk: ENOSPC), the temporary file is removed and a previous
 * good file at `path` is left as it was. A symbolic link at `path` is followed (its target is
 * replaced, the link stays), and an existing file keeps its permission bits.
 * @throws the error of the failed write or rename (an `ErrnoException`, e.g. code `ENOSPC`).
 */
export function writeFileAtomically(path: string, text: string, fs: AtomicWriteFs = NODE_FS): void {
  const target = existingTarget(path);
  // A device (`/dev/null`, a terminal) is written in place: renaming over it would replace it.
  if (target.kind === 'device') return fs.writeFileSync(path, text);
  const temporary = join(
    dirname(target.path),
    `.${basename(target.path)}.catsim-${process.pid}-${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    fs.writeFileSync(temporary, text);
    if (target.mode !== undefined) chmodSync(temporary, target.mode);
    fs.renameSync(temporary, target.path);
  } catch (error) {
    try {
      fs.unlinkSync(temporary);
    } catch {
      // Nothing was created (the disk was full before the first byte) or it is gone already.
    }
    throw error;
  }
}

/**
 * What a write to `path` replaces: a new file; an existing regular file (the target of a symbolic
 * link, with its permission bits); or something that is not a regular file (a device).
 */
function existingTarget(path: string): { kind: 'new' | 'file' | 'device'; path: string; mode?: number } {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return { kind: 'new', path };
  }
  if (!stat.isFile()) return { kind: 'device', path };
  return { kind: 'file', path: realpathSync(path), mode: stat.mode & 0o7777 };
}

/**
 * The file calls of a black-box report folder (`blackbox/reports.ts` `ReportFolder`) on Node's
 * file system: folders made with their parents, files written whole or not at all
 * ({@link writeFileAtomically}), UTF-8 reads.
 */
export const REPORT_FILES = {
  mkdirSync: (path: string): void => void mkdirSync(path, { recursive: true }),
  writeFileAtomically: (path: string, text: string): void => writeFileAtomically(path, text),
  readFileSync: (path: string): string => readFileSync(path, 'utf8'),
};

const writeText: FileWriter = (path, text) => writeFileAtomically(path, text);

/**
 * Writes one output file and returns true. When that fails, writes the text to the fallback file
 * (see {@link Output.stem}), prints one line to stderr naming both, e.g. `catsim: could not write
 * the report to /x/r.json (EACCES); wrote it to /tmp/catsim-report-1-4242.json`, and returns
 * false; when the fallback fails too, the line says the text is lost and why. The command then
 * exits 2 ({@link exitAfterWrites}).
 * @param write the function that writes a file (tests inject a failing one).
 */
export function writeOutput(output: Output, text: string, write: FileWriter = writeText): boolean {
  return writeOutputTo(output, text, write) === output.path;
}

/**
 * {@link writeOutput}, returning where the text is now: `output.path`, the fallback path, or
 * null when both writes failed.
 */
export function writeOutputTo(output: Output, text: string, write: FileWriter = writeText): string | null {
  try {
    write(output.path, text);
    return output.path;
  } catch (error) {
    const fallback = fallbackPath(output);
    const failed = `catsim: could not write the ${output.what} to ${output.path} (${errorCode(error)})`;
    try {
      write(fallback, text);
      process.stderr.write(`${failed}; wrote it to ${fallback}\n`);
      return fallback;
    } catch (again) {
      process.stderr.write(`${failed}, nor to ${fallback} (${errorCode(again)}): it is lost\n`);
      return null;
    }
  }
}

/** `<tmpdir>/<stem>-<pid><extension>`, the stem reduced to characters safe in a file name. */
export function fallbackPath(output: Pick<Output, 'stem' | 'extension'>): string {
  return join(tmpdir(), `${output.stem.replace(/[^\w.-]/g, '_')}-${process.pid}${output.extension}`);
}

/**
 * The exit code once the outputs were written: `code` when all of them are where they were asked
 * for, else 2 (an output could not be written: an input problem, not a testbed failure), unless
 * `code` is already worse (3, a testbed failure).
 */
export function exitAfterWrites(code: number, allWritten: boolean): number {
  return allWritten ? code : Math.max(code, 2);
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
    if (other !== undefined)
      throw new InputError(`${other} and ${option} name the same file ${path}: one would overwrite the other`);
    seen.set(full, option);
  }
}

/**
 * Checks that no output option names one of the command's input files (`--report` on the
 * `--scenario` file, `--trace` on the `--plan` file): the write would destroy the input. Two
 * paths name the same file when they resolve to the same absolute path, or when both exist and
 * are one file (a symbolic or hard link: same device and inode).
 * @param outputs `[option, path]` pairs; undefined paths are skipped.
 * @param inputs `[option, path]` pairs of the files read; undefined paths are skipped.
 * @throws InputError (exit 2), e.g. `--report s.json names the --scenario file: writing it would destroy the input`.
 */
export function assertNotInputs(
  outputs: readonly (readonly [option: string, path: string | undefined])[],
  inputs: readonly (readonly [option: string, path: string | undefined])[],
): void {
  for (const [option, path] of outputs) {
    if (path === undefined) continue;
    const input = inputs.find(([, other]) => other !== undefined && sameFile(path, other));
    if (input !== undefined)
      throw new InputError(`${option} ${path} names the ${input[0]} file: writing it would destroy the input`);
  }
}

/** Whether `a` and `b` name one file: the same absolute path, or (both existing) the same device and inode. */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/**
 * Locks the given output paths for as long as a command writes them, so that two commands
 * started on one `--report` (two campaigns, or a campaign and a `merge`: one would silently
 * replace the other's report) are told apart: the second is refused before any round or merge. A lock is the file `PATH.catsim-lock` beside the output,
 * created exclusively and holding the process id; a lock whose process is gone (a crash, a
 * SIGKILL) is taken over. A device (`/dev/null`) is not locked. Call after {@link assertWritable}
 * (its directory is writable).
 * @param outputs `[option, path]` pairs; undefined paths are skipped.
 * @returns the function that removes the locks this process holds.
 * @throws InputError (exit 2) naming the option, the path and the other process.
 */
export function lockOutputs(outputs: readonly (readonly [option: string, path: string | undefined])[]): () => void {
  const held: string[] = [];
  const release = (): void => {
    for (const lock of held) {
      try {
        if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
      } catch {
        // Gone already: nothing to release.
      }
    }
  };
  try {
    for (const [option, path] of outputs) {
      // A device (`/dev/null`) is written in place by every writer: nothing to lose, nothing to lock.
      if (path === undefined || existingTarget(path).kind === 'device') continue;
      const lock = `${resolve(path)}.catsim-lock`;
      takeLock(lock, option, path);
      held.push(lock);
    }
  } catch (error) {
    release();
    throw error;
  }
  return release;
}

/** Creates `lock` holding this process id, or takes it over from a process that is gone. */
function takeLock(lock: string, option: string, path: string, what: 'file' | 'folder' = 'file'): void {
  try {
    writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new InputError(`${option} ${path}: cannot lock it (${errorCode(error)})`);
  }
  const holder = Number.parseInt(readFileSync(lock, 'utf8'), 10);
  if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
    throw new InputError(
      `${option} ${path} is being written by another catsim (process ${holder}): a second writer on the same ${what} would replace what the first writes; wait for it, or choose another path (lock: ${lock})`,
    );
  }
  writeFileSync(lock, `${process.pid}\n`);
}

/** Whether a process with this id exists (EPERM: it exists, owned by someone else). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Locks a report folder (`host-test --out`, `serve --out`) for as long as a command writes into it,
 * so that two commands started on one folder at once (whose `index.json`, `summary.md` and
 * `junit.xml` would each replace the other's) are told apart: the second is refused before any
 * case runs. The folder is made (with its parents) if it does not exist; the lock is the file
 * `DIR/.catsim-lock`, created exclusively and holding the process id, and a lock whose process is
 * gone (a crash, a SIGKILL) is taken over. Call after {@link assertWritableDirectory}.
 * @param option the option that named the folder (for the message), e.g. `--out`.
 * @returns the function that removes the lock (only while this process holds it).
 * @throws InputError (exit 2) naming the option, the folder and the other process.
 */
export function lockFolder(option: string, dir: string): () => void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new InputError(`${option} ${dir}: cannot write there (${errorCode(error)})`);
  }
  const lock = join(resolve(dir), '.catsim-lock');
  takeLock(lock, option, dir, 'folder');
  return () => {
    try {
      if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
    } catch {
      // Gone already: nothing to release.
    }
  };
}
