/**
 * SPEC section 11: the oracle imports nothing from `src/`, `sim/`, `cores/` or `runner/` (the code
 * under test, the world, the cores and what composes them); it may import the trace
 * contract (`contract/`), the neutral definition of `catsim.trace.v1` that writers and readers
 * share. The contract itself imports nothing from `src/`, `sim/`, `cores/`, `runner/`, `oracle/` or `cli/`, so sharing
 * it cannot carry code under test into the oracle. This test reads every .ts file under oracle/
 * and contract/ and resolves each module specifier (static import and export-from, side-effect
 * import, dynamic import, require) the way Node would locate it on disk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ORACLE_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(ORACLE_DIR, '..');
const CONTRACT_DIR = join(REPO_ROOT, 'contract');
/** Top-level folders each module may not import from. */
const ORACLE_FORBIDDEN = ['src', 'sim', 'cores', 'runner'];
const CONTRACT_FORBIDDEN = ['src', 'sim', 'cores', 'runner', 'oracle', 'cli'];

/** Patterns whose first group is a module specifier. */
const SPECIFIER_PATTERNS: readonly RegExp[] = [
  /\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function specifiersIn(source: string): string[] {
  return SPECIFIER_PATTERNS.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1] ?? ''));
}

/** Where a specifier lands relative to the repo root, or null for a package or builtin. */
function repoPathOf(specifier: string, fileDir: string): string | null {
  if (specifier.startsWith('file:')) return relative(REPO_ROOT, fileURLToPath(specifier));
  if (specifier.startsWith('.') || isAbsolute(specifier)) return relative(REPO_ROOT, resolve(fileDir, specifier));
  return specifier;
}

function isForbidden(repoPath: string | null, forbidden: readonly string[]): boolean {
  if (repoPath === null) return false;
  const first = repoPath.split(/[\\/]/)[0];
  return first !== undefined && forbidden.includes(first);
}

/** The specifiers in `source` (a file in `fileDir`) that reach into a forbidden top-level folder. */
function offendingSpecifiers(
  source: string,
  fileDir: string,
  forbidden: readonly string[] = ORACLE_FORBIDDEN,
): string[] {
  return specifiersIn(source).filter((specifier) => isForbidden(repoPathOf(specifier, fileDir), forbidden));
}

/** `file: specifier` for every forbidden import of the .ts files under `dir`. */
function offencesUnder(dir: string, forbidden: readonly string[]): string[] {
  return typeScriptFilesUnder(dir).flatMap((file) =>
    offendingSpecifiers(readFileSync(file, 'utf8'), dirname(file), forbidden).map(
      (spec) => `${relative(REPO_ROOT, file)}: ${spec}`,
    ),
  );
}

function typeScriptFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptFilesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('oracle independence', () => {
  it('no file under oracle/ imports from src/, sim/, cores/ or runner/', () => {
    expect(typeScriptFilesUnder(ORACLE_DIR).length).toBeGreaterThan(10);
    expect(offencesUnder(ORACLE_DIR, ORACLE_FORBIDDEN)).toEqual([]);
  });

  it('no file under contract/ imports from src/, sim/, cores/, runner/, oracle/ or cli/', () => {
    expect(typeScriptFilesUnder(CONTRACT_DIR).length).toBeGreaterThan(5);
    expect(offencesUnder(CONTRACT_DIR, CONTRACT_FORBIDDEN)).toEqual([]);
  });

  it('lets the oracle import the contract, and refuses the contract an import of the oracle or the cli', () => {
    const source = [
      `import { x } from '../contract/trace/types.ts';`,
      `import '../oracle/trace.ts';`,
      `import '../cli/main.ts';`,
    ].join('\n');
    expect(offendingSpecifiers(source, ORACLE_DIR)).toEqual([]);
    expect(offendingSpecifiers(source, CONTRACT_DIR, CONTRACT_FORBIDDEN)).toEqual([
      '../oracle/trace.ts',
      '../cli/main.ts',
    ]);
  });

  it('flags synthetic offending lines, so the check can fail', () => {
    const up = ['..', 'src', 'registry', 'registry.ts'].join('/');
    const sim = ['sim', 'world.ts'].join('/');
    const source = [
      `import { publish } from '${up}';`,
      `export * from "${['.', '..', 'sim', 'trace.ts'].join('/')}";`,
      `import '${up}';`,
      `const m = await import('${sim}');`,
      `const r = require("${sim}");`,
      `import type { X } from '${resolve(REPO_ROOT, 'src', 'x.ts')}';`,
      `import {\n  a,\n} from '${up}';`,
    ].join('\n');
    expect(offendingSpecifiers(source, ORACLE_DIR)).toHaveLength(7);
  });

  it('lets builtins, packages and oracle-internal paths through', () => {
    const ok = ['node:crypto', 'vitest', './trace.ts', '../oracle/check.ts', './src/x.ts', 'simple-lib'];
    const source = ok.map((spec) => `import x from '${spec}';`).join('\n');
    expect(offendingSpecifiers(source, ORACLE_DIR)).toEqual([]);
  });
});
