/**
 * The reports of a host-test run (Autobahn-style): per (agent, case) a JSON file with the outcome,
 * the violations and their evidence, the driver's step results and the wire log, plus the case's
 * trace (`catsim.trace.v1` JSON lines, re-judged by `catsim judge`); an `index.json` of every
 * case; a `summary.md` table (cases x agents, first violation, how to re-run it); and JUnit XML.
 */
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { traceText } from '../sim/trace/recorder.ts';
import type { CaseOutcome, CaseRun } from './run-case.ts';

/** Report schema name, in every per-case file and the index. */
export const REPORT_SCHEMA = 'catsim.blackbox-report.v1';

/** One row of `index.json`. */
export interface IndexEntry {
  readonly agent: string;
  readonly case: string;
  readonly transport: string;
  readonly outcome: CaseOutcome;
  readonly line: string;
  /** The command line that re-runs this case (absent in the index files of catsim 0.x before it was added). */
  readonly rerun: string;
  /** Paths relative to the output folder. */
  readonly report: string;
  readonly trace: string;
}

/** The file stem of one run: `case@transport`. */
export function runStem(run: { readonly case: string; readonly transport: string }): string {
  return `${run.case}@${run.transport}`;
}

/**
 * Where one run's reports go: the `--out` folder, or, once a write there failed (the disk filled,
 * the folder was removed or made read-only meanwhile), a fallback folder in the system's temporary
 * directory, `<tmpdir>/catsim-reports-PID`. At the switch every file this run had already written
 * is written again into the fallback folder, so the fallback holds the whole run, and one line on
 * stderr (through `warn`) names both folders; the command then exits 2 (`cli/output.ts`
 * `exitAfterWrites`). When the fallback cannot be written either, `warn` says the reports are lost
 * and why, and later writes are skipped. Files are written whole or not at all
 * (`writeFileAtomically`: beside the path, then renamed over it).
 */
export class ReportFolder {
  /** The folder the reports are written to now: the asked one, the fallback one, or null once both failed. */
  private root: string | null;
  /** Every file written this run (path relative to the folder, and text), to rewrite them at a switch. */
  private readonly written = new Map<string, string>();
  /** The fallback folder the reports were moved to after a failed write, or null while none failed. */
  moved: string | null = null;

  /**
   * @param asked the `--out` folder (made, with its parents, at the first write).
   * @param warn prints one line to the user (stderr), without its newline.
   * @param fs the file calls (the command line passes Node's, with its atomic write; tests pass ones that fail).
   */
  constructor(
    readonly asked: string,
    private readonly warn: (line: string) => void,
    private readonly fs: ReportFs,
  ) {
    this.root = asked;
  }

  /** The folder the reports are in now (the asked one unless a write failed), or null when they are lost. */
  get folder(): string | null {
    return this.root;
  }

  /** Whether every report went where it was asked for. */
  get allWritten(): boolean {
    return this.moved === null;
  }

  /** Writes `text` to `relative` (a path under the folder, `/`-separated), switching to the fallback folder on a failure. */
  write(relative: string, text: string): void {
    this.written.set(relative, text);
    if (this.root === null) return;
    try {
      this.put(this.root, relative, text);
      return;
    } catch (error) {
      if (this.moved !== null) {
        this.warn(
          `catsim: could not write ${join(this.root, relative)} either (${codeOf(error)}): the reports are lost`,
        );
        this.root = null;
        return;
      }
      const fallback = join(tmpdir(), `catsim-reports-${process.pid}`);
      this.moved = fallback;
      try {
        for (const [path, content] of this.written) this.put(fallback, path, content);
        this.root = fallback;
        this.warn(
          `catsim: could not write ${join(this.asked, relative)} (${codeOf(error)}); wrote this run's reports to ${fallback}/ instead`,
        );
      } catch (again) {
        this.root = null;
        this.warn(
          `catsim: could not write ${join(this.asked, relative)} (${codeOf(error)}), nor to ${fallback}/ (${codeOf(again)}): the reports are lost`,
        );
      }
    }
  }

