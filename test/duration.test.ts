import { describe, expect, it } from 'vitest';
import { formatDuration } from '../cli/format/duration.ts';

describe('formatDuration', () => {
  it('writes seconds, minutes and seconds, or hours and minutes, never a 60', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(44.6)).toBe('45s');
    expect(formatDuration(59.6)).toBe('1m00s');
    expect(formatDuration(725)).toBe('12m05s');
    expect(formatDuration(3599.4)).toBe('59m59s');
    expect(formatDuration(3599.6)).toBe('1h00m');
    expect(formatDuration(7180)).toBe('2h00m'); // 1 h 59 min 40 s, which cli-progress writes 1h60m
    expect(formatDuration(11220)).toBe('3h07m');
    expect(formatDuration(Number.NaN)).toBe('-');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('-');
  });
});
