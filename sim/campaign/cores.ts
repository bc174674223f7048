/**
 * Resolves a `--core` argument (`reference`, `mutant:NAME`, `peer:NAME`) to a core factory.
 */
import type { CoreFactory } from '../cores/adapter.ts';
import { referenceCore } from '../cores/reference.ts';
import { MUTANTS } from '../mutants/index.ts';
import { PEERS } from '../peers/index.ts';

/** A `--core` value that names no known core. */
export class UnknownCoreError extends Error {
  override readonly name = 'UnknownCoreError';
}

/** Every accepted `--core` value. */
export function coreNames(): string[] {
  return ['reference', ...MUTANTS.map((mutant) => `mutant:${mutant.name}`), ...Object.keys(PEERS).map((name) => `peer:${name}`)];
}

/**
 * The factory for a core name.
 * @throws UnknownCoreError listing the accepted names.
 */
export function resolveCore(name: string): CoreFactory {
  if (name === 'reference') return referenceCore();
  const mutant = name.startsWith('mutant:') ? MUTANTS.find((candidate) => `mutant:${candidate.name}` === name) : undefined;
  if (mutant !== undefined) return mutant.core;
  const peer = name.startsWith('peer:') ? PEERS[name.slice('peer:'.length)] : undefined;
  if (peer !== undefined) return peer;
  throw new UnknownCoreError(`unknown core "${name}"; expected one of: ${coreNames().join(', ')}`);
}