  /**
   * The text of `relative` in the asked folder, or undefined when it cannot be read, or when the
   * reports were moved to the fallback folder (which holds this run alone).
   */
  previous(relative: string): string | undefined {
    if (this.moved !== null) return undefined;
    try {
      return this.fs.readFileSync(join(this.asked, relative));
    } catch {
      return undefined;
    }
  }

  private put(root: string, relative: string, text: string): void {
    const path = join(root, relative);
    this.fs.mkdirSync(dirname(path));
    this.fs.writeFileAtomically(path, text);
  }
}

/** The file calls a {@link ReportFolder} makes; a seam for tests. */
export interface ReportFs {
  /** Makes a folder and its parents; no error when it exists. */
  mkdirSync(path: string): void;
  /** Writes a file whole or not at all. */
  writeFileAtomically(path: string, text: string): void;
  /** Reads a UTF-8 file. */
  readFileSync(path: string): string;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/**
 * Writes one run's case report (`AGENT/CASE@TRANSPORT.json`) and its trace
 * (`AGENT/CASE@TRANSPORT.trace.jsonl`) into `folder`, as soon as the case is done, so a run cut
 * short keeps the cases it finished.
 * @param rerun the command line that re-runs this case.
 * @returns the case's row of `index.json`.
 */
export function writeCaseReport(folder: ReportFolder, run: CaseRun, rerun: string): IndexEntry {
  const stem = runStem(run);
  const report = `${run.agent}/${stem}.json`;
  const trace = `${run.agent}/${stem}.trace.jsonl`;
  folder.write(trace, traceText(run.header, run.events));
  folder.write(
    report,
    `${JSON.stringify(
      {
        schema: REPORT_SCHEMA,
        agent: run.agent,
        case: run.case,
        transport: run.transport,
        outcome: run.outcome,
        line: run.line,
        hostFailure: run.hostFailure,
        violations: run.violations,
        steps: run.steps,
        repeat: run.repeat ?? null,
        rerun,
        trace,
        stderr: run.stderr,
        wireLog: run.wireLog,
        ...(run.modelRequests === undefined ? {} : { modelRequests: run.modelRequests }),
      },
      null,
      2,
    )}\n`,
  );
  return {
    agent: run.agent,
    case: run.case,
    transport: run.transport,
    outcome: run.outcome,
    line: run.line,
    rerun,
    report,
    trace,
  };
}

/**
 * Writes `index.json`, `summary.md` and `junit.xml` of `folder`: this run's rows, after the rows an
 * earlier run left in the folder's `index.json` for other agents, cases or transports (so several
 * hosts, or a re-run of one case, reported into one `--out` make one table; a row of this run
 * replaces the earlier row of the same agent, case and transport). An earlier index that is not
 * this schema's, or that cannot be read, is replaced; an earlier row whose report file is gone is
 * dropped. Rows keep the earlier index's order (a replaced row keeps its place), then this run's
 * new rows in case order.
 * @returns every row written.
 */
export function writeIndex(folder: ReportFolder, entries: readonly IndexEntry[]): IndexEntry[] {
  const mine = new Map(entries.map((entry) => [rowKey(entry), entry]));
  const earlier = earlierRows(folder);
  const kept = new Set(earlier.map(rowKey));
  const rows = [
    ...earlier.map((entry) => mine.get(rowKey(entry)) ?? entry),
    ...entries.filter((entry) => !kept.has(rowKey(entry))),
  ];
  folder.write('index.json', `${JSON.stringify({ schema: REPORT_SCHEMA, runs: rows }, null, 2)}\n`);
  folder.write('summary.md', summaryMarkdown(rows));
  folder.write('junit.xml', junitXml(rows));
  return rows;
}

/**
 * Writes every report of `runs` into `folder`: each case's files ({@link writeCaseReport}), then
 * the index, summary and JUnit XML ({@link writeIndex}).
 * @param rerun the command line that re-runs one case.
 */
export function writeReports(
  folder: ReportFolder,
  runs: readonly CaseRun[],
  rerun: (run: CaseRun) => string,
): IndexEntry[] {
  return writeIndex(
    folder,
    runs.map((run) => writeCaseReport(folder, run, rerun(run))),
  );
}

function rowKey(entry: Pick<IndexEntry, 'agent' | 'case' | 'transport'>): string {
  return `${entry.agent}\u0000${entry.case}\u0000${entry.transport}`;
}

/** The rows of the folder's earlier `index.json` whose report is still there (their `rerun` read from the report when the index lacks it). */
function earlierRows(folder: ReportFolder): IndexEntry[] {
  const text = folder.previous('index.json');
  if (text === undefined) return [];
  let index: { schema?: unknown; runs?: unknown };
  try {
    index = JSON.parse(text) as typeof index;
  } catch {
    return [];
  }
  if (index.schema !== REPORT_SCHEMA || !Array.isArray(index.runs)) return [];
  const rows: IndexEntry[] = [];
  for (const row of index.runs as Partial<IndexEntry>[]) {
    if (typeof row.agent !== 'string' || typeof row.case !== 'string' || typeof row.transport !== 'string') continue;
    if (typeof row.report !== 'string' || typeof row.trace !== 'string' || typeof row.line !== 'string') continue;
    const report = folder.previous(row.report);
    if (report === undefined) continue;
    let rerun = row.rerun;
    if (typeof rerun !== 'string') {
      try {
        rerun = String((JSON.parse(report) as { rerun?: unknown }).rerun ?? '');
      } catch {
        rerun = '';
      }
    }
    rows.push({ ...(row as IndexEntry), rerun });
  }
  return rows;
}

/** The summary table: one row per case and transport, one column per agent, then each non-OK run's line and re-run command. */
export function summaryMarkdown(runs: readonly IndexEntry[]): string {
  const agents = [...new Set(runs.map((run) => run.agent))];
  const rows = [...new Set(runs.map(runStem))];
  const cell = (row: string, agent: string): string =>
    runs.find((run) => run.agent === agent && runStem(run) === row)?.outcome ?? '';
  const lines = [
    '# catsim host-test',
    '',
    `| case | ${agents.join(' | ')} |`,
    `|---|${agents.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row} | ${agents.map((agent) => cell(row, agent)).join(' | ')} |`),
    '',
  ];
  const bad = runs.filter((run) => run.outcome !== 'OK');
  if (bad.length > 0) {
    lines.push('## Not OK', '');
    for (const run of bad)
      lines.push(`- **${run.agent} / ${runStem(run)}: ${run.outcome}**: ${run.line}`, `  re-run: \`${run.rerun}\``);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** JUnit XML: one suite per agent, one test case per case and transport; FAILED, HOST_FAILED and UNDECIDED fail, UNSUPPORTED is skipped. */
export function junitXml(runs: readonly IndexEntry[]): string {
  const agents = [...new Set(runs.map((run) => run.agent))];
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="catsim host-test">'];
  for (const agent of agents) {
    const mine = runs.filter((run) => run.agent === agent);
    const failures = mine.filter((run) => isFailure(run.outcome)).length;
    out.push(
      `  <testsuite name="${xml(agent)}" tests="${mine.length}" failures="${failures}" skipped="${mine.filter((run) => run.outcome === 'UNSUPPORTED').length}">`,
    );
    for (const run of mine) {
      out.push(`    <testcase classname="${xml(agent)}" name="${xml(runStem(run))}">`);
      if (isFailure(run.outcome)) out.push(`      <failure message="${xml(`${run.outcome}: ${run.line}`)}"/>`);
      if (run.outcome === 'UNSUPPORTED') out.push(`      <skipped message="${xml(run.line)}"/>`);
      if (run.outcome === 'NON-STRICT') out.push(`      <system-out>${xml(`NON-STRICT: ${run.line}`)}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** Whether an outcome fails the run (exit 1): FAILED, HOST_FAILED, UNDECIDED. */
export function isFailure(outcome: CaseOutcome): boolean {
  return outcome === 'FAILED' || outcome === 'HOST_FAILED' || outcome === 'UNDECIDED';
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
