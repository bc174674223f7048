// Types of bin/build-state.mjs, for the tests and benchmarks that ask whether dist/ is fresh.

/** The package root: the directory above bin/. */
export const PACKAGE_ROOT: string;
/** Where the build writes its record of the sources it compiled (dist/build-state.json). */
export const BUILD_STATE_PATH: string;
/** The `schema` field of dist/build-state.json. */
export const BUILD_STATE_SCHEMA: 'catsim.build-state.v1';
/** SHA-256 (hex) of the file at `path` relative to `root` (default: the package root). @throws ENOENT when it is missing. */
export function fileDigest(path: string, root?: string): string;
/**
 * Whether `root`/dist/ (default: the package root's) was built from the sources as they are now,
 * by dist/build-state.json; `why` says why not, in a few words.
 */
export function buildState(root?: string): { fresh: true } | { fresh: false; why: string };
