/**
 * `catsim prove --peers`: the side-by-side table. On the same seed and rounds it runs the
 * reference core, every registered peer (cores/peers/index.ts: the home-made ones and the real client
 * libraries) and every `--core` given (a name or a core module), and prints, as markdown the
 * README can paste: per core, the failing rounds, the rounds to the first detection and the
 * violations per invariant; then, for each invariant a core violated, the line that replays its
 * first such round (with `--shrink`, the line that replays the shrunk plan that still breaks
 * that invariant instead, or the round's line and why it was not shrunk) and, for a peer, the
 * one-sentence explanation of the defect people wrote from that trace (cores/peers/explanations.ts;
 * "no explanation written yet" when there is none). The output opens with the "Measured with"
 * line of the README's "Side by side" section (the command, seed, rounds, scenario, commit,
 * wall time and library versions), so the whole section is one copy-paste.
 *
 * Exit 0 when the reference core is clean, 1 when it is not (the peers' violations are the
 * finding, not a failure); a bad `--core` is refused (exit 2) before any round runs.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CORE_FAILED, INVARIANT_IDS } from '../../oracle/index.ts';
import { ROUND_TIMEOUT_MS_DEFAULT, runCampaign } from '../../runner/campaign.ts';
import { PlanThread } from '../../runner/plan-thread.ts';
import { coreNames, loadCore, resolveCore, UnknownCoreError } from '../../cores/index.ts';
import type { CampaignReport } from '../../runner/report.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import { isScenarioPath, loadScenario, type Scenario } from '../../sim/plan/scenario.ts';
import { explanationOf, NO_EXPLANATION, PEER_LIBRARIES } from '../../cores/peers/explanations.ts';
import { shrinkPlan } from '../../runner/shrink.ts';
import { EXIT } from '../errors.ts';
import { coveredText, replayCommand, shellWord } from '../format/summary.ts';
import { stageReporter } from '../progress.ts';
import { assertShrunkWritable, coreSlug, saveShrunk, threadRunner } from './shrink.ts';

/** Arguments of `catsim prove --peers`. */
export interface PeersArgs {
  seed: string;
  scenario: string;
  /** Rounds 0..rounds-1, the same for every core. */
  rounds: number;
  /** Cores besides the reference core and the peers (names or module paths), in order. */
  cores: string[];
  /**
   * The peers to run (`--peer`, `peer:NAME` each), in order; empty or missing: every registered
   * peer (cores/peers/registry.ts).
   */
  peers?: string[];
  /**
   * Only this verdict id's findings (`--invariant`): listed, and shrunk with `shrink`; a core
   * whose rounds do not break it gets one line saying so. Missing: every verdict id.
   */
  invariant?: string;
  /** Shrink the first failing round of each (core, invariant). */
  shrink: boolean;
  /** Most rounds each shrink may run. */
  attemptsMax: number;
  /** Where the shrunk plans are written (default the working directory). */
  outDir?: string;
  workers?: number;
  /**
   * Progress on stderr (false with `--quiet` or `--no-progress`): a line at most every 10 s
   * naming the core or the shrink being run (cli/progress.ts `stageReporter`). Default true.
   */
  progress?: boolean;
}

/** Where the table stands, for its progress lines: called between rounds with a sentence. */
type Say = (text: string) => void;

/** The verdict ids of the table's columns: the invariants, then CORE_FAILED. */
const COLUMNS: readonly string[] = [...INVARIANT_IDS, CORE_FAILED];

/** One core's campaign. */
interface CoreRun {
  core: string;
  report: CampaignReport;
}

/**
 * Runs every core and prints the table.
 * @throws CoreModuleError, UnknownCoreError (exit 2) for a `--core` that cannot be used, and InputError
 *   (exit 2) for a `--shrink` whose `--out` directory cannot be written, before any round.
 */
