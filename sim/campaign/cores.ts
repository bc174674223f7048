/**
 * Resolves a `--core` argument to a core factory: a built-in core (`reference`, `mutant:NAME`,
 * `peer:NAME`) or a user's module (`./my-core.ts`, sim/cores/module-core.ts).
 *
 * Workflow: `loadCore(name)` once per thread before the first round (it imports and probes a
 * module; built-in cores need nothing); then `resolveCore(name)` anywhere, synchronously.
 */
import type { CoreFactory } from '../cores/adapter.ts';
import { isCoreModulePath, loadCoreModule } from '../cores/module-core.ts';
import { referenceCore } from '../cores/reference.ts';
import { MUTANTS } from '../mutants/index.ts';
import { PEERS } from '../peers/index.ts';

/** A `--core` value that names no known core. */
export class UnknownCoreError extends Error {
  override readonly name = 'UnknownCoreError';
}

/** Core modules loaded on this thread, by the `--core` value that named them. */
const LOADED_MODULES = new Map<string, CoreFactory>();

/** Every built-in `--core` value (a path to a core module is accepted too). */
export function coreNames(): string[] {
  return ['reference', ...MUTANTS.map((mutant) => `mutant:${mutant.name}`), ...Object.keys(PEERS).map((name) => `peer:${name}`)];
}

/**
 * Loads the core `name` names on this thread and returns its factory: a built-in core at once, a
 * module by importing and probe-building it (once per thread; later calls reuse it).
 * @throws UnknownCoreError for an unknown built-in name; CoreModuleError for an unusable module (both exit 2).
 */
export async function loadCore(name: string): Promise<CoreFactory> {
  if (!isCoreModulePath(name)) return resolveCore(name);
  let factory = LOADED_MODULES.get(name);
  if (factory === undefined) {
    const definition = await loadCoreModule(name);
    factory = definition.create;
    LOADED_MODULES.set(name, factory);
  }
  return factory;
}

/**
 * The factory for a core name; a module must have been loaded on this thread by {@link loadCore}.
 * @throws UnknownCoreError listing the accepted names; Error for a module not loaded yet (a bug).
 */
export function resolveCore(name: string): CoreFactory {
  if (isCoreModulePath(name)) {
    const factory = LOADED_MODULES.get(name);
    if (factory === undefined) throw new Error(`core module ${name} was not loaded on this thread (call loadCore first)`);
    return factory;
  }
  if (name === 'reference') return referenceCore();
  const mutant = name.startsWith('mutant:') ? MUTANTS.find((candidate) => `mutant:${candidate.name}` === name) : undefined;
  if (mutant !== undefined) return mutant.core;
  const peer = name.startsWith('peer:') ? PEERS[name.slice('peer:'.length)] : undefined;
  if (peer !== undefined) return peer;
  throw new UnknownCoreError(`unknown core "${name}"; expected one of: ${coreNames().join(', ')}, or a path to a core module (./my-core.ts)`);
}
