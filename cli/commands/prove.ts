/**
 * `catsim prove`: shows, on the default campaign, that the oracle catches every mutant core of
 * SPEC section 12, and puts the peers' violations next to the reference core's zero.
 *
 * Each mutant runs rounds in chunks until its first failing round, capped at `--cap` rounds
 * (default 1,000); a mutant not caught within the cap fails `prove`. "Caught" means an invariant
 * violation (an UNDECIDED round does not count). Probes are not judged here.
 */
import { availableParallelism } from 'node:os';
import { runCampaign } from '../../sim/campaign/campaign.ts';
import type { CampaignReport } from '../../sim/campaign/report.ts';
import { loadCore } from '../../sim/campaign/cores.ts';
import { MUTANTS } from '../../sim/mutants/index.ts';
import { peerNames } from './peers.ts';
import { loadScenario, type Scenario } from '../../sim/plan/scenario.ts';
import { violationCounts } from '../format/summary.ts';
import { EXIT } from '../errors.ts';
import { campaignWorkers } from '../work-size.ts';

/** Arguments of `catsim prove`. */
export interface ProveArgs {
  seed: string;
  scenario: string;
  cap: number;
  chunk: number;
  peerRounds: number;
  workers?: number;
  /** More cores (names or core modules) for the side-by-side part, after the peers. */
  cores?: string[];
}

/** How one mutant fared. */
export interface MutantResult {
  name: string;
  caught: boolean;
  /** Rounds run until (and including) the first failing round, or the cap. */
  rounds: number;
  firstRound: number | null;
  /** Invariant and code of the first violation of the first failing round. */
  caughtBy: string | null;
  expected: string[];
}

async function firstDetection(name: string, args: ProveArgs, scenario: Scenario, workers: number): Promise<MutantResult> {
  const mutant = MUTANTS.find((m) => m.name === name);
  for (let from = 0; from < args.cap; from += args.chunk) {
    const rounds = Math.min(args.chunk, args.cap - from);
    const report = await runCampaign({ seed: args.seed, scenario, core: `mutant:${name}`, firstRound: from, rounds, workers, determinismEvery: 0 });
    const failing = report.failingRounds.find((round) => round.violations.length > 0);
    if (failing !== undefined) {
      const first = failing.violations[0];
      return { name, caught: true, rounds: failing.round + 1, firstRound: failing.round, caughtBy: `${first?.invariant} ${first?.code}`, expected: mutant?.expectedCatchers ?? [] };
    }
  }
  return { name, caught: false, rounds: args.cap, firstRound: null, caughtBy: null, expected: mutant?.expectedCatchers ?? [] };
}

function violationLine(label: string, report: CampaignReport): string {
  const total = Object.values(report.violationsByInvariant).reduce((a, b) => a + b, 0);
  const per = violationCounts(report);
  return `  ${label.padEnd(24)} ${String(total).padStart(6)} violations in ${report.failingRounds.length}/${report.roundsRun} rounds   ${per}`;
}

/** Runs the proof; exit 0 only when every mutant was caught within the cap. */
export async function proveCommand(args: ProveArgs): Promise<number> {
  const scenario = loadScenario(args.scenario);
  // A bad --core is refused before the mutants run (exit 2).
  for (const core of args.cores ?? []) await loadCore(core);
  // The largest campaign prove runs is a chunk or the peers' rounds: more workers than that would idle.
  const workers = args.workers === undefined ? availableParallelism() : campaignWorkers(args.workers, Math.max(args.chunk, args.peerRounds));
  const out = [`catsim prove  seed=${args.seed}  scenario=${scenario.name}  cap=${args.cap} rounds per mutant`, '', 'mutant cores (each the reference core with one defence removed):'];
  out.push(`  ${'mutant'.padEnd(26)} ${'caught'.padEnd(7)} ${'rounds to first detection'.padEnd(26)} caught by`);
  process.stdout.write(`${out.join('\n')}\n`);
  const results: MutantResult[] = [];
  for (const mutant of MUTANTS) {
    // A mutant whose defence only a fault outside the given scenario exercises (F18) runs on its own scenario.
    const own = mutant.scenario === undefined || mutant.scenario === scenario.name ? scenario : loadScenario(mutant.scenario);
    const result = await firstDetection(mutant.name, args, own, workers);
    results.push(result);
    const rounds = result.caught ? `${result.rounds} (round ${result.firstRound})` : `not within ${args.cap}`;
    const on = own === scenario ? '' : `, on scenario ${own.name}`;
    process.stdout.write(`  ${result.name.padEnd(26)} ${(result.caught ? 'yes' : 'NO').padEnd(7)} ${rounds.padEnd(26)} ${result.caughtBy ?? '-'}   (expected: ${result.expected.join(' or ')}${on})\n`);
  }
  const lines = ['', `peers and the reference core on the same ${args.peerRounds} rounds:`];
  const reference = await runCampaign({ seed: args.seed, scenario, core: 'reference', firstRound: 0, rounds: args.peerRounds, workers, determinismEvery: 0 });
  lines.push(violationLine('reference', reference));
  for (const core of [...peerNames(), ...(args.cores ?? [])]) {
    const report = await runCampaign({ seed: args.seed, scenario, core, firstRound: 0, rounds: args.peerRounds, workers, determinismEvery: 0 });
    lines.push(violationLine(core, report));
  }
  const missed = results.filter((result) => !result.caught);
  const referenceClean = reference.failingRounds.length === 0;
  lines.push('', missed.length === 0 && referenceClean
    ? `PROVEN: all ${results.length} mutants caught; the reference core has 0 violations.`
    : `NOT PROVEN: ${missed.length} mutants not caught${missed.length > 0 ? ` (${missed.map((m) => m.name).join(', ')})` : ''}${referenceClean ? '' : '; the reference core has violations'}.`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return missed.length === 0 && referenceClean ? EXIT.clean : EXIT.violation;
}