export async function peersCommand(args: PeersArgs): Promise<number> {
  const scenario = loadScenario(args.scenario);
  const peers = args.peers === undefined || args.peers.length === 0 ? peerNames() : args.peers.map(peerCore);
  const cores = [...new Set(['reference', ...peers, ...args.cores])];
  for (const core of cores) await loadCore(core);
  // A shrunk plan that cannot be written is refused before any round runs, not after all of them.
  if (args.shrink) assertShrunkWritable(join(args.outDir ?? '.', `catsim-shrunk-${args.seed}-0-check`), '--out');
  const workers = args.workers ?? availableParallelism();
  const startedMs = performance.now();
  process.stdout.write(
    `catsim prove --peers  seed=${args.seed}  scenario=${scenario.name}  rounds 0..${args.rounds - 1}  cores: ${cores.join(', ')}\n\n`,
  );
  const stages = stageReporter(
    (line) => process.stderr.write(line),
    () => performance.now(),
  ); // real-clock: progress only, read between rounds
  const say: Say = args.progress === false ? () => undefined : (text) => stages.say(text);
  const runs: CoreRun[] = [];
  for (const [index, core] of cores.entries()) {
    const onProgress = (done: number): void =>
      say(`${core}, ${done} of ${args.rounds} rounds (core ${index + 1} of ${cores.length})`);
    const report = await runCampaign({
      seed: args.seed,
      scenario,
      scenarioPath: isScenarioPath(args.scenario) ? args.scenario : undefined,
      core,
      firstRound: 0,
      rounds: args.rounds,
      workers,
      determinismEvery: 0,
      onProgress,
    });
    runs.push({ core, report });
  }
  const findings = await findingLines(runs, args, scenario, say);
  const seconds = Math.round((performance.now() - startedMs) / 1000);
  const lines = [
    measuredLine(args, scenario, cores, seconds),
    '',
    ...table(runs),
    '',
    ...notJudgedLines(runs),
    ...findings,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return (runs[0]?.report.failingRounds.length ?? 1) === 0 ? EXIT.clean : EXIT.violation;
}

/**
 * A `--peer` value as a core name: `peer:NAME` (or `NAME`) of a registered peer.
 * @throws UnknownCoreError (exit 2) naming the registered peers.
 */
function peerCore(value: string): string {
  const core = value.startsWith('peer:') ? value : `peer:${value}`;
  if (!peerNames().includes(core))
    throw new UnknownCoreError(`--peer ${value}: no such peer; the peers are ${peerNames().join(', ')}`);
  return core;
}

/** Every registered peer as a `--core` value (`peer:NAME`), whether built in or imported on demand. */
export function peerNames(): string[] {
  return coreNames().filter((name) => name.startsWith('peer:'));
}

/**
 * The README's "Measured with" sentence: the command as run, what it covered, the commit (when
 * git can tell), the wall time and the library peers' pinned versions.
 */
function measuredLine(args: PeersArgs, scenario: Scenario, cores: readonly string[], seconds: number): string {
  const words = [
    'npx catsim prove --peers',
    ...(args.seed === '1' ? [] : [`--seed ${shellWord(args.seed)}`]),
    ...(args.scenario === 'default' ? [] : [`--scenario ${shellWord(args.scenario)}`]),
    `--peer-rounds ${args.rounds}`,
    ...(args.peers ?? []).map((peer) => `--peer ${shellWord(peer)}`),
    ...(args.invariant === undefined ? [] : [`--invariant ${args.invariant}`]),
    ...(args.shrink ? ['--shrink'] : []),
    ...(args.shrink && args.outDir !== undefined && args.outDir !== '.' ? [`--out ${shellWord(args.outDir)}`] : []),
    ...args.cores.map((core) => `--core ${shellWord(core)}`),
  ];
  const commit = gitCommit();
  // Each library once, though two peers may run it (the v2 client in legacy and in modern mode).
  const libraries = [
    ...new Set(
      cores.flatMap((core) => {
        const library = PEER_LIBRARIES[core];
        return library === undefined ? [] : [`\`${library.packageName}\` ${library.version}`];
      }),
    ),
  ];
  const libraryWords = libraries.length === 0 ? '' : ` The libraries are ${listWords(libraries)}, run unchanged:`;
  return `Measured with \`${words.join(' ')}\` (seed ${args.seed}, rounds 0..${args.rounds - 1}, ${scenario.name} scenario)${commit === undefined ? '' : ` on commit ${commit}`}, in ${seconds} s.${libraryWords}`;
}

/** `a`, `a and b`, `a, b and c`. */
function listWords(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The short commit of the working directory, or undefined outside a git checkout. */
function gitCommit(): string | undefined {
  try {
    return (
      execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/** The markdown table: one row per core. */
function table(runs: readonly CoreRun[]): string[] {
  const header = ['core', 'failing rounds', 'rounds to first detection', ...COLUMNS];
  const rows = runs.map(({ core, report }) => {
    const first = report.failingRounds[0];
    const detection = first === undefined ? '-' : `${first.round - report.firstRound + 1} (round ${first.round})`;
    return [
      `\`${core}\``,
      `${report.failingRounds.length} of ${report.roundsRun}`,
      detection,
      ...COLUMNS.map((id) => String(report.violationsByInvariant[id] ?? 0)),
    ];
  });
  return [row(header), row(header.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(row)];
}

/**
 * Under the table, the cores that leave out a capability these rounds needed (oracle/not-judged.ts):
 * their zeros there are not passes. Nothing when every core was judged on everything.
 */
function notJudgedLines(runs: readonly CoreRun[]): string[] {
  const unjudged = runs.filter(({ report }) => report.notJudged.length > 0);
  if (unjudged.length === 0) return [];
  return [
    'Not judged (the core does not implement it, so its zeros there are no pass):',
    ...unjudged.map(({ core, report }) => `- \`${core}\`: ${report.notJudged.map(coveredText).join(', ')}`),
    '',
  ];
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/**
 * For each core and each verdict id it violated: the first such round and code, the line that
 * replays it (its shrunk plan's with `--shrink`) and, for a peer, the explanation of the defect.
 */
async function findingLines(
  runs: readonly CoreRun[],
  args: PeersArgs,
  scenario: Scenario,
  say: Say,
): Promise<string[]> {
  const lines = [
    `Findings: for each core and each invariant it violated, the first failing round, the line that replays it${args.shrink ? ' (the shrunk plan that still breaks that invariant)' : ''} and, for a peer, the defect it shows.`,
    '',
  ];
  const ids = args.invariant === undefined ? COLUMNS : [args.invariant];
  for (const { core, report } of runs) {
    const firsts = ids.flatMap((id) => {
      const failing = report.failingRounds.find((candidate) =>
        candidate.violations.some((violation) => violation.invariant === id),
      );
      const violation = failing?.violations.find((candidate) => candidate.invariant === id);
      return failing === undefined || violation === undefined
        ? []
        : [{ id, round: failing.round, code: violation.code }];
    });
    if (firsts.length === 0 && args.invariant !== undefined)
      lines.push(`- \`${core}\`: no round of ${report.roundsRun} breaks ${args.invariant}`);
    if (firsts.length === 0) continue;
    lines.push(`- \`${core}\``);
    for (const first of firsts) {
      const replay = `\`${replayCommand(report, first.round)}\``;
      if (args.shrink) say(`shrinking round ${first.round} of ${core} for ${first.id}`);
      const line = args.shrink ? await shrunkLine(core, first.id, first.round, args, scenario, replay) : replay;
      lines.push(
        `  - ${first.id} ${first.code} (first in round ${first.round}): ${line}${explanationWords(core, first.id)}`,
      );
    }
  }
  return lines.length === 2 ? [...lines, '(no core violated anything)'] : lines;
}

/** ` — <explanation>` for a peer (or that none is written yet); nothing for other cores. */
function explanationWords(core: string, invariant: string): string {
  if (!core.startsWith('peer:')) return '';
  return ` — ${explanationOf(core, invariant) ?? `${NO_EXPLANATION}.`}`;
}

/**
 * Shrinks one round for one invariant: the line that replays the shrunk plan, or `replay` (the
 * round's own line) and why it could not be shrunk or saved.
 */
async function shrunkLine(
  core: string,
  invariant: string,
  round: number,
  args: PeersArgs,
  scenario: Scenario,
  replay: string,
): Promise<string> {
  const prefix = join(args.outDir ?? '.', `catsim-shrunk-${args.seed}-${round}-${coreSlug(core)}-${invariant}`);
  assertShrunkWritable(prefix, '--out');
  // Its rounds run on a worker thread: a stuck or heap-exhausting core is "not shrunk", not a hang.
  const thread = new PlanThread({ roundTimeoutMs: ROUND_TIMEOUT_MS_DEFAULT });
  try {
    const result = await shrinkPlan(generatePlan(args.seed, round, scenario), resolveCore(core), core, {
      invariant,
      attemptsMax: args.attemptsMax,
      runPlan: threadRunner(thread, core),
    });
    const { files } = saveShrunk(result, prefix);
    if (files.planPath === null)
      return `${replay} (shrunk ${result.sizeBefore} -> ${result.sizeAfter}, but the plan could not be saved: see the error above)`;
    return `\`catsim replay --plan ${shellWord(files.planPath)} --core ${shellWord(core)}\` (shrunk ${result.sizeBefore} -> ${result.sizeAfter})`;
  } catch (error) {
    return `${replay} (not shrunk: ${(error as Error).message})`;
  } finally {
    await thread.close();
  }
}
