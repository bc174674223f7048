/**
 * `catsim shrink --seed S --round R`: reduces a failing round to the smallest plan that still
 * breaks the same invariant, prints the shrunk plan as a timeline, and writes the plan (JSON, for
 * `catsim replay --plan FILE`) and a Mermaid `sequenceDiagram` of it. Both paths are checked
 * before the shrink starts (it runs up to `--attempts` rounds).
 */
import { loadCore } from '../../cores/index.ts';
import { loadCatalog } from '../../sim/plan/catalog.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import type { RoundPlan } from '../../sim/plan/types.ts';
import {
  AbandonedPlanError,
  PlanDoesNotBreakError,
  shrinkPlan,
  type ShrinkAttempt,
  type ShrinkResult,
} from '../../runner/shrink.ts';
import { ROUND_TIMEOUT_MS_DEFAULT } from '../../runner/campaign.ts';
import { PlanThread } from '../../runner/plan-thread.ts';
import type { Violation } from '../../oracle/violation.ts';
import { EXIT, InputError } from '../errors.ts';
import { sequenceDiagram } from '../format/mermaid.ts';
import { shellWord } from '../format/summary.ts';
import { formatTimeline } from '../format/timeline.ts';
import { inputFiles } from '../input-files.ts';
import { assertNotInputs, assertWritable, exitAfterWrites, writeOutputTo } from '../output.ts';

/** Arguments of `catsim shrink`. */
export interface ShrinkArgs {
  seed: string;
  round: number;
  scenario: string;
  catalog?: string;
  core: string;
  /** Where to write `<prefix>.plan.json` and `<prefix>.mmd`; default `catsim-shrunk-SEED-ROUND-CORE` ({@link defaultShrunkPrefix}). */
  out?: string;
  /** Most rounds the shrinker may run, at least 1 (`--attempts 0` is refused: it could shrink nothing). */
  attemptsMax: number;
  timeline: boolean;
  /**
   * The invariant to shrink for (`--invariant ID`: I1..I40 or CORE_FAILED); default the round's first
   * violation's. A round that does not break it is refused in one line (exit 2).
   */
  invariant?: string;
  /** Real ms each round may run on the worker thread (`--round-timeout`, in seconds); default runner/campaign.ts `ROUND_TIMEOUT_MS_DEFAULT`. */
  roundTimeoutMs?: number;
}

/**
 * The shrinker's round runner on `thread` for the core `core` (a `--core` value): each round runs
 * on the worker thread, so a stuck or heap-exhausting core abandons that round, not catsim.
 */
export function threadRunner(thread: PlanThread, core: string): (plan: RoundPlan) => Promise<ShrinkAttempt> {
  return async (plan) => {
    const outcome = await thread.run(plan, core);
    if (outcome.kind === 'abandoned') return { abandoned: outcome.summary.violations[0] as Violation };
    return { run: outcome.run, violations: outcome.summary.violations };
  };
}

/** Files written for one shrunk round (where they are: a fallback path when a write failed, null when lost). */
export interface ShrunkFiles {
  planPath: string | null;
  diagramPath: string | null;
}

/**
 * A `--core` value as a part of a file name: runs of characters outside `[A-Za-z0-9_.-]` become
 * `_`, and leading dots and underscores are dropped, e.g. `mutant:first-page-only` ->
 * `mutant_first-page-only`, `./my-core.ts` -> `my-core.ts`.
 */
export function coreSlug(core: string): string {
  return core.replace(/[^\w.-]+/g, '_').replace(/^[._]+/, '');
}

/**
 * The default prefix of a shrunk round's files, `catsim-shrunk-SEED-ROUND-CORE` ({@link coreSlug}):
 * the core is part of it, so that shrinking the same round on another core (a mutant, a peer)
 * does not overwrite the first one's plan.
 */
export function defaultShrunkPrefix(seed: string, round: number, core: string): string {
  return `catsim-shrunk-${seed}-${round}-${coreSlug(core)}`;
}

/** The files {@link saveShrunk} writes for `prefix`: `<prefix>.plan.json` and `<prefix>.mmd`. */
export function shrunkFiles(prefix: string): { planPath: string; diagramPath: string } {
  return { planPath: `${prefix}.plan.json`, diagramPath: `${prefix}.mmd` };
}

/**
 * Checks, before any shrinking starts, that both files of `prefix` can be written.
 * @param option the option that named the prefix, for the message (e.g. `--out`).
 * @throws InputError (exit 2) naming the option, the first file that cannot be written and why.
 */
export function assertShrunkWritable(prefix: string, option: string): void {
  const { planPath, diagramPath } = shrunkFiles(prefix);
  assertWritable(planPath, option);
  assertWritable(diagramPath, option);
}

/**
 * Writes the shrunk plan and its diagram next to `prefix` (see {@link shrunkFiles}); a file that
 * cannot be written there goes to a fallback file in the temporary directory, named on stderr.
 * @returns where the files are, and whether both are where they were asked for.
 */
export function saveShrunk(result: ShrinkResult, prefix: string): { files: ShrunkFiles; asked: boolean } {
  const asked = shrunkFiles(prefix);
  const stem = `catsim-shrunk-${result.plan.seed}-${result.plan.round}`;
  const planPath = writeOutputTo(
    { path: asked.planPath, what: 'shrunk plan', stem, extension: '.plan.json' },
    `${JSON.stringify(result.plan, null, 2)}\n`,
  );
  const diagramPath = writeOutputTo(
    { path: asked.diagramPath, what: 'sequence diagram', stem, extension: '.mmd' },
    sequenceDiagram(result.run.events, result.violations[0]?.seq ?? null),
  );
  return { files: { planPath, diagramPath }, asked: planPath === asked.planPath && diagramPath === asked.diagramPath };
}

