import { describe, expect, it } from 'vitest';
import { shortHex, shortKey, showDigests, sortViolations, type Violation } from './violation.ts';

const v = (invariant: Violation['invariant'], seq: number | null, code = 'X'): Violation => ({
  invariant,
  round: 1,
  seq,
  code,
  evidence: '',
});

describe('violations', () => {
  it('sort by seq (null last), then invariant number, then code', () => {
    const sorted = sortViolations([
      v('I13', null),
      v('I12', 4),
      v('I2', 4, 'B'),
      v('I2', 4, 'A'),
      v('I1', 9),
      v('I13', 1),
    ]);
    expect(sorted.map((x) => `${x.seq}:${x.invariant}:${x.code}`)).toEqual([
      '1:I13:X',
      '4:I2:A',
      '4:I2:B',
      '4:I12:X',
      '9:I1:X',
      'null:I13:X',
    ]);
  });

  it('shorten hex digests and identities to 12 digits, leaving other text alone', () => {
    const digest = 'ab'.repeat(32);
    expect(shortHex(digest)).toBe('abababababab');
    expect(shortHex('sc-dev')).toBe('sc-dev');
    expect(shortKey(`${digest}|acme.dev`)).toBe('abababababab|acme.dev');
    expect(showDigests([digest, digest, digest, digest])).toBe('[abababababab, abababababab, abababababab, +1 more]');
  });
});
