/**
 * Finds a file shipped with catsim from wherever this module runs: the sources (`blackbox/`) or
 * the compiled copy (`dist/blackbox/`), which has no copy of the data files or the shim.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The first `relative` found in this module's folder or above it. @throws Error when none exists (a broken install). */
export function packagePath(relative: string): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`catsim is installed without ${relative}`);
  }
}
