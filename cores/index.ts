/**
 * Resolves a `--core` argument to a core factory: a built-in core (`reference`, `mutant:NAME`,
 * `peer:NAME`) or a user's module (`./my-core.ts`, cores/module-core.ts). The peers that are
 * real client libraries are imported on demand, like modules, because importing them costs every
 * process and worker seconds and megabytes.
 *
 * Workflow: `loadCore(name)` once per thread before the first round (it imports a library peer,
 * or imports and probes a module; the other built-in cores need nothing); then
 * `resolveCore(name)` anywhere, synchronously.
 */
import type { CoreFactory } from '../sim/guard/adapter.ts';
import { isCoreModulePath, loadCoreModule } from './module-core.ts';
import { referenceCore } from './reference.ts';
import { MUTANTS } from './mutants/index.ts';
import { LIBRARY_PEER_NAMES, loadLibraryPeer, PEERS } from './peers/index.ts';

/** A `--core` value that names no known core. */
export class UnknownCoreError extends Error {
  override readonly name = 'UnknownCoreError';
}

/** Cores imported on this thread (core modules and library peers), by the `--core` value that named them. */
const LOADED = new Map<string, CoreFactory>();

/** Every built-in `--core` value (a path to a core module is accepted too). */
export function coreNames(): string[] {
  return [
    'reference',
    ...MUTANTS.map((mutant) => `mutant:${mutant.name}`),
    ...[...Object.keys(PEERS), ...LIBRARY_PEER_NAMES].map((name) => `peer:${name}`),
  ];
}

/**
 * Loads the core `name` names on this thread and returns its factory: a built-in core at once, a
 * library peer by importing its module, a core module by importing and probe-building it (once
 * per thread; later calls reuse it).
 * @throws UnknownCoreError for an unknown built-in name; CoreModuleError for an unusable module (both exit 2).
 */
export async function loadCore(name: string): Promise<CoreFactory> {
  const known = LOADED.get(name);
  if (known !== undefined) return known;
  if (isCoreModulePath(name)) {
    const definition = await loadCoreModule(name);
    LOADED.set(name, definition.create);
    return definition.create;
  }
  const library = name.startsWith('peer:') ? await loadLibraryPeer(name.slice('peer:'.length)) : undefined;
  if (library !== undefined) LOADED.set(name, library);
  return resolveCore(name);
}

/**
 * The factory for a core name; a module or a library peer must have been loaded on this thread by
 * {@link loadCore}.
 * @throws UnknownCoreError listing the accepted names; Error for a module or library peer not loaded yet (a caller's bug).
 */
export function resolveCore(name: string): CoreFactory {
  const loaded = LOADED.get(name);
  if (loaded !== undefined) return loaded;
  if (isCoreModulePath(name))
    throw new Error(`core module ${name} was not loaded on this thread (call loadCore first)`);
  if (name === 'reference') return referenceCore();
  const mutant = name.startsWith('mutant:')
    ? MUTANTS.find((candidate) => `mutant:${candidate.name}` === name)
    : undefined;
  if (mutant !== undefined) return mutant.core;
  const peer = name.startsWith('peer:') ? PEERS[name.slice('peer:'.length)] : undefined;
  if (peer !== undefined) return peer;
  if (name.startsWith('peer:') && LIBRARY_PEER_NAMES.includes(name.slice('peer:'.length)))
    throw new Error(`${name} is imported on demand: call loadCore("${name}") first`);
  throw new UnknownCoreError(
    `unknown core "${name}"; expected one of: ${coreNames().join(', ')}, or a path to a core module (./my-core.ts)`,
  );
}
