import { describe, expect, it } from 'vitest';
import { EXIT as CLI_EXIT } from '../cli/errors.ts';
import { EXIT, EXIT_CODES_LINE } from '../runner/exit-codes.ts';

describe('the exit-code table', () => {
  it('holds SPEC section 13’s four codes, and --help’s line is built from it', () => {
    expect(EXIT).toEqual({ clean: 0, violation: 1, usage: 2, testbed: 3 });
    expect(EXIT_CODES_LINE).toBe(
      'Exit codes: 0 clean, 1 violation or UNDECIDED round, 2 usage or input error, 3 testbed failure.',
    );
  });

  it('is the one the command line uses (cli/errors.ts re-exports it)', () => {
    expect(CLI_EXIT).toBe(EXIT);
  });
});
