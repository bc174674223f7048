/**
 * SPEC section 11: the oracle imports nothing from `src/` or `sim/`. This test reads every .ts
 * file under oracle/ and resolves each module specifier (static import and export-from, side-effect
 * import, dynamic import, require) the way Node would locate it on disk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ORACLE_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(ORACLE_DIR, '..');
const FORBIDDEN_ROOTS = ['src', 'sim'];

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

function isForbidden(repoPath: string | null): boolean {
  if (repoPath === null) return false;
  const first = repoPath.split(/[\\/]/)[0];
  return first !== undefined && FORBIDDEN_ROOTS.includes(first);
}

/** The specifiers in `source` (a file in `fileDir`) that reach into src/ or sim/. */
function offendingSpecifiers(source: string, fileDir: string): string[] {
  return specifiersIn(source).filter((specifier) => isForbidden(repoPathOf(specifier, fileDir)));
}

function typeScriptFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptFilesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('oracle independence', () => {
  it('no file under oracle/ imports from src/ or sim/', () => {
    const files = typeScriptFilesUnder(ORACLE_DIR);
    expect(files.length).toBeGreaterThan(10);
    const offences = files.flatMap((file) =>
      offendingSpecifiers(readFileSync(file, 'utf8'), dirname(file)).map((spec) => `${relative(REPO_ROOT, file)}: ${spec}`));
    expect(offences).toEqual([]);
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
