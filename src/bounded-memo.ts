/**
 * A bounded memo that never forgets everything at once: two generations of entries.
 *
 * New entries go into the young generation; a hit in the old generation moves the entry back
 * into the young one. When the young generation is full it becomes the old one and the previous
 * old generation is dropped: only entries not used for a whole generation are forgotten. The
 * memo holds at most twice its generation size. (It used to clear itself entirely at its bound:
 * a scan of more descriptors than the bound then missed on every lookup, issue 12.) Every value
 * it holds is a pure function of its key, so forgetting only costs recomputation, never a
 * different answer.
 *
 * It holds no state but its own: whoever builds one owns it (a host's memos are its
 * `CoreMemos`, src/memos.ts, sized through `HostConfig.memoSizes`), and nothing in src/ keeps a
 * memo at module level (test/boundaries.test.ts).
 */
export class BoundedMemo<V> {
  #young = new Map<string, V>();
  #old = new Map<string, V>();
  #generationMax: number;

  /**
   * `generationMax`: entries per generation (at most twice as many are held).
   * @throws RangeError when it is not a positive safe integer.
   */
  constructor(generationMax: number) {
    this.#generationMax = checkedSize(generationMax);
  }

  /** The value for `key`, computing and remembering it on a miss. */
  get(key: string, compute: () => V): V {
    const young = this.#young.get(key);
    if (young !== undefined) return young;
    const old = this.#old.get(key);
    if (old !== undefined) {
      this.#old.delete(key);
      this.#remember(key, old);
      return old;
    }
    const value = compute();
    this.#remember(key, value);
    return value;
  }

  /** How many entries it holds now (both generations). */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  /** Entries per generation. */
  get generationMax(): number {
    return this.#generationMax;
  }

  /**
   * Sets the entries per generation; entries beyond the new size are forgotten at the next
   * rotation, never all at once. @throws RangeError when it is not a positive safe integer.
   */
  resize(generationMax: number): void {
    this.#generationMax = checkedSize(generationMax);
  }

  /** Forgets every entry. */
  clear(): void {
    this.#young.clear();
    this.#old.clear();
  }

  #remember(key: string, value: V): void {
    if (this.#young.size >= this.#generationMax) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
  }
}

function checkedSize(entries: number): number {
  if (!Number.isSafeInteger(entries) || entries < 1)
    throw new RangeError(`memo generation size must be a positive integer, got ${entries}`);
  return entries;
}
