/**
 * Cores from a user's module: `--core ./my-core.ts` (or `.mts`, `.cts`, `.mjs`, `.cjs`, `.js`).
 *
 * The export contract (docs/CORE-API.md): the module's default export is a `catsim.core.v1` core,
 * written `export default defineCore({ name, create })` with `defineCore` from `catsim`; a plain
 * `{ name, create }` object or a bare factory function `(env) => core` is accepted too. The module
 * is imported by absolute file URL, so every worker thread loads the same file; TypeScript loads
 * through tsx (registered on the thread when it is not already).
 *
 * Everything that can be wrong with the module is found before any round runs and is one line
 * naming the file (`CoreModuleError`, exit 2): the file is missing, it fails to load (a syntax
 * error, a failing import, a throw at top level), it exports nothing usable, or building the core
 * once with a probe environment throws or yields no core. What goes wrong later, inside a round,
 * is the core's failure in that round (guard.ts), not the module's.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORE_API, type CoreDefinition, type CoreEnvironment } from '../sim/guard/adapter.ts';
import { errorText, missingMethods, readMembers } from '../sim/guard/guard.ts';

/** A core module that cannot be used: one line naming the file (exit 2). */
export class CoreModuleError extends Error {
  override readonly name = 'CoreModuleError';
}

/** File name endings of modules `--core` loads. */
const MODULE_EXTENSIONS = /\.(?:[cm]?ts|[cm]?js)$/;
const TYPESCRIPT = /\.[cm]?ts$/;

/**
 * Whether a `--core` value names a module file rather than a built-in core (`reference`,
 * `mutant:NAME`, `peer:NAME`): it ends in a module extension, starts with `./` or `../`, or is an
 * absolute path.
 */
export function isCoreModulePath(spec: string): boolean {
  return MODULE_EXTENSIONS.test(spec) || spec.startsWith('./') || spec.startsWith('../') || isAbsolute(spec);
}

/**
 * Imports a core module and builds its core once with a probe environment.
 * @param spec the `--core` value as given, resolved against the working directory.
 * @throws CoreModuleError `--core SPEC: PROBLEM` for every way the module can be unusable.
 */
export async function loadCoreModule(spec: string): Promise<CoreDefinition> {
  const path = resolve(spec);
  if (!existsSync(path)) throw new CoreModuleError(`--core ${spec}: no such file (${path})`);
  if (!statSync(path).isFile()) throw new CoreModuleError(`--core ${spec}: not a file (${path})`);
  if (TYPESCRIPT.test(path)) await ensureTypeScriptLoader();
  let exported: Record<string, unknown>;
  try {
    exported = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof Error && error.message.includes('Cannot require() ES Module')) {
      // tsx compiles a .ts file of a CommonJS package to CommonJS, and Node then refuses its ES imports.
      throw new CoreModuleError(
        `--core ${spec}: cannot be loaded: it is an ES module in a CommonJS package; add "type": "module" to the nearest package.json, or name the file .mts`,
      );
    }
    throw new CoreModuleError(`--core ${spec}: cannot be loaded: ${loadErrorText(error)}`);
  }
  const definition = coreDefinitionOf(exported, path);
  if (typeof definition === 'string') throw new CoreModuleError(`--core ${spec}: ${definition}`);
  probeBuild(spec, definition);
  return definition;
}

/**
 * The core definition a module exports, or a sentence saying why there is none. Accepts a
 * `defineCore` value, a `{ name, create }` object, or a factory function as the default export.
 */
