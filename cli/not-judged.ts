/**
 * `--not-judged rollback,surface`: the capabilities (oracle/not-judged.ts) a user accepts as not
 * judged, for a core that leaves them out. Accepted ones are shown as skipped, never as passed.
 */
import { CAPABILITIES, isCapability, type Capability } from '../oracle/not-judged.ts';
import { InputError } from './errors.ts';

/** The help text of `--not-judged`, the same for every command that takes it. */
export const NOT_JUDGED_HELP = `Accept these capabilities as not judged when the core lacks them (comma-separated: ${CAPABILITIES.join(',')}); they are shown as skipped and the verdict says PASS (not judged: ...) instead of NOT JUDGED (exit 1)`;

/**
 * The capabilities named by `--not-judged`, comma-separated, in the order given, each once;
 * undefined when the flag was not given.
 * @throws InputError (exit 2) for an empty value or a name that is no capability, e.g.
 *   `--not-judged: no capability "rollbak" (the capabilities are rollback, surface)`.
 */
export function parseNotJudged(raw: string | undefined): Capability[] | undefined {
  if (raw === undefined) return undefined;
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new InputError(`--not-judged is empty: name capabilities (${CAPABILITIES.join(', ')})`);
  const unknown = names.find((name) => !isCapability(name));
  if (unknown !== undefined)
    throw new InputError(
      `--not-judged: no capability ${JSON.stringify(unknown)} (the capabilities are ${CAPABILITIES.join(', ')})`,
    );
  return [...new Set(names as Capability[])];
}
