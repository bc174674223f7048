#!/usr/bin/env node
// `npm run build` (and `prepare`, which `npm ci` and `npm install` run): compiles the TypeScript
// sources to dist/ with tsc (tsconfig.build.json: rewriteRelativeImportExtensions turns the
// sources' `./x.ts` imports into `./x.js`) and records in dist/build-state.json every project
// file tsc read with its SHA-256, so bin/catsim.mjs runs dist/ only while it matches the sources.
// dist/ is removed first: a deleted source must not leave its old compiled module behind. When
// dist/ already matches the sources it is left alone (`--force` rebuilds anyway): `npm pack` runs
// `prepare` too, and a CLI running from dist/ meanwhile (a test, a campaign) must not lose it.
// Without typescript (an install without devDependencies) it builds nothing and says so:
// bin/catsim.mjs then runs the sources through tsx, which is a dependency.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, sep } from 'node:path';
import { BUILD_STATE_PATH, BUILD_STATE_SCHEMA, PACKAGE_ROOT, buildState, fileDigest } from '../bin/build-state.mjs';

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  process.stderr.write(
    'catsim build: typescript is not installed (no devDependencies?): dist/ not built; catsim will run its sources through tsx\n',
  );
  process.exit(0);
}
if (!process.argv.includes('--force') && buildState().fresh) {
  process.stderr.write('catsim build: dist/ is up to date with the sources (npm run build -- --force rebuilds it)\n');
  process.exit(0);
}
rmSync(join(PACKAGE_ROOT, 'dist'), { recursive: true, force: true });
const before = projectFiles(tsc, ['--listFilesOnly']);
const digests = Object.fromEntries(before.map((path) => [path, fileDigest(path)]));
// Everything the build says goes to stderr: `npm pack --json` runs `prepare`, and its stdout must
// stay the JSON.
const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
  cwd: PACKAGE_ROOT,
  stdio: ['ignore', 2, 2],
});
if (built.status !== 0) {
  rmSync(join(PACKAGE_ROOT, 'dist'), { recursive: true, force: true });
  process.stderr.write(`catsim build: tsc failed (exit ${built.status ?? built.signal}); dist/ removed\n`);
  process.exit(1);
}
writeFileSync(BUILD_STATE_PATH, `${JSON.stringify({ schema: BUILD_STATE_SCHEMA, files: digests }, null, 2)}\n`);
process.stderr.write(`catsim build: ${before.length} files compiled to dist/\n`);

/**
 * The project's own files in tsc's program for tsconfig.build.json and the config files
 * themselves, relative to the package root in tsc's order: no declaration files, nothing under
 * node_modules.
 */
function projectFiles(tscPath, flags) {
  const listed = spawnSync(process.execPath, [tscPath, '-p', 'tsconfig.build.json', ...flags], {
    cwd: PACKAGE_ROOT,
    encoding: 'utf8',
  });
  if (listed.status !== 0) {
    process.stderr.write(listed.stdout + listed.stderr);
    process.stderr.write('catsim build: tsc could not list the sources\n');
    process.exit(1);
  }
  const files = listed.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => relative(PACKAGE_ROOT, line))
    .filter(
      (path) =>
        !path.startsWith('..') &&
        !isAbsolute(path) &&
        !path.split(sep).includes('node_modules') &&
        !path.endsWith('.d.ts'),
    );
  return ['tsconfig.json', 'tsconfig.build.json', ...files];
}
