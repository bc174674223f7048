/**
 * Exit codes of the command line (SPEC section 13) and the errors that map onto them.
 */

/** 0 clean; 1 an invariant was violated or a round was UNDECIDED; 2 usage or input error; 3 testbed failure (the table: runner/exit-codes.ts). */
export { EXIT } from '../runner/exit-codes.ts';

/** Bad input from the user: printed as one line, exit 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
}
