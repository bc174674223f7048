/**
 * Expected failures (`host-test --baseline FILE`), as the MCP conformance suite keeps them: a
 * JSON file `{"expected": {"CASE@TRANSPORT": "OUTCOME", ...}}` for the agent under test. A run
 * whose outcome is the one its entry expects does not fail the run; an entry whose case now ends
 * OK or NON-STRICT is stale and fails the run (remove it); an entry whose case ends with another
 * failing outcome fails it too. Entries for cases not run (another `--cases`) are left alone.
 */
import { readInputJson } from '../sim/plan/input-file.ts';
import type { CaseOutcome } from './run-case.ts';

/** The outcomes an entry may expect. */
const FAILING: readonly CaseOutcome[] = ['FAILED', 'UNSUPPORTED', 'HOST_FAILED', 'UNDECIDED'];

/** A bad baseline file: one line, exit 2. */
export class BaselineError extends Error {
  override readonly name = 'BaselineError';
}

/** Reads a baseline: `CASE@TRANSPORT` -> expected outcome. @throws BaselineError (one line) for a missing, unreadable, non-JSON or malformed file, or a directory. */
export function loadBaseline(path: string): Map<string, CaseOutcome> {
  // One line whatever is wrong: V8's JSON.parse message quotes the text, newlines and all, and a
  // directory is not "not JSON".
  const value = readInputJson(path, (message) => new BaselineError(`--baseline ${message}`));
  const expected = (value as { expected?: unknown } | null)?.expected;
  if (typeof expected !== 'object' || expected === null || Array.isArray(expected))
    throw new BaselineError(`--baseline ${path}: needs {"expected": {"CASE@TRANSPORT": "OUTCOME"}}`);
  const entries = new Map<string, CaseOutcome>();
  for (const [key, outcome] of Object.entries(expected)) {
    if (!/^[A-Za-z0-9_.-]+@(http|stdio)$/.test(key))
      throw new BaselineError(`--baseline ${path}: entry ${JSON.stringify(key)} is not CASE@http or CASE@stdio`);
    if (!FAILING.includes(outcome as CaseOutcome))
      throw new BaselineError(
        `--baseline ${path}: entry ${key} expects ${JSON.stringify(outcome)}, not one of ${FAILING.join(', ')}`,
      );
    entries.set(key, outcome as CaseOutcome);
  }
  return entries;
}

/** How one run stands against the baseline: `expected` (its entry holds), `stale` / `changed` (its entry fails the run), or `none` (no entry). */
export function baselineStanding(
  stem: string,
  outcome: CaseOutcome,
  baseline: ReadonlyMap<string, CaseOutcome>,
): 'expected' | 'stale' | 'changed' | 'none' {
  const entry = baseline.get(stem);
  if (entry === undefined) return 'none';
  if (entry === outcome) return 'expected';
  return outcome === 'OK' || outcome === 'NON-STRICT' ? 'stale' : 'changed';
}
