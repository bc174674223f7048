/**
 * A memo that forgets everything when it reaches its bound. Clearing all at once (rather than
 * evicting one entry) keeps it trivially correct: every value it holds is a pure function of its
 * key, so forgetting only costs recomputation, never a different answer.
 */
export class BoundedMemo<V> {
  readonly #entries = new Map<string, V>();
  readonly #entriesMax: number;

  /** `entriesMax`: the entry count at which the memo clears itself before the next insert. */
  constructor(entriesMax: number) {
    this.#entriesMax = entriesMax;
  }

  /** The value for `key`, computing and remembering it on a miss. */
  get(key: string, compute: () => V): V {
    const known = this.#entries.get(key);
    if (known !== undefined) return known;
    const value = compute();
    if (this.#entries.size >= this.#entriesMax) this.#entries.clear();
    this.#entries.set(key, value);
    return value;
  }

  /** How many entries it holds now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries.clear();
  }
}
