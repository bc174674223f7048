/**
 * The memos of one catalog core: what its digests, canonical forms, content checks and argument
 * checks keep so that a descriptor a server sends again is not hashed, canonicalised, checked or
 * compiled again (issue 12). A host builds its own from `HostConfig.memoSizes` or is handed one in
 * `HostPorts.memos`; nothing in src/ keeps a memo at module level, so two hosts of one process
 * share nothing unless their owner gives them the same object (the simulator does: a round builds
 * a host, and the rounds on one thread reuse what the rounds before them computed).
 *
 * Every value a memo holds is a pure function of its key: a size changes the work, never an
 * answer, and never a trace.
 */
import { BoundedMemo } from './bounded-memo.ts';
import type { SnapshotMemos } from './snapshot/snapshot.ts';
import { ValidationMemos } from './validation/validation-memos.ts';

/** Entries a generation of a core's memos (each memo holds at most twice its generation). */
export interface MemoSizes {
  /**
   * The descriptor-keyed memos: descriptor, page and schema digests and per-tool verdicts
   * (canonical texts: half as many, their values are as large as their keys). A working set of
   * up to this many distinct descriptors is served from memory.
   */
  descriptorEntries: number;
  /**
   * Compiled JSON Schema validators (about 9 KB of heap each; the argument validators: half as
   * many).
   */
  validatorEntries: number;
}

/**
 * The sizes of a host that sets none: a working set of up to 16,384 descriptors (a 10,000-tool
 * catalog) served entirely from memory, and at most 2,000 compiled validators (the bound from
 * before the memos were generational).
 */
export const DEFAULT_MEMO_SIZES: Readonly<MemoSizes> = Object.freeze({
  descriptorEntries: 16_384,
  validatorEntries: 1_000,
});

/** Page roots a generation: a page root is keyed by 64 characters a page, and few are live at once. */
const PAGE_ROOT_ENTRIES = 1_024;

/**
 * The memos of one core (or of several that share them). Workflow: construct with the sizes,
 * pass to the host (`HostPorts.memos`) or let the host build its own, `resize` when the working set
 * changes (a smaller size takes effect at each memo's next rotation, never all at once).
 */
export class CoreMemos implements SnapshotMemos {
  readonly descriptorDigests: BoundedMemo<string>;
  readonly pageDigests: BoundedMemo<string>;
  readonly pageRoots = new BoundedMemo<string>(PAGE_ROOT_ENTRIES);
  readonly canonicalTexts: BoundedMemo<string>;
  readonly schemaDigests: BoundedMemo<readonly [string | null, string | null]>;
  readonly validation: ValidationMemos;
  #sizes: Readonly<MemoSizes>;

  /** @throws RangeError when a size is not a positive safe integer, naming it: `memoSizes.descriptorEntries must be a positive integer, got 0`. */
  constructor(sizes: Readonly<MemoSizes> = DEFAULT_MEMO_SIZES) {
    this.#sizes = checkedSizes(sizes);
    this.descriptorDigests = new BoundedMemo(sizes.descriptorEntries);
    this.pageDigests = new BoundedMemo(sizes.descriptorEntries);
    this.canonicalTexts = new BoundedMemo(half(sizes.descriptorEntries));
    this.schemaDigests = new BoundedMemo(sizes.descriptorEntries);
    this.validation = new ValidationMemos(sizes.descriptorEntries, sizes.validatorEntries);
  }

  /** The entries a generation it was built or last resized with. */
  get sizes(): Readonly<MemoSizes> {
    return this.#sizes;
  }

  /** Sets the entries a generation of every memo, in the constructor's proportions. @throws RangeError as the constructor. */
  resize(sizes: Readonly<MemoSizes>): void {
    this.#sizes = checkedSizes(sizes);
    this.descriptorDigests.resize(sizes.descriptorEntries);
    this.pageDigests.resize(sizes.descriptorEntries);
    this.canonicalTexts.resize(half(sizes.descriptorEntries));
    this.schemaDigests.resize(sizes.descriptorEntries);
    this.validation.resize(sizes.descriptorEntries, sizes.validatorEntries);
  }
}

/** A frozen copy of `sizes`. @throws RangeError naming the first size that is not a positive safe integer. */
function checkedSizes(sizes: Readonly<MemoSizes>): Readonly<MemoSizes> {
  for (const name of ['descriptorEntries', 'validatorEntries'] as const) {
    const entries = sizes[name];
    if (!Number.isSafeInteger(entries) || entries < 1)
      throw new RangeError(`memoSizes.${name} must be a positive integer, got ${entries}`);
  }
  return Object.freeze({ descriptorEntries: sizes.descriptorEntries, validatorEntries: sizes.validatorEntries });
}

/** Half of `entries` (checked already), at least 1. */
function half(entries: number): number {
  return Math.max(1, Math.round(entries / 2));
}
