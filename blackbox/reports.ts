/**
 * The reports of a host-test run (Autobahn-style): per (agent, case) a JSON file with the outcome,
 * the violations and their evidence, the driver's step results and the wire log, plus the case's
 * trace (`catsim.trace.v1` JSON lines, re-judged by `catsim judge`); an `index.json` of every
 * case; a `summary.md` table (cases x agents, first violation, how to re-run it); and JUnit XML.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  /** Paths relative to the output folder. */
  readonly report: string;
  readonly trace: string;
}

/** The file stem of one run: `case@transport`. */
export function runStem(run: Pick<CaseRun, 'case' | 'transport'>): string {
  return `${run.case}@${run.transport}`;
}

/** Writes every report of `runs` under `outDir`; `rerun` is the command line that re-runs one case (the case name is appended as `--cases NAME`). */
export function writeReports(outDir: string, runs: readonly CaseRun[], rerun: (run: CaseRun) => string): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const run of runs) {
    const dir = join(outDir, run.agent);
    mkdirSync(dir, { recursive: true });
    const stem = runStem(run);
    const report = `${run.agent}/${stem}.json`;
    const trace = `${run.agent}/${stem}.trace.jsonl`;
    writeFileSync(join(outDir, trace), traceText(run.header, run.events));
    writeFileSync(
      join(outDir, report),
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
          rerun: rerun(run),
          trace,
          stderr: run.stderr,
          wireLog: run.wireLog,
          ...(run.modelRequests === undefined ? {} : { modelRequests: run.modelRequests }),
        },
        null,
        2,
      )}\n`,
    );
    entries.push({
      agent: run.agent,
      case: run.case,
      transport: run.transport,
      outcome: run.outcome,
      line: run.line,
      report,
      trace,
    });
  }
  writeFileSync(join(outDir, 'index.json'), `${JSON.stringify({ schema: REPORT_SCHEMA, runs: entries }, null, 2)}\n`);
  writeFileSync(join(outDir, 'summary.md'), summaryMarkdown(runs, rerun));
  writeFileSync(join(outDir, 'junit.xml'), junitXml(runs));
  return entries;
}

/** The summary table: one row per case and transport, one column per agent, then each non-OK run's line and re-run command. */
export function summaryMarkdown(runs: readonly CaseRun[], rerun: (run: CaseRun) => string): string {
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
      lines.push(`- **${run.agent} / ${runStem(run)}: ${run.outcome}**: ${run.line}`, `  re-run: \`${rerun(run)}\``);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** JUnit XML: one suite per agent, one test case per case and transport; FAILED, HOST_FAILED and UNDECIDED fail, UNSUPPORTED is skipped. */
export function junitXml(runs: readonly CaseRun[]): string {
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
