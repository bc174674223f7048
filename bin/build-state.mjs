// Whether dist/ (the compiled CLI, `npm run build`) was built from the TypeScript sources as they
// are now. The build writes dist/build-state.json: every project file tsc read (paths relative to
// the package root) with the SHA-256 of its content. Checking hashes those files again (about 140
// files, 0.7 MB: a few milliseconds), so an edited, deleted or checked-out file is seen whatever
// its timestamps say, and a stale build never runs silently. A new file only matters once a
// compiled file imports it, and that file has then changed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the directory above bin/. */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the build writes its record of the sources it compiled. */
export const BUILD_STATE_PATH = join(PACKAGE_ROOT, 'dist', 'build-state.json');
/** The `schema` field of dist/build-state.json. */
export const BUILD_STATE_SCHEMA = 'catsim.build-state.v1';

/** SHA-256 (hex) of the file at `path` relative to `root` (the package root). @throws ENOENT when it is missing. */
export function fileDigest(path, root = PACKAGE_ROOT) {
  return createHash('sha256')
    .update(readFileSync(join(root, path)))
    .digest('hex');
}

/**
 * `{ fresh: true }` when `root`/dist/ (the package root's by default) was built from the sources
 * as they are now, else `{ fresh: false, why }`, `why` a few words for a one-line note, e.g.
 * `cli/main.ts changed since dist/ was built`.
 */
export function buildState(root = PACKAGE_ROOT) {
  let state;
  try {
    state = JSON.parse(readFileSync(join(root, 'dist', 'build-state.json'), 'utf8'));
  } catch {
    return { fresh: false, why: 'there is no compiled CLI in dist/' };
  }
  if (state?.schema !== BUILD_STATE_SCHEMA || typeof state.files !== 'object' || state.files === null) {
    return { fresh: false, why: 'dist/build-state.json is not a catsim build record' };
  }
  for (const [path, digest] of Object.entries(state.files)) {
    let now;
    try {
      now = fileDigest(path, root);
    } catch {
      return { fresh: false, why: `${path} was deleted or moved since dist/ was built` };
    }
    if (now !== digest) return { fresh: false, why: `${path} changed since dist/ was built` };
  }
  return { fresh: true };
}
