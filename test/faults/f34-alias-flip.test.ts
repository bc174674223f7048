/**
 * F34: an alias flip mid-run, on the hand plan of test/mutants/plans.ts (`aliasPlan`): one
 * operator-described server (latency 5 ms, pages of 2, T_heal 2,000) shows acme.dev five tools at
 * revision 7 and adds one tool at 600, 1,100 and 1,500; the planner of s0/acme.dev calls
 * `read_file` on every tick (every 100 ms). The operator sets the production alias of
 * `read_file` at release 0 at 300 (the manifest file as handed: version 1, the version the
 * planner's calls bound since 111) and flips it to release 1 at 900 (a longer timeout: version 2,
 * compatible); with `rollback`, rolls it back at 1,300.
 *
 * Worked out: the planner is first shown generation 2 at 700 (published after the change at 600),
 * generation 3 at 1,200 and generation 4 at 1,600; each is a new run. Generation 2's run started
 * under release 0, so on the reference its calls at 913, 1,003 and 1,101, after the flip, still
 * bind version 1; generation 3's run started after the flip and binds version 2; generation 4's
 * binds version 2, or version 1 when the alias was rolled back at 1,300 (a rollback restores later
 * runs only: generation 3's calls at 1,313, 1,405 and 1,575 keep version 2). A breaking release
 * without a migration (a shorter timeout) is refused: every run binds version 1. On
 * `mutant:alias-follows-latest` the alias is resolved at each call, so generation 2's three calls
 * after the flip bind version 2 (and, after the rollback, generation 3's three bind version 1):
 * I37 DEFINITION_CHANGED_MID_RUN at each, and nothing else. A core without `alias` gets the three
 * orders `unsupported`: I37 counts nothing and the round is not judged on aliases. On
 * `mutant:breaking-alias-without-migration` the breaking release is taken: generations 3 and 4,
 * first shown after it, bind version 2, I37 BREAKING_BOUND_WITHOUT_MIGRATION at each first receipt.
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { unjudgedIn } from '../../oracle/not-judged.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { classifyDiff } from '../../src/capability/diff.ts';
import { buildManifest, releaseOf } from '../../src/capability/manifest.ts';
import { RELEASES } from '../../sim/faults/f34-alias-flip.ts';
import { aliasPlan } from '../mutants/plans.ts';
import { referenceKeeping } from '../support/reference-keeping.ts';
import { runHand, tool } from '../support/hand-plan.ts';

type Run = Awaited<ReturnType<typeof runHand>>;

/** The reference core without the optional `alias` (and every other optional method but createClient). */
const withoutAliases = referenceKeeping(['createClient']);

/** The orders and read_file's receipts, as `t what` lines: `t g<generation> v<version>`. */
function readFileTrail(run: Run): string[] {
  return run.events.flatMap((event) => {
    if (event.type === 'alias_ordered')
      return [
        `${event.t} ${event.action}${event.release === null ? '' : ` release ${event.release}`} ${event.delivery}`,
      ];
    if (event.type === 'receipt' && event.tool === 'read_file')
      return [`${event.t} g${event.disclosure?.generation} v${event.version?.version}`];
    return [];
  });
}

const BEFORE_FLIP = ['111 g1 v1', '207 g1 v1', '300 set release 0 delivered', '304 g1 v1', '403 g1 v1', '502 g1 v1'];
const FIRST_RUNS = [...BEFORE_FLIP, '665 g1 v1', '706 g2 v1', '816 g2 v1', '900 set release 1 delivered'];

