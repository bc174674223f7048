/**
 * The exit codes of catsim (SPEC section 13), in one table: the campaign's verdict
 * (runner/report.ts `exitCodeOf`), the command line's errors (cli/errors.ts) and the line
 * `catsim --help` ends with are all read from it. (bin/catsim.mjs, which runs before any of this
 * is loaded, writes its 2 and 3 as numbers.)
 */

/** 0 clean; 1 an invariant was violated or a round was UNDECIDED; 2 usage or input error; 3 testbed failure. */
export const EXIT = { clean: 0, violation: 1, usage: 2, testbed: 3 } as const;

/** What each exit code means, in a few words, for `--help`. */
const MEANING: Readonly<Record<keyof typeof EXIT, string>> = {
  clean: 'clean',
  violation: 'violation or UNDECIDED round',
  usage: 'usage or input error',
  testbed: 'testbed failure',
};

/** The exit codes in one line: `Exit codes: 0 clean, 1 violation or UNDECIDED round, ...`. */
export const EXIT_CODES_LINE = `Exit codes: ${(Object.keys(EXIT) as (keyof typeof EXIT)[])
  .map((name) => `${EXIT[name]} ${MEANING[name]}`)
  .join(', ')}.`;
