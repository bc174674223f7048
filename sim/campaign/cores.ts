/**
 * Resolves a `--core` argument (`reference`, `mutant:NAME`, `peer:NAME`) to a core factory. The
 * peers that are real client libraries are imported on demand: `loadCore` loads them, and
 * `resolveCore` returns them once loaded.
 */
import type { CoreFactory } from '../cores/adapter.ts';
import { referenceCore } from '../cores/reference.ts';
import { MUTANTS } from '../mutants/index.ts';
import { LIBRARY_PEER_NAMES, loadLibraryPeer, PEERS } from '../peers/index.ts';

/** A `--core` value that names no known core. */
export class UnknownCoreError extends Error {
  override readonly name = 'UnknownCoreError';
}

/** Library peers loaded so far, by core name. */
const loaded = new Map<string, CoreFactory>();

/** Every accepted `--core` value. */
export function coreNames(): string[] {
  return ['reference', ...MUTANTS.map((mutant) => `mutant:${mutant.name}`), ...[...Object.keys(PEERS), ...LIBRARY_PEER_NAMES].map((name) => `peer:${name}`)];
}

/**
 * The factory for a core name.
 * @throws UnknownCoreError listing the accepted names; Error for a library peer that `loadCore`
 *   has not loaded yet (a caller's bug).
 */
export function resolveCore(name: string): CoreFactory {
  if (name === 'reference') return referenceCore();
  const mutant = name.startsWith('mutant:') ? MUTANTS.find((candidate) => `mutant:${candidate.name}` === name) : undefined;
  if (mutant !== undefined) return mutant.core;
  const peer = name.startsWith('peer:') ? PEERS[name.slice('peer:'.length)] : undefined;
  if (peer !== undefined) return peer;
  const library = loaded.get(name);
  if (library !== undefined) return library;
  if (name.startsWith('peer:') && LIBRARY_PEER_NAMES.includes(name.slice('peer:'.length))) throw new Error(`${name} is imported on demand: call loadCore("${name}") first`);
  throw new UnknownCoreError(`unknown core "${name}"; expected one of: ${coreNames().join(', ')}`);
}

/**
 * The factory for a core name, importing a library peer's module first if it is one.
 * @throws UnknownCoreError listing the accepted names.
 */
export async function loadCore(name: string): Promise<CoreFactory> {
  const library = name.startsWith('peer:') ? await loadLibraryPeer(name.slice('peer:'.length)) : undefined;
  if (library !== undefined) loaded.set(name, library);
  return resolveCore(name);
}
