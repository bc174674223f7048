/**
 * `catsim host-test --agent NAME [--cases GLOB] [--transport stdio|http|both] [--out DIR]
 * [--repeat N] [--timeout-factor N] [--stall-ms N] [--jobs N] [--baseline FILE] -- CMD ARGS`: puts a host in any
 * language under catsim's simulated servers (docs/BLACK-BOX.md). Spawns the host once per case and
 * transport (N times with `--repeat`), judges each case's wire record with the oracle, prints one
 * line per case and writes the reports (per case JSON and trace, index.json, summary.md, junit.xml)
 * under `--out`. With `--jobs N`, up to N cases run at once, each on its own loopback ports; the
 * lines are printed and the reports written in case order, the same bytes as a serial run's.
 */
import { BaselineError, baselineStanding, loadBaseline } from '../../blackbox/baseline.ts';
import { CaseError, caseTransports, loadCases, type BlackBoxCase } from '../../blackbox/case.ts';
import { foldRepeats } from '../../blackbox/repeat.ts';
import { ReportFolder, runStem, writeCaseReport, writeIndex, type IndexEntry } from '../../blackbox/reports.ts';
import { runCase, type CaseOutcome, type CaseRun, type CaseTransport } from '../../blackbox/run-case.ts';
import { STALL_MS_DEFAULT } from '../../blackbox/stall.ts';
import { COUNT_MAX } from '../counts.ts';
import { EXIT, InputError } from '../errors.ts';
import { assertWritableDirectory, exitAfterWrites, lockFolder, REPORT_FILES } from '../output.ts';

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
  /**
   * How many cases run at once (>= 1; default 1, one after the other). Each case has its own
   * world, ports and host process group either way; only the real clock is shared, so a host that
   * needs a core to itself may run slower and meet the stall window or the timeout sooner.
   */
  jobs?: number;
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
 *   cases of another transport), a bad case file, a bad baseline file, an `--out` folder that cannot be
 *   written (checked before any case runs) or that another catsim is writing (its lock), or a
 *   missing host command. A report that cannot be written at the end goes with the whole run's
 *   reports to a fallback folder named on stderr, and the exit code is then 2.
 */
