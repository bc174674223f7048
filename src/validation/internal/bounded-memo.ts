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
  if (!Number.isSafeInteger(entries) || entries < 1) throw new RangeError(`memo generation size must be a positive integer, got ${entries}`);
  return entries;
}

/**
 * Entries per generation of the descriptor-keyed memos by default (each memo holds at most twice
 * as many): a working set of up to 16,384 descriptors (a 10,000-tool catalog) is served entirely
 * from memory. A working set a little larger than a generation is still mostly served (only
 * entries unused for a whole generation are forgotten). The keys are descriptors' JSON texts,
 * shared between the memos that see the same page; the canonical-form memo, whose values are
 * as large as its keys, keeps half as many a generation ({@link descriptorMemo}).
 */
export const DESCRIPTOR_MEMO_ENTRIES = 16_384;

/**
 * A family of memos sized together: each holds `share` x the family's entries a generation (at
 * least 1), and `resize` sets the family's entries for all of them (and those made later) in the
 * same proportion.
 */
class MemoFamily {
  readonly #members: { memo: BoundedMemo<unknown>; share: number }[] = [];
  #entries: number;

  constructor(entries: number) {
    this.#entries = entries;
  }

  memo<V>(share: number): BoundedMemo<V> {
    const memo = new BoundedMemo<V>(sharedSize(this.#entries, share));
    this.#members.push({ memo: memo as BoundedMemo<unknown>, share });
    return memo;
  }

  resize(entries: number): void {
    this.#entries = checkedSize(entries);
    for (const { memo, share } of this.#members) memo.resize(sharedSize(entries, share));
  }
}

/** The core's memos keyed by descriptor, sized from {@link DESCRIPTOR_MEMO_ENTRIES}. */
const DESCRIPTOR_MEMOS = new MemoFamily(DESCRIPTOR_MEMO_ENTRIES);

/**
 * A memo of `share` x `DESCRIPTOR_MEMO_ENTRIES` a generation (at least 1) that
 * {@link setDescriptorMemoEntries} resizes in the same proportion.
 */
export function descriptorMemo<V>(share = 1): BoundedMemo<V> {
  return DESCRIPTOR_MEMOS.memo<V>(share);
}

/**
 * Sets the entries per generation of every descriptor-keyed memo of the core (process-wide; a
 * host serving more than about 16,000 distinct descriptors raises it, one that must stay small
 * lowers it); the canonical-form memo gets half. Each memo then holds at most twice its size.
 * Call it before the memos fill (at start-up): a smaller size takes effect at their next rotation.
 * @throws RangeError when `entries` is not a positive safe integer.
 */
export function setDescriptorMemoEntries(entries: number): void {
  DESCRIPTOR_MEMOS.resize(entries);
}

function sharedSize(entries: number, share: number): number {
  return Math.max(1, Math.round(entries * share));
}

/**
 * Entries per generation of the compiled-validator memo (ajv-pool.ts, keyed by schema text) by
 * default; the argument validator's memo (keyed by descriptor digest, holding the same compiled
 * functions) keeps half as many. A compiled validator is large (about 9 KB of heap), so the bound
 * stays what it was before the memos were generational: 2,000 held at most.
 */
export const VALIDATOR_MEMO_ENTRIES = 1_000;

/** The core's memos of compiled validators, sized from {@link VALIDATOR_MEMO_ENTRIES}. */
const VALIDATOR_MEMOS = new MemoFamily(VALIDATOR_MEMO_ENTRIES);

/**
 * A memo of `share` x `VALIDATOR_MEMO_ENTRIES` a generation (at least 1) that
 * {@link setValidatorMemoEntries} resizes in the same proportion.
 */
export function validatorMemo<V>(share = 1): BoundedMemo<V> {
  return VALIDATOR_MEMOS.memo<V>(share);
}

/**
 * Sets the entries per generation of the compiled-validator memos (process-wide; the argument
 * validator's gets half). A host that compiles few schemas more than once lowers it to keep its
 * heap small; a smaller size takes effect at the memos' next rotation.
 * @throws RangeError when `entries` is not a positive safe integer.
 */
export function setValidatorMemoEntries(entries: number): void {
  VALIDATOR_MEMOS.resize(entries);
}
