/**
 * `catsim judge TRACE`: re-judges a black-box case's saved trace (the `.trace.jsonl` a host-test
 * report holds) with the oracle's wire rules (oracle/host-wire.ts), and prints the outcome.
 */
import { judgeHostWire } from '../../oracle/index.ts';
import { EXIT } from '../errors.ts';
import { readTraceFile } from '../trace-file.ts';

/**
 * Judges one trace; exit 0 for OK or NON-STRICT, 1 for FAILED or UNDECIDED.
 * @throws InputError (exit 2) when the file is missing, unreadable or not a complete trace.
 */
export function judgeCommand(path: string): number {
  const trace = readTraceFile(path);
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