export async function hostTestCommand(args: HostTestArgs): Promise<number> {
  const cases = selectCases(args);
  const baseline = readBaseline(args.baseline);
  assertWritableDirectory(args.out, '--out');
  const transports: CaseTransport[] = args.transport === 'both' ? ['http', 'stdio'] : [args.transport];
  if (cases.every((spec) => caseTransports(spec, transports).length === 0))
    throw new InputError(
      `--cases ${JSON.stringify(args.cases)}: no case selected runs on ${transports.join(' or ')} (${cases.map((spec) => `${spec.name}: ${(spec.transports ?? []).join(', ')}`).join('; ')})`,
    );
  const factor = args.timeoutFactor ?? 1;
  // A Node.js timer waits at most 2^31 - 1 ms; a longer one fires after 1 ms, and every host was
  // killed at once as "did not finish within 15000000000 ms".
  const longest = cases.reduce((most, spec) => (spec.timeoutMs > most.timeoutMs ? spec : most));
  if (longest.timeoutMs * factor > COUNT_MAX)
    throw new InputError(
      `--timeout-factor ${factor} is too large: case ${longest.name} would wait ${longest.timeoutMs * factor} ms, and a timer waits at most ${COUNT_MAX} ms (give at most ${Math.floor(COUNT_MAX / longest.timeoutMs)})`,
    );
  const stallMs = (args.stallMs ?? STALL_MS_DEFAULT) * factor;
  const planned = cases.flatMap((spec) =>
    caseTransports(spec, transports).map((transport) => ({
      spec: { ...spec, timeoutMs: spec.timeoutMs * factor },
      transport,
    })),
  );
  // Ctrl-C, SIGTERM or SIGHUP: the hosts under way are cut off (none is left running), no case
  // starts, and the cases done before are printed and reported as usual; a case cut is not.
  const interrupt = new AbortController();
  const onSignal = (): void => {
    if (interrupt.signal.aborted) return;
    process.stderr.write('catsim: interrupted: ending the hosts of the cases under way\n');
    interrupt.abort();
  };
  const runOne = async ({ spec, transport }: (typeof planned)[number]): Promise<CaseRun> => {
    const repeats: CaseRun[] = [];
    for (let i = 0; i < args.repeat && (i === 0 || !interrupt.signal.aborted); i += 1)
      repeats.push(
        await runCase(spec, args.agent, transport, args.command, {
          stallMs,
          modelEndpoint: args.modelEndpoint === true,
          interrupt: interrupt.signal,
        }),
      );
    return foldRepeats(repeats);
  };
  const rerun = (run: CaseRun): string =>
    `catsim host-test --agent ${args.agent} --cases ${run.case} --transport ${run.transport}${factor > 1 ? ` --timeout-factor ${factor}` : ''}${args.stallMs === undefined ? '' : ` --stall-ms ${args.stallMs}`}${args.modelEndpoint === true ? ' --model-endpoint' : ''} -- ${args.command.join(' ')}`;
  // One run at a time per folder: a second one would replace this one's index, summary and JUnit XML.
  const unlock = lockFolder('--out', args.out);
  const folder = new ReportFolder(args.out, (line) => process.stderr.write(`${line}\n`), REPORT_FILES);
  const entries: IndexEntry[] = [];
  let failing = 0;
  for (const name of SIGNALS) process.on(name, onSignal);
  try {
    try {
      await inOrder(
        planned,
        args.jobs ?? 1,
        runOne,
        (run) => {
          if (interrupt.signal.aborted) return;
          const standing = baselineStanding(runStem(run), run.outcome, baseline);
          if (standing === 'stale' || standing === 'changed' || (standing === 'none' && !passes(run.outcome)))
            failing += 1;
          process.stdout.write(`${lineOf(run, standing, baseline.get(runStem(run)))}\n`);
          // Written as soon as the case is done: a run cut short (or failing later) keeps the cases it finished.
          entries.push(writeCaseReport(folder, run, rerun(run)));
        },
        () => interrupt.signal.aborted,
      );
    } finally {
      for (const name of SIGNALS) process.off(name, onSignal);
      writeIndex(folder, entries);
    }
    process.stdout.write(
      `${entries.length - failing} of ${entries.length} cases pass${baseline.size > 0 ? ' (OK, NON-STRICT, or as the baseline expects)' : ' (OK or NON-STRICT)'}; reports in ${folder.folder ?? args.out}/ (summary.md, index.json, junit.xml)\n`,
    );
    if (interrupt.signal.aborted) {
      process.stdout.write(
        `interrupted after ${entries.length} of ${planned.length} cases: the ${entries.length} above are reported, the others were cut off or never started\n`,
      );
      return exitAfterWrites(EXIT.violation, folder.allWritten);
    }
    return exitAfterWrites(failing === 0 ? EXIT.clean : EXIT.violation, folder.allWritten);
  } finally {
    unlock();
  }
}

/** The signals that interrupt host-test (a terminal's Ctrl-C, a CI timeout or `docker stop`, a closed terminal). */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `work` on every item, at most `jobs` at once, and hands each result to `done` in the items'
 * order: a result is held until every earlier item's result was handed over, so `done` sees the
 * same sequence whatever `jobs` is and whichever item finishes first. Once `stop` returns true no
 * item starts; those already running finish and are handed over as usual.
 * @throws the first error a `work` threw, once the items already running have finished (their
 *   hosts cleaned up); no item starts after it, and no result after the failed item is handed over.
 */
export async function inOrder<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T) => Promise<R>,
  done: (result: R) => void,
  stop: () => boolean = () => false,
): Promise<void> {
  const results = new Map<number, R>();
  let next = 0;
  let handed = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (next < items.length && failure === null && !stop()) {
      const index = next;
      next += 1;
      try {
        results.set(index, await work(items[index] as T));
      } catch (error) {
        failure ??= { error };
        return;
      }
      while (failure === null && results.has(handed)) {
        done(results.get(handed) as R);
        results.delete(handed);
        handed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
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

/**
 * Checks an agent name (`host-test --agent`, `serve --agent`): it names the folder of the agent's
 * reports under `--out`, so it is letters, digits, `-`, `_` and `.`, beginning with a letter, a
 * digit or `_` (`..` would put the reports beside `--out`, `.` into it among index.json and the rest).
 * @throws InputError (exit 2), e.g. `--agent "..": use letters, digits, '-', '_' and '.', beginning with a letter, a digit or '_'`.
 */
export function assertAgentName(agent: string): void {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(agent))
    throw new InputError(
      `--agent ${JSON.stringify(agent)}: use letters, digits, '-', '_' and '.', beginning with a letter, a digit or '_'`,
    );
}

function selectCases(args: HostTestArgs): BlackBoxCase[] {
  assertAgentName(args.agent);
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
