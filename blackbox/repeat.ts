/**
 * `host-test --repeat N`: runs a case N times and folds the runs into one. The servers answer
 * each request the same way in every run, so a host whose wire differs between runs is itself
 * non-deterministic (threads, timers): that is reported, with the first event where the traces
 * part, and a verdict that cannot be reproduced is UNDECIDED unless some run failed outright.
 */
import { traceText } from '../sim/trace/recorder.ts';
import type { CaseOutcome, CaseRun } from './run-case.ts';

/** Outcomes from worst to best: the folded run takes the worst. */
const SEVERITY: readonly CaseOutcome[] = ['HOST_FAILED', 'FAILED', 'UNSUPPORTED', 'UNDECIDED', 'NON-STRICT', 'OK'];

/** Folds N runs of one case and transport (N >= 1) into the run to report, with `repeat` filled in. */
export function foldRepeats(runs: readonly CaseRun[]): CaseRun {
  const worst = [...runs].sort((a, b) => SEVERITY.indexOf(a.outcome) - SEVERITY.indexOf(b.outcome))[0] as CaseRun;
  const texts = runs.map((run) => traceText(run.header, run.events).split('\n'));
  const differing = texts.findIndex((text) => text.join('\n') !== texts[0]?.join('\n'));
  const repeat = { runs: runs.length, outcomes: runs.map((run) => run.outcome), wireDiffers: differing > 0 };
  if (differing <= 0) return { ...worst, repeat };
  const line = firstDifference(texts[0] as string[], texts[differing] as string[]);
  const note = `the host's wire differed between run 1 and run ${differing + 1} (${line})`;
  const outcome: CaseOutcome = worst.outcome === 'OK' || worst.outcome === 'NON-STRICT' ? 'UNDECIDED' : worst.outcome;
  return {
    ...worst,
    outcome,
    line: outcome === worst.outcome ? `${worst.line}; ${note}` : `${worst.case}: ${note}`,
    repeat,
  };
}

/** Where two traces' lines first part: the event index and both event types. */
function firstDifference(a: string[], b: string[]): string {
  const at = a.findIndex((line, index) => line !== b[index]);
  const index = at < 0 ? a.length : at;
  const type = (line: string | undefined): string =>
    line === undefined || line === '' ? 'nothing' : String((JSON.parse(line) as { type?: string }).type);
  return `first at seq ${index - 1}: ${type(a[index])} vs ${type(b[index])}`;
}
