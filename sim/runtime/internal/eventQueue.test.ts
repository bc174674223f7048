import { describe, expect, it } from 'vitest';
import { createRng } from '../../random.ts';
import { EventQueue } from './eventQueue.ts';

describe('EventQueue', () => {
  it('pops live events in (time, sequence) order through heavy cancellation and compaction', () => {
    const queue = new EventQueue();
    const rng = createRng('queue');
    const expected: Array<{ atMs: number; id: number }> = [];
    for (let i = 0; i < 2_000; i++) {
      const atMs = rng.int(0, 50);
      const id = queue.push(atMs, () => undefined);
      if (rng.chance(0.8)) queue.cancel(id);
      else expected.push({ atMs, id });
    }
    expected.sort((a, b) => a.atMs - b.atMs || a.id - b.id);
    expect(queue.size).toBe(expected.length);
    const popped: Array<{ atMs: number; id: number }> = [];
    for (let event = queue.pop(); event !== undefined; event = queue.pop())
      popped.push({ atMs: event.atMs, id: event.id });
    expect(popped).toEqual(expected);
    expect(queue.size).toBe(0);
  });
});
