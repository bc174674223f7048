/**
 * `catsim replay`: runs one round (without the rounds before it), writes its trace as JSON
 * lines, and prints a readable timeline and any violation, explained.
 */
import { loadCore } from '../../cores/index.ts';
import { ROUND_TIMEOUT_MS_DEFAULT } from '../../runner/campaign.ts';
import { PlanThread, type PlanOutcome } from '../../runner/plan-thread.ts';
import type { RoundPlan } from '../../sim/plan/types.ts';
import { loadCatalog } from '../../sim/plan/catalog.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import { readInputJson } from '../../sim/plan/input-file.ts';
import { planProblem } from '../../sim/plan/plan-schema.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import { traceText } from '../../sim/trace/recorder.ts';
import { unjudgedIn, type Capability } from '../../oracle/not-judged.ts';
import { EXIT, InputError } from '../errors.ts';
import { notJudgedLines } from '../format/not-judged-lines.ts';
import { formatTimeline } from '../format/timeline.ts';
import { inputFiles } from '../input-files.ts';
import { assertNotInputs, assertWritable, exitAfterWrites, writeOutput } from '../output.ts';

/** Arguments of `catsim replay`. */
export interface ReplayArgs {
  seed?: string;
  round?: number;
  /**
   * A plan file (`catsim shrink` writes one) to run instead of generating the round's plan. It
   * holds its own seed, round and scenario, so `seed`, `round`, `scenario` and `catalog` must not
   * be given with it.
   */
  plan?: string;
  /** Scenario name or path; default `default`. */
  scenario?: string;
  /** The catalog file the campaign ran with (`run --catalog`), if any. */
  catalog?: string;
  core: string;
  trace?: string;
  timeline: boolean;
  /** Capabilities accepted as not judged (`--not-judged`), besides the scenario's `notJudged`. */
  notJudged?: Capability[];
  /** Real ms the round may run on its worker thread (`--round-timeout`, in seconds); default runner/campaign.ts `ROUND_TIMEOUT_MS_DEFAULT`. */
  roundTimeoutMs?: number;
}

/**
 * Replays one round on a worker thread; exit 1 when it violates an invariant or is UNDECIDED, or
 * when it is abandoned (past `--round-timeout`, or out of memory: no trace is written then), 2 when the trace could
 * not be written where asked (it is then written to a fallback file, named on stderr).
 * Everything that can be refused is refused before the round runs: the scenario, catalog or plan
 * file, the core, and the trace path.
 * @throws ScenarioError (a bad scenario or catalog file), InputError (a bad plan file, a plan file
 *   with `--seed`, `--round`, `--scenario` or `--catalog`, or a trace path that cannot be
 *   written or names an input file, such as the `--plan` file), UnknownCoreError: exit 2.
 */
export async function replayCommand(args: ReplayArgs): Promise<number> {
  const { plan, label, accepted } = args.plan === undefined ? fromSeed(args) : fromPlanFile(args.plan, args);
  // Loaded here only to refuse a bad --core before the round (exit 2); the round runs on a worker thread.
  await loadCore(args.core);
  const tracePath =
    args.trace ?? `catsim-trace-${plan.seed}-${plan.round}${args.plan === undefined ? '' : '-plan'}.jsonl`;
  assertWritable(tracePath, '--trace');
  assertNotInputs(
    [['--trace', tracePath]],
    inputFiles({ ...args, scenario: args.plan === undefined ? (args.scenario ?? 'default') : undefined }),
  );
  const outcome = await runOnThread(plan, args);
  if (outcome.kind === 'abandoned') {
    const [violation] = outcome.summary.violations;
    process.stdout.write(
      `${[
        `catsim replay  seed=${plan.seed}  round=${plan.round}  scenario=${label}  core=${args.core}${args.plan === undefined ? '' : `  plan=${args.plan}`}`,
        `faults enabled: ${plan.faults.join(' ') || '(none)'}`,
        `trace: not written (the round was abandoned: it has no trace)`,
        `VIOLATION ${violation?.invariant} ${violation?.code} at seq -: ${violation?.evidence}`,
      ].join('\n')}\n`,
    );
    return EXIT.violation;
  }
  const { summary, run } = outcome;
  const written = writeOutput(
    { path: tracePath, what: 'trace', stem: `catsim-trace-${plan.seed}-${plan.round}`, extension: '.jsonl' },
    traceText(run.header, run.events),
  );
  const out: string[] = [
    `catsim replay  seed=${plan.seed}  round=${plan.round}  scenario=${label}  core=${args.core}${args.plan === undefined ? '' : `  plan=${args.plan}`}`,
    `faults enabled: ${summary.faults.join(' ') || '(none)'}`,
    `trace: ${tracePath} (${run.events.length} events, sha256 ${summary.traceDigest})`,
  ];
  if (args.timeline) out.push('timeline:', formatTimeline(run.events));
  out.push(
    `round ${run.status}${run.status === 'undecided' ? ' (event budget exhausted: UNDECIDED fails the gate)' : ''}`,
  );
  if (summary.violations.length === 0) out.push('no violations');
  for (const violation of summary.violations)
    out.push(
      `VIOLATION ${violation.invariant} ${violation.code} at seq ${violation.seq ?? '-'}: ${violation.evidence}`,
    );
  const unjudged = notJudgedLines(unjudgedIn(summary.metrics), [...accepted, ...(args.notJudged ?? [])]);
  out.push(...unjudged.lines);
  process.stdout.write(`${out.join('\n')}\n`);
  return exitAfterWrites(
    summary.violations.length > 0 || run.status === 'undecided' || unjudged.unaccepted ? EXIT.violation : EXIT.clean,
    written,
  );
}

