/**
 * Numbers and repeated options on the command line. yargs turns `--rounds abc` into NaN and a
 * repeated `--rounds 2 --rounds 3` into the array [2, 3], and both reached the commands as
 * "got NaN" or "2,3". Here every count is read from the text the user typed, so the message can
 * quote it, and an option given twice is refused instead of being silently joined.
 */
import { InputError } from './errors.ts';
import { CORE_FAILED, INVARIANT_IDS } from '../oracle/violation.ts';

/**
 * The largest value any count option takes: 2^31 - 1. Round numbers and times are bounded by it
 * in scenario and plan files, and it is the longest delay (ms) a Node.js timer can wait (a
 * larger `--timeout` would fire at once).
 */
export const COUNT_MAX = 2 ** 31 - 1;

/** A decimal number as typed: digits with an optional fraction and exponent (no hex, no Infinity). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A yargs `coerce` function for the count option `--name`: an integer from `least` to
 * {@link COUNT_MAX}. Defaults (numbers) pass through unchanged.
 * @throws InputError (exit 2, through the yargs failure handler), for the text the user typed:
 *   `--rounds given twice (2, 3): give it once`, `--rounds is empty: give a number`, `--rounds is
 *   not a number: abc`, `--rounds is too large: at most 2147483647, got 1e30`, `--rounds must be
 *   a positive integer, got 1.5` (or `a non-negative integer` when `least` is 0).
 */
export function countOption(name: string, least: 0 | 1): (raw: unknown) => number {
  return (raw) => {
    try {
      return parseCount(name, raw, least);
    } catch (error) {
      raised.set((error as Error).message, error as InputError);
      throw error;
    }
  };
}

/** The errors {@link countOption} raised, by message: yargs rethrows them as a YError with only the message. */
const raised = new Map<string, InputError>();

/**
 * The InputError a count option raised, for the YError yargs turned it into; undefined for any
 * other error. The command line prints it as the one line it is (exit 2).
 */
export function originalCountError(error: Error | null | undefined): InputError | undefined {
  return error?.name === 'YError' ? raised.get(error.message) : undefined;
}

function parseCount(name: string, raw: unknown, least: 0 | 1): number {
  if (typeof raw === 'number') return raw;
  if (Array.isArray(raw)) throw givenTwice(name, raw);
  const text = String(raw).trim();
  if (text === '') throw new InputError(`--${name} is empty: give a number`);
  if (!DECIMAL.test(text)) throw new InputError(`--${name} is not a number: ${String(raw)}`);
  const value = Number(text);
  if (value > COUNT_MAX) throw new InputError(`--${name} is too large: at most ${COUNT_MAX}, got ${text}`);
  if (!Number.isInteger(value) || value < least)
    throw new InputError(
      `--${name} must be ${least === 1 ? 'a positive integer' : 'a non-negative integer'}, got ${text}`,
    );
  return value + 0; // -0 becomes 0
}

function givenTwice(name: string, values: readonly unknown[]): InputError {
  return new InputError(`--${name} given twice (${values.map(String).join(', ')}): give it once`);
}

/**
 * Refuses an option given more than once (yargs collects the values into an array, which a
 * command would read as one string `a,b`). Options declared as arrays (`merge`'s reports) are
 * exempt; yargs' camel-case copies of hyphenated names are skipped, so the message names the
 * option as typed.
 * @param argv the parsed arguments.
 * @param arrays the options and positionals that legitimately take several values.
 * @throws InputError (exit 2) `--seed given twice (1, 2): give it once` for the first one.
 */
export function refuseRepeats(argv: Record<string, unknown>, arrays: readonly string[]): true {
  for (const [name, value] of Object.entries(argv)) {
    if (name === '_' || name === '$0' || arrays.includes(name) || !Array.isArray(value)) continue;
    if (/[A-Z]/.test(name) && Object.keys(argv).some((other) => other.includes('-') && camel(other) === name)) continue;
    throw givenTwice(name, value);
  }
  return true;
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * A yargs `coerce` function for `--invariant ID`: a verdict id, `I1`..`I33` or `CORE_FAILED`
 * (oracle/violation.ts), as typed (case-sensitive).
 * @throws InputError (exit 2) `--invariant I99 is not a verdict id: give one of I1..I40 or CORE_FAILED`.
 */
export function verdictIdOption(raw: unknown): string {
  try {
    if (Array.isArray(raw)) throw givenTwice('invariant', raw);
    const id = String(raw).trim();
    if (id !== CORE_FAILED && !(INVARIANT_IDS as readonly string[]).includes(id))
      throw new InputError(
        `--invariant ${id} is not a verdict id: give one of ${INVARIANT_IDS[0]}..${INVARIANT_IDS.at(-1)} or ${CORE_FAILED}`,
      );
    return id;
  } catch (error) {
    raised.set((error as Error).message, error as InputError);
    throw error;
  }
}
