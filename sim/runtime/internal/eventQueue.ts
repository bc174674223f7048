/**
 * The world's event queue: a binary min-heap ordered by (atMs, seq).
 *
 * Fault model: none injected. The invariant that matters is the total order: two events at the
 * same virtual time run in the order they were scheduled (seq), never in heap or hash order.
 * Cancellation is lazy (the entry is flagged and skipped when it reaches the top), because the
 * SDK arms and clears one timeout per request; the heap is compacted when dead entries dominate.
 */

/** One scheduled callback. `id` doubles as the tie-breaking sequence number. */
export interface QueuedEvent {
  readonly atMs: number;
  readonly id: number;
  readonly fn: () => void;
  /** A background event (the core's timers, a watch's checkpoints) is no work the world still owes. */
  readonly background: boolean;
  cancelled: boolean;
}

/** Dead entries tolerated before a compaction is considered. */
const COMPACT_SLACK_COUNT = 64;

/** A (time, sequence)-ordered queue with O(log n) push/pop and O(1) lazy cancel. */
export class EventQueue {
  private heap: QueuedEvent[] = [];
  private readonly live = new Map<number, QueuedEvent>();
  private lastId = 0;
  private liveForeground = 0;

  /** Number of scheduled, not yet run and not cancelled events. */
  get size(): number {
    return this.live.size;
  }

  /** Number of those that are not background events. */
  get foregroundSize(): number {
    return this.liveForeground;
  }

  /** Adds an event and returns its id (ids start at 1 and only grow). */
  push(atMs: number, fn: () => void, background = false): number {
    const event: QueuedEvent = { atMs, id: ++this.lastId, fn, background, cancelled: false };
    if (!background) this.liveForeground++;
    this.live.set(event.id, event);
    this.heap.push(event);
    this.siftUp(this.heap.length - 1);
    return event.id;
  }

  /** Cancels an event; unknown, already run or already cancelled ids are ignored. */
  cancel(id: number): void {
    const event = this.live.get(id);
    if (event === undefined) return;
    event.cancelled = true;
    this.live.delete(id);
    if (!event.background) this.liveForeground--;
    if (this.heap.length > 2 * this.live.size + COMPACT_SLACK_COUNT) this.compact();
  }

  /** The earliest live event, without removing it. */
  peek(): QueuedEvent | undefined {
    while (this.heap.length > 0 && this.heap[0]!.cancelled) this.removeTop();
    return this.heap[0];
  }

  /** Removes and returns the earliest live event. */
  pop(): QueuedEvent | undefined {
    const top = this.peek();
    if (top === undefined) return undefined;
    this.removeTop();
    this.live.delete(top.id);
    if (!top.background) this.liveForeground--;
    return top;
  }

  private removeTop(): void {
    const last = this.heap.pop()!;
    if (this.heap.length === 0) return;
    this.heap[0] = last;
    this.siftDown(0);
  }

  private compact(): void {
    this.heap = this.heap.filter((event) => !event.cancelled);
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let least = i;
      if (left < heap.length && before(heap[left]!, heap[least]!)) least = left;
      if (right < heap.length && before(heap[right]!, heap[least]!)) least = right;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  }
}

function before(a: QueuedEvent, b: QueuedEvent): boolean {
  return a.atMs < b.atMs || (a.atMs === b.atMs && a.id < b.id);
}
