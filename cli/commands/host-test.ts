/**
 * `catsim host-test --agent NAME [--cases GLOB] [--transport stdio|http|both] [--out DIR]
 * [--repeat N] [--timeout-factor N] [--stall-ms N] [--baseline FILE] -- CMD ARGS`: puts a host in any language under catsim's
 * simulated servers (docs/BLACK-BOX.md). Spawns the host once per case and transport (N times
 * with `--repeat`), judges each case's wire record with the oracle, prints one line per case and
 * writes the reports (per case JSON and trace, index.json, summary.md, junit.xml) under `--out`.
 */
import { BaselineError, baselineStanding, loadBaseline } from '../../blackbox/baseline.ts';
import { CaseError, caseTransports, loadCases, type BlackBoxCase } from '../../blackbox/case.ts';
import { foldRepeats } from '../../blackbox/repeat.ts';
import { runStem, writeReports } from '../../blackbox/reports.ts';
import { runCase, type CaseOutcome, type CaseRun, type CaseTransport } from '../../blackbox/run-case.ts';
import { STALL_MS_DEFAULT } from '../../blackbox/stall.ts';
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
  /** Runs per case and transport (>= 1); a wire that differs between runs is reported. */
  repeat: number;
  /** Each case's timeout is multiplied by this (>= 1; default 1). */
  timeoutFactor?: number;
  /**
   * The stall window, ms, before `timeoutFactor` scales it (default STALL_MS_DEFAULT; 0: off): a
   * case whose held step the adapter long-polls while the host sends nothing for the window ends
   * UNDECIDED at once (blackbox/stall.ts).
   */
  stallMs?: number;
  /** Answer as the host's model too (`--model-endpoint`, blackbox/model-endpoint.ts; `CATSIM_MODEL_URL` in its environment). */
  modelEndpoint?: boolean;
  /** Expected failures file, or undefined. */
  baseline?: string;
  /** The host command: program and arguments (after `--`). */
  command: string[];
}

/**
 * Runs every selected case; exit 0 when every case is OK or NON-STRICT or fails as its baseline
 * entry expects, 1 otherwise (FAILED, HOST_FAILED, UNDECIDED, UNSUPPORTED: not judged is not a
 * pass; or a stale or changed baseline entry).
 * @throws InputError (exit 2) for a bad agent name, a case glob that matches nothing (or only
 *   cases of another transport), a bad case file, a bad baseline file or a missing host command.
 */
export async function hostTestCommand(args: HostTestArgs): Promise<number> {
  const cases = selectCases(args);
  const baseline = readBaseline(args.baseline);
  const transports: CaseTransport[] = args.transport === 'both' ? ['http', 'stdio'] : [args.transport];
  if (cases.every((spec) => caseTransports(spec, transports).length === 0))
    throw new InputError(
      `--cases ${JSON.stringify(args.cases)}: no case selected runs on ${transports.join(' or ')} (${cases.map((spec) => `${spec.name}: ${(spec.transports ?? []).join(', ')}`).join('; ')})`,
    );
  const factor = args.timeoutFactor ?? 1;
  const stallMs = (args.stallMs ?? STALL_MS_DEFAULT) * factor;
  const runs: CaseRun[] = [];
  let failing = 0;
  for (const spec of cases) {
    for (const transport of caseTransports(spec, transports)) {
      const repeats: CaseRun[] = [];
      const timed = { ...spec, timeoutMs: spec.timeoutMs * factor };
      for (let i = 0; i < args.repeat; i += 1)
        repeats.push(
          await runCase(timed, args.agent, transport, args.command, {
            stallMs,
            modelEndpoint: args.modelEndpoint === true,
          }),
        );
      const run = foldRepeats(repeats);
      const standing = baselineStanding(runStem(run), run.outcome, baseline);
      if (standing === 'stale' || standing === 'changed' || (standing === 'none' && !passes(run.outcome))) failing += 1;
      process.stdout.write(`${lineOf(run, standing, baseline.get(runStem(run)))}\n`);
      runs.push(run);
    }
  }
  const rerun = (run: CaseRun): string =>
    `catsim host-test --agent ${args.agent} --cases ${run.case} --transport ${run.transport}${factor > 1 ? ` --timeout-factor ${factor}` : ''}${args.stallMs === undefined ? '' : ` --stall-ms ${args.stallMs}`}${args.modelEndpoint === true ? ' --model-endpoint' : ''} -- ${args.command.join(' ')}`;
  writeReports(args.out, runs, rerun);
  process.stdout.write(
    `${runs.length - failing} of ${runs.length} cases pass${baseline.size > 0 ? ' (OK, NON-STRICT, or as the baseline expects)' : ' (OK or NON-STRICT)'}; reports in ${args.out}/ (summary.md, index.json, junit.xml)\n`,
  );
  return failing === 0 ? EXIT.clean : EXIT.violation;
}

function passes(outcome: CaseOutcome): boolean {
  return outcome === 'OK' || outcome === 'NON-STRICT';
}

function lineOf(
  run: CaseRun,
  standing: ReturnType<typeof baselineStanding>,
  expected: CaseOutcome | undefined,
): string {
  const head = `${run.outcome.padEnd(11)} ${runStem(run)}${run.outcome === 'OK' ? '' : `: ${run.line.slice(run.case.length + 2)}`}`;
  if (standing === 'expected') return `${head} [expected by the baseline]`;
  if (standing === 'stale') return `${head} [baseline expects ${expected}: the entry is stale, remove it]`;
  if (standing === 'changed') return `${head} [baseline expects ${expected}]`;
  return head;
}

function selectCases(args: HostTestArgs): BlackBoxCase[] {
  if (!/^[A-Za-z0-9_.-]+$/.test(args.agent))
    throw new InputError(`--agent ${JSON.stringify(args.agent)}: use letters, digits, '-', '_' and '.'`);
  if (args.command.length === 0)
    throw new InputError(
      'host-test needs the host command after --, e.g. catsim host-test --agent mine -- python3 host.py',
    );
  try {
    return loadCases(args.cases);
  } catch (error) {
    if (error instanceof CaseError) throw new InputError(error.message);
    throw error;
  }
}

function readBaseline(path: string | undefined): Map<string, CaseOutcome> {
  if (path === undefined) return new Map();
  try {
    return loadBaseline(path);
  } catch (error) {
    if (error instanceof BaselineError) throw new InputError(error.message);
    throw error;
  }
}