/**
 * Runs and checks `plan` on a worker thread bounded by `--round-timeout` and the thread's heap: a
 * stuck or heap-exhausting core makes the round abandoned (`CORE_FAILED TIMED_OUT` or
 * `OUT_OF_MEMORY`) instead of hanging or killing catsim.
 */
async function runOnThread(plan: RoundPlan, args: ReplayArgs): Promise<PlanOutcome> {
  const thread = new PlanThread({ roundTimeoutMs: args.roundTimeoutMs ?? ROUND_TIMEOUT_MS_DEFAULT });
  try {
    return await thread.run(plan, args.core);
  } finally {
    await thread.close();
  }
}

/** The plan of round `--round` of campaign `--seed` (what `runAndCheck` would run), its label, and the scenario's `notJudged`. */
function fromSeed(args: ReplayArgs): { plan: RoundPlan; label: string; accepted: readonly Capability[] } {
  if (args.seed === undefined || args.round === undefined)
    throw new InputError('replay needs --seed and --round, or --plan FILE');
  const scenario = loadScenario(args.scenario ?? 'default');
  const catalog = args.catalog === undefined ? undefined : loadCatalog(args.catalog);
  const plan = generatePlan(args.seed, args.round, scenario, catalog?.pool);
  return {
    plan,
    label: catalog === undefined ? scenario.name : `${scenario.name}+catalog:${catalog.name}`,
    accepted: scenario.notJudged ?? [],
  };
}

/** The options a plan file makes meaningless: it carries its own seed, round and scenario. */
const PLAN_HOLDS = ['seed', 'round', 'scenario', 'catalog'] as const;

/**
 * Reads and validates a plan file (sim/plan/plan-schema.ts).
 * @throws InputError `--plan runs the seed, round and scenario of its file: drop --seed` when an
 *   option the plan overrides is given too; `PATH: PROBLEM` when the file is missing, a
 *   directory, not JSON, not a catsim.plan.v1 plan, or a plan of the wrong shape, e.g.
 *   `x.plan.json: "servers[0].history" must be an array of revision steps, got "x"`.
 */
function fromPlanFile(
  path: string,
  args: ReplayArgs,
): { plan: RoundPlan; label: string; accepted: readonly Capability[] } {
  const given = PLAN_HOLDS.filter((option) => args[option] !== undefined);
  if (given.length > 0)
    throw new InputError(
      `--plan runs the seed, round and scenario of its file: drop ${given.map((option) => `--${option}`).join(' and ')}`,
    );
  const data = readInputJson(path, (message) => new InputError(message));
  if ((data as Partial<RoundPlan> | null)?.schema !== 'catsim.plan.v1')
    throw new InputError(`${path}: not a catsim.plan.v1 plan (written by catsim shrink)`);
  const problem = planProblem(data);
  if (problem !== undefined) throw new InputError(`${path}: ${problem}`);
  const plan = data as RoundPlan;
  return { plan, label: `${plan.scenario} (plan file)`, accepted: [] };
}
