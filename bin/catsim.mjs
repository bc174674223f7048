#!/usr/bin/env node
// Entry point. Runs the compiled CLI in dist/ (built by `npm run build`, which `npm ci` runs as
// `prepare`) when it was built from the sources as they are now: it starts in a fraction of the
// time tsx needs to transpile the sources. Otherwise (no build, or a source edited since) it runs
// the TypeScript sources through tsx and says so in one line on stderr, so an edit is never
// silently ignored by an old build. CATSIM_RUN_FROM chooses instead of checking:
//   dist    the build, or exit 3 with one line when it is missing or stale (what CI checks);
//   source  the sources through tsx, without a note (the tests run the code they test).
import { buildState } from './build-state.mjs';

const from = process.env.CATSIM_RUN_FROM ?? '';
if (!['', 'dist', 'source'].includes(from)) {
  process.stderr.write(`catsim: CATSIM_RUN_FROM must be dist or source (or unset), got ${from}\n`);
  process.exit(2);
}
const built = from === 'source' ? { main: undefined, why: '' } : await loadBuilt();
let main = built.main;
if (main === undefined && from === 'dist') {
  process.stderr.write(`catsim: CATSIM_RUN_FROM=dist, but ${built.why} (run npm run build)\n`);
  process.exit(3);
}
if (main === undefined) {
  if (from === '')
    process.stderr.write(
      `catsim: running the TypeScript sources through tsx (slower start): ${built.why}; npm run build compiles them\n`,
    );
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));

/** `{ main }` of dist/cli/main.js when dist/ is fresh, else `{ main: undefined, why }`. */
async function loadBuilt() {
  const state = buildState();
  if (!state.fresh) return { main: undefined, why: state.why };
  try {
    return { main: (await import('../dist/cli/main.js')).main };
  } catch (error) {
    // A compiled module deleted by hand: the record still matches the sources, dist/ does not.
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return { main: undefined, why: 'a compiled module is missing from dist/' };
  }
}