describe('F34: an alias flip mid-run', () => {
  it("the world's releases are of the class it says, by SPEC section 9's rules", () => {
    const base = buildManifest(tool('read_file'), 's0');
    expect(
      RELEASES.map((release) => [release.change, classifyDiff(base, releaseOf(base, release.entry)).class]),
    ).toEqual([
      ['compatible', 'compatible'],
      ['behavioural', 'behavioural'],
      ['behavioural', 'behavioural'],
      ['breaking', 'breaking'],
    ]);
  });

  it('the reference: a run keeps the version it bound; runs started after the flip bind the new target', async () => {
    const run = await runHand(aliasPlan());
    expect(run.verdict.violations).toEqual([]);
    expect(readFileTrail(run)).toEqual([
      ...FIRST_RUNS,
      '913 g2 v1',
      '1003 g2 v1',
      '1101 g2 v1',
      ...['1206 g3 v2', '1313 g3 v2', '1405 g3 v2', '1575 g3 v2'],
      ...['1607 g4 v2', '1716 g4 v2', '1816 g4 v2', '1908 g4 v2', '3038 g4 v2'],
    ]);
    expect(run.verdict.checked.I37).toBe(2);
    expect(probesHit(run.events).filter((name) => name.startsWith('alias'))).toEqual(['alias-flipped']);
  });

  it('the reference: a rollback restores later runs only', async () => {
    const run = await runHand(aliasPlan({ rollback: true }));
    expect(run.verdict.violations).toEqual([]);
    expect(readFileTrail(run)).toEqual([
      ...FIRST_RUNS,
      '913 g2 v1',
      '1003 g2 v1',
      '1101 g2 v1',
      '1206 g3 v2',
      '1300 rollback delivered',
      ...['1313 g3 v2', '1405 g3 v2', '1575 g3 v2'],
      ...['1607 g4 v1', '1716 g4 v1', '1816 g4 v1', '1908 g4 v1', '3038 g4 v1'],
    ]);
    expect(run.verdict.checked.I37).toBe(3);
  });

  it('the reference refuses a breaking release without a migration: every run keeps version 1', async () => {
    const run = await runHand(aliasPlan({ change: 'breaking' }));
    expect(run.verdict.violations).toEqual([]);
    const versions = readFileTrail(run)
      .filter((line) => / g\d v\d$/.test(line))
      .map((line) => line.slice(-2));
    expect(new Set(versions)).toEqual(new Set(['v1']));
    expect(versions).toHaveLength(20);
  });

  it('mutant:alias-follows-latest: the flip and the rollback reach runs under way, I37 at each such call', async () => {
    const run = await runHand(aliasPlan({ rollback: true }), resolveCore('mutant:alias-follows-latest'));
    expect(readFileTrail(run)).toEqual([
      ...FIRST_RUNS,
      '913 g2 v2',
      '1003 g2 v2',
      '1101 g2 v2',
      '1206 g3 v2',
      '1300 rollback delivered',
      ...['1313 g3 v1', '1405 g3 v1', '1575 g3 v1'],
      ...['1607 g4 v1', '1716 g4 v1', '1816 g4 v1', '1908 g4 v1', '3038 g4 v1'],
    ]);
    expect(run.verdict.violations.map(({ invariant, seq, code }) => [invariant, seq, code])).toEqual([
      ['I37', 94, 'DEFINITION_CHANGED_MID_RUN'],
      ['I37', 101, 'DEFINITION_CHANGED_MID_RUN'],
      ['I37', 110, 'DEFINITION_CHANGED_MID_RUN'],
      ['I37', 139, 'DEFINITION_CHANGED_MID_RUN'],
      ['I37', 146, 'DEFINITION_CHANGED_MID_RUN'],
      ['I37', 169, 'DEFINITION_CHANGED_MID_RUN'],
    ]);
    expect(run.verdict.violations[0]?.evidence).toMatch(
      /^receipt lease-8 \(seq 94\) of run s0\/acme\.dev fp:0000000000000001\|acme\.dev#2 binds s0\.read_file v2 \(manifest [0-9a-f]{12}\); the run's first receipt lease-6 \(seq 79\) bound s0\.read_file v1 \(manifest [0-9a-f]{12}\)$/,
    );
  });

  it('a core without alias gets the orders unsupported: I37 judges nothing and the round is not judged on aliases', async () => {
    const run = await runHand(aliasPlan({ rollback: true }), withoutAliases);
    expect(readFileTrail(run).filter((line) => !/ g\d v\d$/.test(line))).toEqual([
      '300 set release 0 unsupported',
      '900 set release 1 unsupported',
      '1300 rollback unsupported',
    ]);
    expect(run.verdict.violations).toEqual([]);
    expect(run.verdict.checked.I37).toBe(0);
    expect(unjudgedIn(run.verdict.metrics)).toEqual({ aliases: 3 });
  });

  it('mutant:breaking-alias-without-migration takes the breaking flip: runs started after it bind version 2, I37', async () => {
    const run = await runHand(
      aliasPlan({ change: 'breaking' }),
      resolveCore('mutant:breaking-alias-without-migration'),
    );
    expect(readFileTrail(run)).toEqual([
      ...FIRST_RUNS,
      '913 g2 v1',
      '1003 g2 v1',
      '1101 g2 v1',
      ...['1206 g3 v2', '1313 g3 v2', '1405 g3 v2', '1575 g3 v2'],
      ...['1607 g4 v2', '1716 g4 v2', '1816 g4 v2', '1908 g4 v2', '3038 g4 v2'],
    ]);
    // The first receipt of each run started after the refused-by-rule flip (generation 3 at 1,206,
    // generation 4 at 1,607) binds version 2, where release 0 was bound as version 1 (at 111).
    expect(run.verdict.violations.map(({ invariant, seq, code }) => [invariant, seq, code])).toEqual([
      ['I37', 131, 'BREAKING_BOUND_WITHOUT_MIGRATION'],
      ['I37', 175, 'BREAKING_BOUND_WITHOUT_MIGRATION'],
    ]);
  });
});
