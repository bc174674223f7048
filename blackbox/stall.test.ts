/**
 * The stall rule on hand-made samples (times are the samples' own arguments, no clock is read):
 * it fires only when a held step is long-polled and the host has been silent for the whole window.
 */
import { describe, expect, it } from 'vitest';
import { StallWatch, type StallSample } from './stall.ts';

const HELD = 'step 2 waited for 2 page_served of alpha and the record holds 1';

function sample(hostMessages: number, over: Partial<StallSample> = {}): StallSample {
  return { seq: 2, held: HELD, polling: true, hostMessages, ...over };
}

describe('StallWatch', () => {
  it('fires once the held step has been long-polled with no host message for the window, counted from the later of both', () => {
    const watch = new StallWatch(1_000, 0);
    // The last message arrived at 300; the adapter is first seen waiting at 500: the window runs from 500.
    expect(
      [
        watch.sample(300, sample(7, { held: null, polling: false })),
        watch.sample(500, sample(7)),
        watch.sample(1_400, sample(7)),
        watch.sample(1_499, sample(7)),
        watch.sample(1_500, sample(7)),
      ].map(String),
    ).toEqual(['null', 'null', 'null', 'null', HELD]);
  });

  it('never fires for a host that keeps sending within the window (a host still listing), however long the step stays held', () => {
    const watch = new StallWatch(1_000, 0);
    const fired = [];
    for (let t = 0; t <= 10_000; t += 100) fired.push(watch.sample(t, sample(Math.floor(t / 900))));
    expect(fired.filter((held) => held !== null)).toEqual([]);
  });

  it('does not fire while no long poll is pending, nor while the step is not held, and a new step starts the wait anew', () => {
    const watch = new StallWatch(1_000, 0);
    expect(
      [
        watch.sample(0, sample(3, { polling: false })),
        watch.sample(5_000, sample(3, { polling: false })),
        // First seen waiting at 5100 (silent since 0): not before 6100.
        watch.sample(5_100, sample(3)),
        watch.sample(5_900, sample(3, { held: null })),
        // Not held at 5900, so the wait starts again at 6000.
        watch.sample(6_000, sample(3)),
        watch.sample(6_999, sample(3)),
        // Step 3 is now the held one: its wait starts at 7000.
        watch.sample(7_000, sample(3, { seq: 3 })),
        watch.sample(7_999, sample(3, { seq: 3 })),
        watch.sample(8_000, sample(3, { seq: 3 })),
      ].map(String),
    ).toEqual(['null', 'null', 'null', 'null', 'null', 'null', 'null', 'null', HELD]);
  });

  it('is off with a window of 0', () => {
    const watch = new StallWatch(0, 0);
    expect([watch.sample(0, sample(1)), watch.sample(1e9, sample(1))]).toEqual([null, null]);
  });
});
