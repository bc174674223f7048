/**
 * `catsim host-test --agent NAME [--cases GLOB] [--transport stdio|http|both] [--out DIR] -- CMD ARGS`:
 * puts a host in any language under catsim's simulated servers (docs/BLACK-BOX.md). Spawns the
 * host once per case (and transport), judges each case's wire record with the oracle, prints one
 * line per case and writes the reports (per case JSON and trace, index.json, summary.md,
 * junit.xml) under `--out`.
 */
import { CaseError, loadCases, type BlackBoxCase } from '../../blackbox/case.ts';
import { writeReports } from '../../blackbox/reports.ts';
import { runCase, type CaseRun, type CaseTransport } from '../../blackbox/run-case.ts';
import { EXIT, InputError } from '../errors.ts';

/** Arguments of `catsim host-test`. */
export interface HostTestArgs {
  /** The host's name in the reports (letters, digits, `-`, `_`, `.`). */
  agent: string;
  /** Case-name glob (`*`, `?`); default every case. */
  cases: string;
  transport: 'stdio' | 'http' | 'both';
  /** Report folder; default `catsim-host-test`. */
  out: string;
  /** The host command: program and arguments (after `--`). */
  command: string[];
}

/**
 * Runs every selected case; exit 0 when every case is OK or NON-STRICT, 1 when any is FAILED,
 * HOST_FAILED, UNDECIDED or UNSUPPORTED (not judged is not a pass).
 * @throws InputError (exit 2) for a bad agent name, a case glob that matches nothing, a bad case
 *   file or a missing host command.
 */
export async function hostTestCommand(args: HostTestArgs): Promise<number> {
  const cases = selectCases(args);
  const transports: CaseTransport[] = args.transport === 'both' ? ['http', 'stdio'] : [args.transport];
  const runs: CaseRun[] = [];
  for (const spec of cases) {
    for (const transport of transports) {
      const run = await runCase(spec, args.agent, transport, args.command);
      process.stdout.write(`${run.outcome.padEnd(11)} ${run.case}@${transport}${run.outcome === 'OK' ? '' : `: ${run.line.slice(run.case.length + 2)}`}\n`);
      runs.push(run);
    }
  }
  const rerun = (run: CaseRun): string => `catsim host-test --agent ${args.agent} --cases ${run.case} --transport ${run.transport} -- ${args.command.join(' ')}`;
  writeReports(args.out, runs, rerun);
  const ok = runs.filter((run) => run.outcome === 'OK' || run.outcome === 'NON-STRICT').length;
  process.stdout.write(`${ok} of ${runs.length} cases OK or NON-STRICT; reports in ${args.out}/ (summary.md, index.json, junit.xml)\n`);
  return ok === runs.length ? EXIT.clean : EXIT.violation;
}

function selectCases(args: HostTestArgs): BlackBoxCase[] {
  if (!/^[A-Za-z0-9_.-]+$/.test(args.agent)) throw new InputError(`--agent ${JSON.stringify(args.agent)}: use letters, digits, '-', '_' and '.'`);
  if (args.command.length === 0) throw new InputError('host-test needs the host command after --, e.g. catsim host-test --agent mine -- python3 host.py');
  try {
    return loadCases(args.cases);
  } catch (error) {
    if (error instanceof CaseError) throw new InputError(error.message);
    throw error;
  }
}
