import { describe, expect, it } from 'vitest';
import { guidedBatchSizes } from './campaign.ts';

describe('guided batch sizes', () => {
  it('400 rounds on 2 workers: full batches of 25 while a quarter of what is left is at least 25, then shrinking to 1', () => {
    // left 400..100: ceil(left / 4) >= 25, so 13 batches of 25 (325 rounds); then left 75 -> 19,
    // 56 -> 14, 42 -> 11, 31 -> 8, 23 -> 6, 17 -> 5, 12 -> 3, 9 -> 3, 6 -> 2, 4 -> 1, 3 -> 1, 2 -> 1, 1 -> 1.
    expect(guidedBatchSizes(400, 2)).toEqual([...Array(13).fill(25), 19, 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1, 1]);
  });

  it('one worker or in-process: batches of 25, the last one what is left', () => {
    expect(guidedBatchSizes(60, 1)).toEqual([25, 25, 10]);
    expect(guidedBatchSizes(60, 0)).toEqual([25, 25, 10]);
  });

  it('a campaign shorter than its workers have room for: every worker gets a batch at once', () => {
    // 10 rounds on 4 workers: ceil(10 / 8) = 2, then ceil(8 / 8) = 1 for the rest.
    expect(guidedBatchSizes(10, 4)).toEqual([2, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(guidedBatchSizes(0, 2)).toEqual([]);
  });
});
