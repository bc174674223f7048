/**
 * Reading a saved trace for `catsim check` and `catsim judge`: the file as text, parsed as a
 * complete `catsim.trace.v1` trace (docs/TRACE.md), every failure one line naming the file.
 */
import { TraceFormatError, parseCompleteTrace, type Trace } from '../oracle/index.ts';
import { readInputText } from '../sim/plan/input-file.ts';
import { InputError } from './errors.ts';

/**
 * The complete trace in the file at `path`.
 * @throws InputError (exit 2) when the file is missing, a directory or unreadable, is empty, is
 *   not a well-formed trace, or is incomplete (no `round_end`, or events after it): one line
 *   starting with `path`.
 */
export function readTraceFile(path: string): Trace {
  const text = readInputText(path, (message) => new InputError(message));
  try {
    return parseCompleteTrace(text);
  } catch (error) {
    if (error instanceof TraceFormatError) throw new InputError(`${path}: ${error.message}`);
    throw error;
  }
}
