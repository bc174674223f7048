/**
 * Resolves a `--core` argument (`reference`, `mutant:NAME`) to a core factory.
 */
import type { CoreFactory } from '../cores/adapter.ts';
import { referenceCore } from '../cores/reference.ts';
import { MUTANTS } from '../mutants/index.ts';

/** A `--core` value that names no known core. */
export class UnknownCoreError extends Error {
  override readonly name = 'UnknownCoreError';
}

/** Every accepted `--core` value. */
export function coreNames(): string[] {
  return ['reference', ...MUTANTS.map((mutant) => `mutant:${mutant.name}`)];
}

/**
 * The factory for a core name.
 * @throws UnknownCoreError listing the accepted names.
 */
export function resolveCore(name: string): CoreFactory {
  if (name === 'reference') return referenceCore();
  const mutant = name.startsWith('mutant:') ? MUTANTS.find((candidate) => `mutant:${candidate.name}` === name) : undefined;
  if (mutant !== undefined) return mutant.core;
  throw new UnknownCoreError(`unknown core "${name}"; expected one of: ${coreNames().join(', ')}`);
}
