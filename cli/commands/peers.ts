/**
 * `catsim prove --peers`: the side-by-side table. On the same seed and rounds it runs the
 * reference core, every registered peer (sim/peers/index.ts: the home-made ones and the real client
 * libraries) and every `--core` given (a name or a core module), and prints, as markdown the
 * README can paste: per core, the failing rounds, the rounds to the first detection and the
 * violations per invariant; then, for each invariant a core violated, the line that replays its
 * first such round (with `--shrink`, also the shrunk plan that still breaks that invariant).
 *
 * Exit 0 when the reference core is clean, 1 when it is not (the peers' violations are the
 * finding, not a failure); a bad `--core` is refused (exit 2) before any round runs.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { CORE_FAILED, INVARIANT_IDS } from '../../oracle/index.ts';
import { runCampaign } from '../../sim/campaign/campaign.ts';
import { coreNames, loadCore, resolveCore } from '../../sim/campaign/cores.ts';
import type { CampaignReport } from '../../sim/campaign/report.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import { isScenarioPath, loadScenario, type Scenario } from '../../sim/plan/scenario.ts';
import { shrinkPlan } from '../../sim/shrink/shrink.ts';
import { EXIT } from '../errors.ts';
import { replayCommand, shellWord } from '../format/summary.ts';
import { assertShrunkWritable, saveShrunk } from './shrink.ts';

/** Arguments of `catsim prove --peers`. */
export interface PeersArgs {
  seed: string;
  scenario: string;
  /** Rounds 0..rounds-1, the same for every core. */
  rounds: number;
  /** Cores besides the reference core and the peers (names or module paths), in order. */
  cores: string[];
  /** Shrink the first failing round of each (core, invariant). */
  shrink: boolean;
  /** Most rounds each shrink may run. */
  attemptsMax: number;
  /** Where the shrunk plans are written (default the working directory). */
  outDir?: string;
  workers?: number;
}

/** The verdict ids of the table's columns: the invariants, then CORE_FAILED. */
const COLUMNS: readonly string[] = [...INVARIANT_IDS, CORE_FAILED];

/** One core's campaign. */
interface CoreRun {
  core: string;
  report: CampaignReport;
}

/**
 * Runs every core and prints the table.
 * @throws CoreModuleError, UnknownCoreError (exit 2) for a `--core` that cannot be used, before any round.
 */
export async function peersCommand(args: PeersArgs): Promise<number> {
  const scenario = loadScenario(args.scenario);
  const cores = [...new Set(['reference', ...peerNames(), ...args.cores])];
  for (const core of cores) await loadCore(core);
  const workers = args.workers ?? availableParallelism();
  process.stdout.write(`catsim prove --peers  seed=${args.seed}  scenario=${scenario.name}  rounds 0..${args.rounds - 1}  cores: ${cores.join(', ')}\n\n`);
  const runs: CoreRun[] = [];
  for (const core of cores) {
    const report = await runCampaign({ seed: args.seed, scenario, scenarioPath: isScenarioPath(args.scenario) ? args.scenario : undefined, core, firstRound: 0, rounds: args.rounds, workers, determinismEvery: 0 });
    runs.push({ core, report });
  }
  const lines = [...table(runs), '', ...await replayLines(runs, args, scenario)];
  process.stdout.write(`${lines.join('\n')}\n`);
  return (runs[0]?.report.failingRounds.length ?? 1) === 0 ? EXIT.clean : EXIT.violation;
}

/** Every registered peer as a `--core` value (`peer:NAME`), whether built in or imported on demand. */
export function peerNames(): string[] {
  return coreNames().filter((name) => name.startsWith('peer:'));
}

/** The markdown table: one row per core. */
function table(runs: readonly CoreRun[]): string[] {
  const header = ['core', 'failing rounds', 'rounds to first detection', ...COLUMNS];
  const rows = runs.map(({ core, report }) => {
    const first = report.failingRounds[0];
    const detection = first === undefined ? '-' : `${first.round - report.firstRound + 1} (round ${first.round})`;
    return [`\`${core}\``, `${report.failingRounds.length} of ${report.roundsRun}`, detection, ...COLUMNS.map((id) => String(report.violationsByInvariant[id] ?? 0))];
  });
  return [row(header), row(header.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(row)];
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** For each core and each verdict id it violated: the first such round, its code, and its replay line. */
async function replayLines(runs: readonly CoreRun[], args: PeersArgs, scenario: Scenario): Promise<string[]> {
  const lines = [`Replay lines: the first round of each core that violated each invariant${args.shrink ? ', and its shrunk plan' : ''}.`, ''];
  for (const { core, report } of runs) {
    const firsts = COLUMNS.flatMap((id) => {
      const failing = report.failingRounds.find((candidate) => candidate.violations.some((violation) => violation.invariant === id));
      const violation = failing?.violations.find((candidate) => candidate.invariant === id);
      return failing === undefined || violation === undefined ? [] : [{ id, round: failing.round, code: violation.code }];
    });
    if (firsts.length === 0) continue;
    lines.push(`- \`${core}\``);
    for (const first of firsts) {
      const shrunk = args.shrink ? await shrunkLine(core, first.id, first.round, args, scenario) : '';
      lines.push(`  - ${first.id} ${first.code}: \`${replayCommand(report, first.round)}\`${shrunk}`);
    }
  }
  return lines.length === 2 ? [...lines, '(no core violated anything)'] : lines;
}

/** Shrinks one round for one invariant and names the plan; a shrink that fails to reproduce says so. */
async function shrunkLine(core: string, invariant: string, round: number, args: PeersArgs, scenario: Scenario): Promise<string> {
  const prefix = join(args.outDir ?? '.', `catsim-shrunk-${args.seed}-${round}-${core.replace(/[^\w.-]+/g, '_').replace(/^[._]+/, '')}-${invariant}`);
  assertShrunkWritable(prefix, '--out');
  try {
    const result = await shrinkPlan(generatePlan(args.seed, round, scenario), resolveCore(core), core, { invariant, attemptsMax: args.attemptsMax });
    const { files } = saveShrunk(result, prefix);
    if (files.planPath === null) return ` (shrunk ${result.sizeBefore} -> ${result.sizeAfter}, but the plan could not be saved: see the error above)`;
    return `, shrunk ${result.sizeBefore} -> ${result.sizeAfter}: \`catsim replay --plan ${shellWord(files.planPath)} --core ${shellWord(core)}\``;
  } catch (error) {
    return ` (not shrunk: ${(error as Error).message})`;
  }
}