/**
 * One paragraph describing a shrink result. It says "the smallest plan" only when the shrinker
 * stopped because no reduction kept the failure; when it stopped at `attemptsMax` it says so, and
 * a plan no reduction was kept of is "not shrunk".
 */
export function describeShrink(result: ShrinkResult, files: ShrunkFiles, attemptsMax: number): string[] {
  const first = result.violations[0];
  const rounds = `${result.attempts} round${result.attempts === 1 ? '' : 's'}`;
  const budgetOut = result.attempts >= attemptsMax;
  const stopped = result.interrupted ? `interrupted after ${rounds}` : `stopped at --attempts ${attemptsMax}`;
  const headline =
    result.steps.length === 0
      ? `not shrunk: ${result.interrupted ? `interrupted after ${rounds}, before a reduction kept` : budgetOut ? `no reduction tried in the ${rounds} allowed (--attempts ${attemptsMax}) kept` : 'no single reduction keeps'} ${result.invariant} failing; the plan is the round's own (size ${result.sizeBefore})`
      : `shrunk to ${budgetOut || result.interrupted ? `a smaller plan (${stopped}: maybe not the smallest)` : 'the smallest plan'} that still breaks ${result.invariant}: size ${result.sizeBefore} -> ${result.sizeAfter} in ${rounds}`;
  const coreFlag = result.run.header.core === 'reference' ? '' : ` --core ${shellWord(result.run.header.core)}`;
  return [
    headline,
    ...result.steps.map((step) => `  - ${step}`),
    `still fails: ${first?.invariant} ${first?.code} at seq ${first?.seq ?? '-'}: ${first?.evidence}`,
    files.planPath === null
      ? 'plan: not saved (see the error above)'
      : `plan: ${files.planPath}   (replay: catsim replay --plan ${shellWord(files.planPath)}${coreFlag})`,
    `sequence diagram (Mermaid): ${files.diagramPath ?? 'not saved (see the error above)'}`,
  ];
}

/**
 * Shrinks one failing round, its rounds run on a worker thread bounded by `--round-timeout`.
 * Exit 1 (it fails; also when its own round is abandoned, stuck or out of memory, which leaves
 * no trace to shrink: `not shrunk: its round was abandoned (CORE_FAILED TIMED_OUT: ...)`), or 2
 * when a file could not be written where asked (it is then in a fallback file, named on stderr).
 * @throws InputError (exit 2) when the output files cannot be written or name an input file
 *   (checked before anything runs), or when the round does not fail at all.
 */
export async function shrinkCommand(args: ShrinkArgs): Promise<number> {
  const prefix =
    args.out ??
    `${defaultShrunkPrefix(args.seed, args.round, args.core)}${args.invariant === undefined ? '' : `-${args.invariant}`}`;
  // The default prefix is what --out would say, so a problem with it is named as --out too.
  assertShrunkWritable(prefix, '--out');
  const { planPath, diagramPath } = shrunkFiles(prefix);
  assertNotInputs(
    [
      ['--out', planPath],
      ['--out', diagramPath],
    ],
    inputFiles(args),
  );
  const scenario = loadScenario(args.scenario);
  const catalog = args.catalog === undefined ? undefined : loadCatalog(args.catalog);
  const core = await loadCore(args.core);
  const plan: RoundPlan = generatePlan(args.seed, args.round, scenario, catalog?.pool);
  let result: ShrinkResult;
  const thread = new PlanThread({ roundTimeoutMs: args.roundTimeoutMs ?? ROUND_TIMEOUT_MS_DEFAULT });
  // Ctrl-C, SIGTERM or SIGHUP: stop between rounds and write the smallest plan found so far.
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const name of signals) process.once(name, onSignal);
  try {
    result = await shrinkPlan(plan, core, args.core, {
      invariant: args.invariant,
      attemptsMax: args.attemptsMax,
      signal: abort.signal,
      runPlan: threadRunner(thread, args.core),
    });
  } catch (error) {
    if (error instanceof AbandonedPlanError) {
      process.stdout.write(
        `catsim shrink  seed=${args.seed}  round=${args.round}  core=${args.core}\nnot shrunk: ${error.message}\n`,
      );
      return EXIT.violation;
    }
    if (error instanceof PlanDoesNotBreakError) throw new InputError(notBrokenLine(args, error));
    throw error;
  } finally {
    for (const name of signals) process.off(name, onSignal);
    await thread.close();
  }
  const { files, asked } = saveShrunk(result, prefix);
  const out = [
    `catsim shrink  seed=${args.seed}  round=${args.round}  core=${args.core}`,
    ...describeShrink(result, files, args.attemptsMax),
  ];
  if (args.timeline) out.push('timeline of the shrunk round:', formatTimeline(result.run.events));
  process.stdout.write(`${out.join('\n')}\n`);
  return exitAfterWrites(EXIT.violation, asked);
}

/**
 * The one line of a shrink refused because its round does not break what was asked, e.g.
 * `round 5 of seed 1 passes on reference: nothing to shrink`, or
 * `round 3 of seed 1 on peer:list-once does not break I7 (it breaks I12, I19): nothing to shrink for I7`.
 */
function notBrokenLine(args: ShrinkArgs, error: PlanDoesNotBreakError): string {
  if (error.broken.length === 0)
    return `round ${args.round} of seed ${args.seed} passes on ${args.core}: nothing to shrink`;
  return `round ${args.round} of seed ${args.seed} on ${args.core} does not break ${error.invariant} (it breaks ${error.broken.join(', ')}): nothing to shrink for ${error.invariant}`;
}
