/**
 * Seeded randomness for the simulator: the only source of non-determinism a round may use.
 *
 * Fault model: none is injected here. What can go wrong is misuse: drawing from `Math.random`,
 * sharing one stream between components (adding a draw in one then shifts the other), or
 * depending on the order in which components are constructed. Named streams remove the last
 * two: each component draws from `seedrandom(seed + '/' + name)`, so adding a component or a
 * draw never shifts any other stream.
 */
import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';

/** A seeded pseudo-random generator. Every method advances the stream deterministically. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [minInclusive, maxInclusive]. Throws RangeError on non-integer or empty ranges. */
  int(minInclusive: number, maxInclusive: number): number;
  /** True with the given probability, a fraction in [0, 1]. Throws RangeError outside it. */
  chance(probability: number): boolean;
  /** One element, uniformly. Throws RangeError on an empty list. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy (Fisher–Yates); the input is left untouched. */
  shuffle<T>(items: readonly T[]): T[];
}

/** A family of independent named streams derived from one seed. */
export interface Streams {
  /** The seed the streams derive from. */
  readonly seed: string;
  /**
   * The stream `seedrandom(seed + '/' + name)`. Asking twice for one name returns the same
   * stream object (memoised), so two callers never receive silently identical sequences.
   */
  stream(name: string): Rng;
}

/** Creates the named streams of one seed (usually a round seed from `deriveRoundSeed`). */
export function createStreams(seed: string): Streams {
  const streams = new Map<string, Rng>();
  return {
    seed,
    stream(name: string): Rng {
      let rng = streams.get(name);
      if (rng === undefined) {
        rng = createRng(`${seed}/${name}`);
        streams.set(name, rng);
      }
      return rng;
    },
  };
}

/** Wraps one ARC4 `seedrandom` generator (it never touches `Math.random`). */
export function createRng(seed: string): Rng {
  const prng = seedrandom(seed);
  const next = (): number => prng();
  return {
    next,
    int: (minInclusive, maxInclusive) => drawInt(next, minInclusive, maxInclusive),
    chance: (probability) => drawChance(next, probability),
    pick: (items) => items[drawInt(next, 0, nonEmptyLength(items) - 1)]!,
    shuffle: (items) => shuffleCopy(next, items),
  };
}

/**
 * The seed of round `round` of a campaign: the first 16 hex characters of
 * sha256(`catsim.round.v1\n${campaignSeed}\n${round}`). Any round can be replayed from it alone,
 * without running the rounds before it.
 */
export function deriveRoundSeed(campaignSeed: string, round: number): string {
  if (!Number.isSafeInteger(round) || round < 0) {
    throw new RangeError(`round must be a non-negative integer, got ${round}`);
  }
  const input = `catsim.round.v1\n${campaignSeed}\n${round}`;
  return createHash('sha256').update(input, 'utf8').digest('hex').slice(0, 16);
}

function drawInt(next: () => number, minInclusive: number, maxInclusive: number): number {
  if (!Number.isSafeInteger(minInclusive) || !Number.isSafeInteger(maxInclusive)) {
    throw new RangeError(`int bounds must be integers, got ${minInclusive}..${maxInclusive}`);
  }
  if (minInclusive > maxInclusive) {
    throw new RangeError(`empty int range ${minInclusive}..${maxInclusive}`);
  }
  return minInclusive + Math.floor(next() * (maxInclusive - minInclusive + 1));
}

function drawChance(next: () => number, probability: number): boolean {
  if (!(probability >= 0 && probability <= 1)) {
    throw new RangeError(`probability must be a fraction in [0, 1], got ${probability}`);
  }
  // Always draw, even for 0 and 1, so that changing a probability never shifts later draws.
  return next() < probability;
}

function nonEmptyLength(items: readonly unknown[]): number {
  if (items.length === 0) throw new RangeError('cannot pick from an empty list');
  return items.length;
}

function shuffleCopy<T>(next: () => number, items: readonly T[]): T[] {
  const copy = items.slice();
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
