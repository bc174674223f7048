/**
 * `catsim replay`: runs one round (without the rounds before it), writes its trace as JSON
 * lines, and prints a readable timeline and any violation, explained.
 */
import { writeFileSync } from 'node:fs';
import { resolveCore } from '../../sim/campaign/cores.ts';
import { runAndCheck } from '../../sim/campaign/round-check.ts';
import { loadCatalog } from '../../sim/plan/catalog.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import { traceText } from '../../sim/trace/recorder.ts';
import { EXIT } from '../errors.ts';
import { formatTimeline } from '../format/timeline.ts';

/** Arguments of `catsim replay`. */
export interface ReplayArgs {
  seed: string;
  round: number;
  scenario: string;
  /** The catalog file the campaign ran with (`run --catalog`), if any. */
  catalog?: string;
  core: string;
  trace?: string;
  timeline: boolean;
}

/**
 * Replays one round; exit 1 when it violates an invariant or is UNDECIDED.
 * @throws ScenarioError (a bad scenario or catalog file), UnknownCoreError: exit 2.
 */
export async function replayCommand(args: ReplayArgs): Promise<number> {
  const scenario = loadScenario(args.scenario);
  const catalog = args.catalog === undefined ? undefined : loadCatalog(args.catalog);
  const { summary, run } = await runAndCheck(args.seed, args.round, scenario, resolveCore(args.core), args.core, catalog?.pool);
  const scenarioLabel = catalog === undefined ? scenario.name : `${scenario.name}+catalog:${catalog.name}`;
  const tracePath = args.trace ?? `catsim-trace-${args.seed}-${args.round}.jsonl`;
  writeFileSync(tracePath, traceText(run.header, run.events));
  const out: string[] = [
    `catsim replay  seed=${args.seed}  round=${args.round}  scenario=${scenarioLabel}  core=${args.core}`,
    `faults enabled: ${summary.faults.join(' ') || '(none)'}`,
    `trace: ${tracePath} (${run.events.length} events, sha256 ${summary.traceDigest})`,
  ];
  if (args.timeline) out.push('timeline:', formatTimeline(run.events));
  out.push(`round ${run.status}${run.status === 'undecided' ? ' (event budget exhausted: UNDECIDED fails the gate)' : ''}`);
  if (summary.violations.length === 0) out.push('no violations');
  for (const violation of summary.violations) out.push(`VIOLATION ${violation.invariant} ${violation.code} at seq ${violation.seq ?? '-'}: ${violation.evidence}`);
  process.stdout.write(`${out.join('\n')}\n`);
  return summary.violations.length > 0 || run.status === 'undecided' ? EXIT.violation : EXIT.clean;
}
