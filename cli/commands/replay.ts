/**
 * `catsim replay`: runs one round (without the rounds before it), writes its trace as JSON
 * lines, and prints a readable timeline and any violation, explained.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolveCore } from '../../sim/campaign/cores.ts';
import { checkPlan, runAndCheck } from '../../sim/campaign/round-check.ts';
import type { RoundPlan } from '../../sim/plan/types.ts';
import { loadCatalog } from '../../sim/plan/catalog.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import { traceText } from '../../sim/trace/recorder.ts';
import { EXIT, InputError } from '../errors.ts';
import { formatTimeline } from '../format/timeline.ts';

/** Arguments of `catsim replay`. */
export interface ReplayArgs {
  seed?: string;
  round?: number;
  /** A plan file (`catsim shrink` writes one) to run instead of generating the round's plan. */
  plan?: string;
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
  const { summary, run, plan, label } = args.plan === undefined ? await fromSeed(args) : await fromPlanFile(args.plan, args.core);
  const tracePath = args.trace ?? `catsim-trace-${plan.seed}-${plan.round}${args.plan === undefined ? '' : '-plan'}.jsonl`;
  writeFileSync(tracePath, traceText(run.header, run.events));
  const out: string[] = [
    `catsim replay  seed=${plan.seed}  round=${plan.round}  scenario=${label}  core=${args.core}${args.plan === undefined ? '' : `  plan=${args.plan}`}`,
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

async function fromSeed(args: ReplayArgs) {
  if (args.seed === undefined || args.round === undefined) throw new InputError('replay needs --seed and --round, or --plan FILE');
  const scenario = loadScenario(args.scenario);
  const catalog = args.catalog === undefined ? undefined : loadCatalog(args.catalog);
  const checked = await runAndCheck(args.seed, args.round, scenario, resolveCore(args.core), args.core, catalog?.pool);
  return { ...checked, label: catalog === undefined ? scenario.name : `${scenario.name}+catalog:${catalog.name}` };
}

/** Reads a plan file. @throws InputError naming the file when it is not a catsim.plan.v1 plan. */
async function fromPlanFile(path: string, core: string) {
  let plan: RoundPlan;
  try {
    plan = JSON.parse(readFileSync(path, 'utf8')) as RoundPlan;
  } catch (error) {
    throw new InputError(`${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON'}`);
  }
  if (plan?.schema !== 'catsim.plan.v1' || !Array.isArray(plan.servers) || typeof plan.roundSeed !== 'string') {
    throw new InputError(`${path}: not a catsim.plan.v1 plan (written by catsim shrink)`);
  }
  const checked = await checkPlan(plan, resolveCore(core), core);
  return { ...checked, label: `${plan.scenario} (plan file)` };
}
