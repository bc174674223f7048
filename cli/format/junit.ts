/**
 * The campaign report as JUnit XML (`catsim run --junit FILE.xml`, `catsim merge --junit`), for CI
 * systems that show test results: one test suite for the campaign, one test case per gate
 * criterion, so a release gate reads "I8 failed" rather than "a script exited 1". Written with
 * junit-report-builder (Jenkins' JUnit schema).
 *
 * Test cases, in order, all in class `catsim.gate`: one per invariant (`I1` .. `I13`: a failure
 * when any round violated it, the replay line of up to 20 such rounds in its system-out), and
 * `CORE_FAILED` alike (a round in which the core threw or answered outside the core API);
 * `UNDECIDED rounds`; `coverage probes` (a failure naming the required probes never hit, when the
 * probe gate applies); `determinism` (an error per campaign with non-deterministic rounds: the
 * testbed failed, exit 3); `campaign complete` (a failure when the campaign was interrupted);
 * then `not judged: CAPABILITY` for each capability the core left out that the rounds needed
 * (`rollback`, `surface`): skipped when the user accepted it (`--not-judged`), else a failure
 * naming how many triggers or turns in how many rounds went unjudged. Never a passed test case.
 * The suite carries the seed, scenario, core, round range and campaign digest as properties and
 * the campaign's wall time as its time (seconds). No timestamp is written, so equal reports give
 * equal files.
 */
import junitReportBuilder, { type Builder } from 'junit-report-builder';
import { CORE_FAILED, INVARIANT_IDS } from '../../oracle/index.ts';
import type { CampaignReport } from '../../runner/report.ts';
import { coveredText, interruptedText, replayCommand } from './summary.ts';

// The package is CommonJS whose `module.exports` is the builder itself, while its types declare it
// as `export default`: under NodeNext the default import is typed as the module, so it is retyped here.
const builder = junitReportBuilder as unknown as Builder;

/** How many replay lines each failing test case lists. */
const REPLAY_LINES_MAX = 20;

/** The JUnit XML document (UTF-8 text) of `report`. */
export function junitXml(report: CampaignReport): string {
  const root = builder.newBuilder();
  const last = report.firstRound + report.roundsPlanned - 1;
  const suite = root
    .testSuite()
    .name(
      `catsim run seed=${report.seed} scenario=${report.scenario} core=${report.core} rounds ${report.firstRound}..${last}`,
    )
    .time(report.elapsedMs / 1000)
    .property('seed', report.seed)
    .property('scenario', report.scenario)
    .property('core', report.core)
    .property('rounds', `${report.firstRound}..${last}`)
    .property('roundsRun', String(report.roundsRun))
    .property('campaignDigest', report.campaignDigest ?? '');
  const testCase = (name: string) => suite.testCase().className('catsim.gate').name(name);
  for (const id of [...INVARIANT_IDS, CORE_FAILED]) {
    const count = report.violationsByInvariant[id] ?? 0;
    const test = testCase(id);
    if (count === 0) continue;
    const rounds = report.failingRounds.filter((failing) =>
      failing.violations.some((violation) => violation.invariant === id),
    );
    test.failure(
      `${count} violation${count === 1 ? '' : 's'} of ${id} in ${rounds.length} round${rounds.length === 1 ? '' : 's'}`,
      'violation',
    );
    test.standardOutput(
      replayLines(
        report,
        rounds.map((failing) => {
          const first = failing.violations.find((violation) => violation.invariant === id);
          return { round: failing.round, why: `${id} ${first?.code}: ${first?.evidence}` };
        }),
      ),
    );
  }
  const undecided = report.failingRounds.filter((failing) => failing.undecided);
  const undecidedTest = testCase('UNDECIDED rounds');
  if (undecided.length > 0) {
    undecidedTest.failure(
      `${undecided.length} round${undecided.length === 1 ? '' : 's'} exhausted the event budget (UNDECIDED fails the gate)`,
      'undecided',
    );
    undecidedTest.standardOutput(
      replayLines(
        report,
        undecided.map((failing) => ({ round: failing.round, why: 'UNDECIDED' })),
      ),
    );
  }
  const probes = testCase('coverage probes');
  if (report.probesMissed.length > 0)
    probes.failure(`required coverage probes never hit: ${report.probesMissed.join(', ')}`, 'coverage');
  const determinism = testCase('determinism');
  if (report.determinism.mismatches.length > 0) {
    determinism.error(
      `${report.determinism.mismatches.length} of ${report.determinism.replayed} replayed rounds differ from their first run`,
      'non-determinism',
      report.determinism.mismatches
        .map(
          (mismatch) =>
            `round ${mismatch.round}: first differing event seq ${mismatch.firstDifferingSeq ?? '(header)'}`,
        )
        .join('\n'),
    );
  }
  const complete = testCase('campaign complete');
  if (report.interrupted) complete.failure(`interrupted ${interruptedText(report)}`, 'interrupted');
  for (const entry of report.notJudged ?? []) {
    const test = testCase(`not judged: ${entry.capability}`);
    if (entry.accepted)
      test.skipped().standardOutput(`${coveredText(entry)}: the core does not implement it; accepted as not judged`);
    else
      test.failure(
        `${coveredText(entry)}: the core does not implement it, and it was not accepted (--not-judged ${entry.capability})`,
        'not-judged',
      );
  }
  return root.build();
}

function replayLines(report: CampaignReport, rounds: readonly { round: number; why: string }[]): string {
  const lines = rounds.slice(0, REPLAY_LINES_MAX).map(({ round, why }) => `${replayCommand(report, round)}   # ${why}`);
  if (rounds.length > REPLAY_LINES_MAX)
    lines.push(`... and ${rounds.length - REPLAY_LINES_MAX} more (see --report FILE.json)`);
  return lines.join('\n');
}
