/**
 * `catsim judge TRACE`: re-judges a black-box case's saved trace (the `.trace.jsonl` a host-test
 * report holds) with the oracle's wire rules (oracle/host-wire.ts), and prints the outcome.
 */
import { judgeHostWire } from '../../oracle/index.ts';
import { EXIT, InputError } from '../errors.ts';
import { readTraceFile } from '../trace-file.ts';

/**
 * Judges one trace; exit 0 for OK or NON-STRICT, 1 for FAILED or UNDECIDED.
 * @throws InputError (exit 2) for `-` (standard input is not read: said by name), when the file is
 *   missing, unreadable or not a complete trace, or when it is not a black-box case's trace
 *   (`catsim check` judges a core's).
 */
export function judgeCommand(path: string): number {
  if (path === '-')
    throw new InputError(
      'judge -: reading a trace from standard input is not supported; save it to a file and give its path',
    );
  const trace = readTraceFile(path);
  // A core's round (run, replay) is judged by the core's invariants: read by the wire rules, its
  // gate decisions and disclosures look like a host calling tools it never listed, and a
  // reference-core round that `check` finds clean came out FAILED.
  if (!trace.header.scenario.startsWith('blackbox:'))
    throw new InputError(
      `${path}: the trace of scenario ${trace.header.scenario} is a core's round, not a black-box case: check it with catsim check`,
    );
  const verdict = judgeHostWire(trace);
  const lines = [
    `catsim judge ${path}`,
    `scenario ${trace.header.scenario}, ${trace.header.core}, ${trace.events.length} events, triggers fired ${verdict.triggersFired} of ${verdict.triggersPlanned}`,
    ...verdict.violations.map(
      (v) =>
        `${v.level === 'MUST' ? 'VIOLATION' : 'SHOULD'} ${v.invariant} ${v.code} at seq ${v.seq ?? '-'}: ${v.evidence}`,
    ),
    `outcome: ${verdict.outcome}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return verdict.outcome === 'OK' || verdict.outcome === 'NON-STRICT' ? EXIT.clean : EXIT.violation;
}
