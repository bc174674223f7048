/**
 * Cross-scan memory of the revisions one catalog key has seen (SPEC section 3, QUARANTINED).
 *
 * Backwards: a reply reporting a revision lower than the highest one seen, to a request sent
 * after that highest value arrived. Late replies to requests sent earlier (older scans, reordered
 * messages) do not count. Equivocation: the same revision proved with two different sets of
 * descriptor digests.
 */
import { descriptorDigest, descriptorDigestOfText, type DigestMemos } from '../snapshot/digests.ts';

/** The revisions one catalog key has seen, across its scans. */
export class RevisionWatch {
  #requests = 0;
  #highest = -1;
  /** Sequence number of the first request sent after the highest revision arrived. */
  #highestFence = 0;
  readonly #proved = new Map<number, string>();

  /** `memos`: the host's digest memos (src/memos.ts); without them each descriptor digest is computed. */
  constructor(private readonly memos?: DigestMemos) {}

  /** Call before sending a request; returns its sequence number for {@link observe}. */
  requestSent(): number {
    return this.#requests++;
  }

  /**
   * Records a reply's revision. Returns `backwards` when the request (sequence `sent`) was sent
   * after a higher revision had already arrived.
   */
  observe(revision: number, sent: number): 'ok' | 'backwards' {
    if (revision < this.#highest) return sent >= this.#highestFence ? 'backwards' : 'ok';
    if (revision > this.#highest) {
      this.#highest = revision;
      this.#highestFence = this.#requests;
    }
    return 'ok';
  }

  /**
   * Records the descriptor set of a complete scan at `revision`; true when the same revision was
   * proved before with a different set. `toolTexts`, when given, are `JSON.stringify` of each
   * tool (PageReply.toolTexts), so the descriptors are not stringified again.
   */
  equivocates(revision: number, tools: readonly unknown[], toolTexts?: readonly (string | undefined)[]): boolean {
    const set = tools
      .map((tool, index) =>
        toolTexts?.[index] === undefined
          ? descriptorDigest(tool, this.memos)
          : descriptorDigestOfText(tool, toolTexts[index], this.memos),
      )
      .sort()
      .join(',');
    const previous = this.#proved.get(revision);
    if (previous === undefined) this.#proved.set(revision, set);
    return previous !== undefined && previous !== set;
  }
}
