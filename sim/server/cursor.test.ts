import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.ts';

describe('server cursors', () => {
  it('decode what they encode, again and again, each time as a fresh position', () => {
    const position = { boot: 2, offset: 40, empty: true };
    const cursor = encodeCursor(position);
    expect(cursor).toBe(Buffer.from('[2,40,1]', 'utf8').toString('base64url'));
    expect(encodeCursor({ ...position })).toBe(cursor);
    const first = decodeCursor(cursor);
    expect(first).toEqual(position);
    first!.offset = 99;
    expect(decodeCursor(cursor)).toEqual(position);
    expect(decodeCursor(cursor)).not.toBe(decodeCursor(cursor));
  });

  it('refuse texts that are not theirs, every time they are asked', () => {
    const bad = [
      Buffer.from('[1,-1,0]').toString('base64url'),
      Buffer.from('[1,2]').toString('base64url'),
      'not a cursor',
      `${'A'.repeat(100)}`,
      '',
    ];
    for (const cursor of bad) {
      expect(decodeCursor(cursor)).toBeUndefined();
      expect(decodeCursor(cursor)).toBeUndefined();
    }
  });

  it('decode every position they encode, over thousands of offsets', () => {
    for (let offset = 0; offset < 3000; offset += 1)
      expect(decodeCursor(encodeCursor({ boot: 0, offset, empty: false }))).toEqual({ boot: 0, offset, empty: false });
  });
});
