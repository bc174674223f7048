/**
 * `catsim check TRACE`: runs the oracle on a saved trace (`catsim.trace.v1`, docs/TRACE.md),
 * written by catsim or by any other implementation, and prints the verdict. The trace must be
 * complete (its last event is the `round_end`): a cut-short trace is refused, never judged.
 */
import { INVARIANT_IDS, checkTrace } from '../../oracle/index.ts';
import { unjudgedIn, type Capability } from '../../oracle/not-judged.ts';
import { EXIT, InputError } from '../errors.ts';
import { readTraceFile } from '../trace-file.ts';
import { notJudgedLines } from '../format/not-judged-lines.ts';

/**
 * Checks one trace file and prints the verdict; exit 0 clean, 1 violations or an undecided round.
 * Blank lines after the last event are ignored.
 * @throws InputError (exit 2) for `-` (standard input is not read: said by name); one line
 *   starting with `path` when the file is missing, a directory or unreadable, is empty, is not a
 *   well-formed trace, is incomplete (no `round_end`, or events after it), or is a black-box
 *   case's trace (`catsim judge` judges those).
 */
export function checkCommand(path: string, notJudged: readonly Capability[] = []): number {
  if (path === '-')
    throw new InputError(
      'check -: reading a trace from standard input is not supported; save it to a file and give its path',
    );
  const trace = readTraceFile(path);
  // A black-box host emits no observations (no publishes, receipts or scans), so the core's
  // invariants would all fail for want of them: its record is judged by the wire rules alone.
  if (trace.header.scenario.startsWith('blackbox:'))
    throw new InputError(
      `${path}: the trace of black-box case ${trace.header.scenario.slice('blackbox:'.length)} holds no core observations: judge it with catsim judge`,
    );
  const verdict = checkTrace(trace);
  const undecided = trace.events.some((event) => event.type === 'round_end' && event.status === 'undecided');
  const unjudged = notJudgedLines(unjudgedIn(verdict.metrics), notJudged);
  const lines = [
    `catsim check ${path}`,
    `round ${trace.header.round} of seed ${trace.header.seed}, scenario ${trace.header.scenario}, core ${trace.header.core}, ${trace.events.length} events`,
    `items checked per invariant: ${INVARIANT_IDS.map((id) => `${id} ${verdict.checked[id] ?? 0}`).join('  ')}`,
    ...verdict.violations.map((v) => `VIOLATION ${v.invariant} ${v.code} at seq ${v.seq ?? '-'}: ${v.evidence}`),
    ...unjudged.lines,
    undecided
      ? 'verdict: UNDECIDED (the round exhausted its event budget)'
      : verdict.violations.length > 0
        ? `verdict: ${verdict.violations.length} violations`
        : unjudged.unaccepted
          ? 'verdict: NOT JUDGED (see above)'
          : 'verdict: clean',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return verdict.violations.length > 0 || undecided || unjudged.unaccepted ? EXIT.violation : EXIT.clean;
}