export function coreDefinitionOf(exported: Record<string, unknown>, path: string): CoreDefinition | string {
  const value = exported.default;
  const fallbackName = basename(path).replace(MODULE_EXTENSIONS, '');
  if (typeof value === 'function')
    return { api: CORE_API, name: fallbackName, create: value as CoreDefinition['create'] };
  const candidate = value as Partial<Record<keyof CoreDefinition, unknown>> | null | undefined;
  if (typeof candidate === 'object' && candidate !== null && typeof candidate.create === 'function') {
    if (candidate.api !== undefined && candidate.api !== CORE_API)
      return `exports a core for API ${JSON.stringify(candidate.api)}; this catsim runs ${CORE_API}`;
    const name = typeof candidate.name === 'string' && candidate.name.length > 0 ? candidate.name : fallbackName;
    return { api: CORE_API, name, create: candidate.create as CoreDefinition['create'] };
  }
  const named = Object.keys(exported).filter((key) => key !== 'default');
  const found = value === undefined ? 'no default export' : `a default export that is not a core (${typeof value})`;
  return `exports no core: expected "export default defineCore({ name, create })" (defineCore from 'catsim'), found ${found}${named.length > 0 ? `; named exports: ${named.join(', ')}` : ''}`;
}

/**
 * Builds the core once with an inert environment (time stands at 0, nothing scheduled runs,
 * observations are dropped), so that a factory that throws is refused before any round runs.
 * @throws CoreModuleError when `create` throws or returns no core.
 */
export function probeBuild(spec: string, definition: CoreDefinition): void {
  let core: unknown;
  try {
    core = definition.create(probeEnvironment());
  } catch (error) {
    throw new CoreModuleError(`--core ${spec}: core "${definition.name}" threw while being built: ${errorText(error)}`);
  }
  let missing: string | null;
  try {
    missing = missingMethods(readMembers(core));
  } catch (error) {
    throw new CoreModuleError(
      `--core ${spec}: core "${definition.name}" threw while its methods were read: ${errorText(error)}`,
    );
  }
  if (missing !== null) throw new CoreModuleError(`--core ${spec}: core "${definition.name}": ${missing}`);
}

/** Plausible values of the default scenario; the probe only checks that the core can be built. */
function probeEnvironment(): CoreEnvironment {
  return {
    clock: { now: () => 0 },
    scheduler: { after: () => ({ id: 0 }), cancel: () => undefined },
    random: { next: () => 0.5 },
    sink: { emit: () => undefined },
    bounds: {
      pageCountMax: 64,
      byteCountMax: 1_048_576,
      scanTimeoutMs: 5_000,
      latencyMsMax: 40,
      tHealMs: 4_000,
      tEndMs: 16_000,
      generationTtlMs: 30_000,
      retryBackoffMsMax: 2_000,
      revocationBoundMs: 1_000,
      toolCountMax: 10_000,
      catalogBytesMax: 8_388_608,
    },
    timings: { refreshIntervalMs: 1_000, retryBackoffMsBase: 100, retryBackoffMsMax: 2_000, listChangedDelayMs: 50 },
    policySource: { poll: (audience) => Promise.resolve({ audience, epoch: 1, grants: [] }) },
    policyPollMs: 1_000,
    leaseKey: 'probe',
    effectClasses: {},
    confirmations: { verify: () => false },
  };
}

let typeScriptLoader: Promise<void> | undefined;

/**
 * Makes `import()` of TypeScript work on this thread. When this file itself runs as TypeScript,
 * tsx is already registered (bin/catsim.mjs, worker-entry.mjs); compiled, it registers tsx's
 * loader once, globally, so that the user's module and catsim share one copy of every package.
 */
function ensureTypeScriptLoader(): Promise<void> {
  if (import.meta.url.endsWith('.ts')) return Promise.resolve();
  typeScriptLoader ??= import('tsx/esm/api').then((tsx) => {
    tsx.register();
  });
  return typeScriptLoader;
}

/**
 * A load error as one line: esbuild's "Transform failed with 1 error:" is followed by the line
 * that says where and what, which is the one kept.
 */
function loadErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const detail = lines.find((line) => line.includes('ERROR:')) ?? lines[0] ?? '';
  const name = error instanceof Error ? error.name : 'Error';
  return errorText(Object.assign(new Error(detail), { name }));
}
