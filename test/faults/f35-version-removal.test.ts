/**
 * F35: a version removed while runs still reference it, on the hand plan of
 * test/mutants/plans.ts (`removalPlan`): one server (latency 5 ms, pages of 2, T_heal 2,000)
 * shows acme.dev five tools at revision 7; the planner of s0/acme.dev calls `read_file` on every
 * tick (every 100 ms). The operator walks `read_file`'s one version (descriptor 038162adfa1d) to
 * `sunset` at 500 and `disabled` at 900, and orders its removal at 1,300.
 *
 * Worked out: the planner is shown generation 1 from 100 on, before the walk, so its run pinned
 * `read_file` v1 and is live for the whole round (sessions never end). On the reference the calls
 * up to 816 are admitted (sunset lets runs under way go on), the calls from 913 on are refused
 * VERSION_DISABLED, and the removal at 1,300 is refused REFERENCED (the run and the generation's
 * bundle pin v1): the calls after it stay VERSION_DISABLED, never VERSION_GONE. With the server
 * adding `echo` at 700, the planner is shown generation 2 from 800: its bundle, built after the
 * sunset, leaves `read_file` out, so the call at 816 is refused VERSION_SUNSET (the call at 765,
 * planned from generation 1 at 700, is admitted: generation 1's run pinned it). On
 * `mutant:remove-while-referenced` the usage graph sees no run and no bundle: the removal is
 * answered removed (I38 REMOVED_WHILE_REFERENCED) and the seven calls of the run from 1,313 to
 * 1,908 are refused VERSION_GONE (I38 REFERENCED_VERSION_VANISHED); `mutant:removal-misreported`
 * removes it the same way but answers refused REFERENCED, so only those seven calls show it. On
 * `mutant:disabled-still-executes` the disabled order is taken as sunset: the run's eleven calls
 * from 913 to 1,908 leave the core (I38 EXECUTED_AFTER_DISABLED; the quiet tail's probe at 3,038,
 * through generation 2 first shown at 3,022, is refused VERSION_SUNSET), and the removal is
 * refused NOT_DISABLED. A core without `remove` gets the three orders `unsupported`: I38 counts
 * nothing and the round is not judged on the lifecycle.
 *
 * With the walk beginning by `announce` at 200 and `echo` added at 300 (`removalPlan({ announceAt:
 * 200, changeAt: 300 })`): generation 2 (published at 365) is first shown at 400, after the
 * announce, and on the reference its bundle binds `read_file` v1 all the same (announced, still
 * bindable): the call at 403 is admitted (probe `announced-still-bound`), and generation 2's run,
 * started before the sunset at 500, goes on calling it up to 816 (then VERSION_DISABLED from 913,
 * the removal refused REFERENCED, as above). On `mutant:announce-as-no-new-binding` the announce is
 * taken as no-new-binding: generation 2's bundle leaves v1 out and the call at 403 is refused
 * TOOL_NOT_PINNED (I38 ANNOUNCED_VERSION_REFUSED at seq 56, alone); its calls from 502 to 816 are
 * refused VERSION_SUNSET, which I38 does not judge (the sunset made v1 unbindable).
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { unjudgedIn } from '../../oracle/not-judged.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { STEPS } from '../../sim/faults/f35-version-removal.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import { removalPlan } from '../mutants/plans.ts';
import { referenceKeeping } from '../support/reference-keeping.ts';
import { runHand } from '../support/hand-plan.ts';

type Run = Awaited<ReturnType<typeof runHand>>;

/** The reference core without the optional `remove` (it keeps `deprecate`). */
const withoutRemove = referenceKeeping(['createClient', 'deprecate']);

/** The orders and read_file's decisions, as `t what` lines (`t DECISION` for a call). */
function readFileTrail(run: Run): string[] {
  return run.events.flatMap((event) => {
    if (event.type === 'lifecycle_ordered')
      return [
        `${event.t} ${event.step} ${event.descriptorDigests.map((digest) => digest.slice(0, 12)).join(',')} ${event.delivery}${event.answer === null ? '' : ` ${event.answer}`}${event.code === null ? '' : ` ${event.code}`}`,
      ];
    if (event.type === 'gate_decision' && event.tool === 'read_file') return [`${event.t} ${event.decision}`];
    return [];
  });
}

const BEFORE_DISABLED = [
  ...['111 ADMIT', '207 ADMIT', '304 ADMIT', '403 ADMIT'],
  '500 sunset 038162adfa1d delivered',
  ...['502 ADMIT', '606 ADMIT', '706 ADMIT', '816 ADMIT'],
  '900 disabled 038162adfa1d delivered',
];
const LATER = ['1313', '1405', '1509', '1607', '1716', '1816', '1908'];

describe('F35: no removal while referenced, no call after disabled', () => {
  it('the reference refuses the removal (REFERENCED) and every call after disabled (VERSION_DISABLED)', async () => {
    const run = await runHand(removalPlan());
    expect(run.verdict.violations).toEqual([]);
    expect(readFileTrail(run)).toEqual([
      ...BEFORE_DISABLED,
      ...['913', '1003', '1101', '1206'].map((t) => `${t} VERSION_DISABLED`),
      '1300 remove 038162adfa1d delivered refused REFERENCED',
      ...[...LATER, '3038'].map((t) => `${t} VERSION_DISABLED`),
    ]);
    expect(run.verdict.checked.I38).toBe(3);
    expect(probesHit(run.events)).toContain('removal-while-referenced');
  });

  it('the reference: a generation first shown after the sunset does not pin the version (VERSION_SUNSET)', async () => {
    const run = await runHand(removalPlan({ changeAt: 700 }));
    expect(run.verdict.violations).toEqual([]);
    expect(readFileTrail(run).slice(0, 12)).toEqual([
      ...['111 ADMIT', '207 ADMIT', '304 ADMIT', '403 ADMIT'],
      '500 sunset 038162adfa1d delivered',
      ...['502 ADMIT', '606 ADMIT', '765 ADMIT', '816 VERSION_SUNSET'],
      '900 disabled 038162adfa1d delivered',
      '913 VERSION_DISABLED',
      '1003 VERSION_DISABLED',
    ]);
  });

  it('mutant:remove-while-referenced removes v1 under the live run: I38 at the answer and at the calls refused as gone', async () => {
    const run = await runHand(removalPlan(), resolveCore('mutant:remove-while-referenced'));
    expect(readFileTrail(run)).toEqual([
      ...BEFORE_DISABLED,
      ...['913', '1003', '1101', '1206'].map((t) => `${t} VERSION_DISABLED`),
      '1300 remove 038162adfa1d delivered removed',
      ...[...LATER, '3038'].map((t) => `${t} VERSION_GONE`),
    ]);
    expect(
      run.verdict.violations.map(({ invariant, seq, code, evidence }) => ({ invariant, seq, code, evidence })),
    ).toEqual([
      {
        invariant: 'I38',
        seq: 98,
        code: 'REMOVED_WHILE_REFERENCED',
        evidence:
          'the core answered the removal of "read_file" of s0 (1 version, seq 98, t=1300 ms) removed while 1 live run referenced one, e.g. run s0/acme.dev fp:0000000000000001|acme.dev#1, shown 038162adfa1d before the walk began',
      },
      {
        invariant: 'I38',
        seq: 101,
        code: 'REFERENCED_VERSION_VANISHED',
        evidence:
          '7 calls of "read_file" from runs that pinned it before the walk began were refused VERSION_GONE after the removal order (seq 98, t=1300 ms, answered removed), the first call s0/acme.dev#p12 at seq 101 (session s0/acme.dev): the version vanished under a live run',
      },
    ]);
  });

  it('mutant:removal-misreported removes v1 but answers refused: I38 only at the calls refused as gone', async () => {
    const run = await runHand(removalPlan(), resolveCore('mutant:removal-misreported'));
    expect(readFileTrail(run)).toEqual([
      ...BEFORE_DISABLED,
      ...['913', '1003', '1101', '1206'].map((t) => `${t} VERSION_DISABLED`),
      '1300 remove 038162adfa1d delivered refused REFERENCED',
      ...[...LATER, '3038'].map((t) => `${t} VERSION_GONE`),
    ]);
    expect(run.verdict.violations.map(({ invariant, seq, code }) => [invariant, seq, code])).toEqual([
      ['I38', 101, 'REFERENCED_VERSION_VANISHED'],
    ]);
  });

  it('mutant:disabled-still-executes lets the run call v1 after disabled: I38 EXECUTED_AFTER_DISABLED', async () => {
    const run = await runHand(removalPlan(), resolveCore('mutant:disabled-still-executes'));
    expect(readFileTrail(run)).toEqual([
      ...BEFORE_DISABLED,
      ...['913', '1003', '1101', '1206'].map((t) => `${t} ADMIT`),
      '1300 remove 038162adfa1d delivered refused NOT_DISABLED',
      ...LATER.map((t) => `${t} ADMIT`),
      '3038 VERSION_SUNSET',
    ]);
    expect(
      run.verdict.violations.map(({ invariant, seq, code, evidence }) => ({ invariant, seq, code, evidence })),
    ).toEqual([
      {
        invariant: 'I38',
        seq: 79,
        code: 'EXECUTED_AFTER_DISABLED',
        evidence:
          '11 calls of "read_file" of s0 left the core after its versions were disabled (seq 75, t=900 ms), the first with receipt lease-8 at seq 79 (t=913 ms, fp:0000000000000001|acme.dev)',
      },
    ]);
  });

  it("the generator's F35 plans (capability-versions, seed 1, rounds 0..19): one walk in one quiet stretch, of a tool the planners are shown", () => {
    const scenario = loadScenario('capability-versions');
    const walks: string[] = [];
    for (let round = 0; round < 20; round += 1) {
      const plan = generatePlan('1', round, scenario);
      const orders = plan.lifecycleOrders ?? [];
      if (orders.length === 0) continue;
      const [first, , , last] = orders;
      const server = plan.servers.find((candidate) => candidate.id === first?.server);
      expect(orders.map((order) => order.step)).toEqual(STEPS);
      expect(new Set(orders.map((order) => `${order.server} ${order.tool}`)).size).toBe(1);
      const times = orders.map((order) => order.atMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(times).size).toBe(4);
      expect(Math.max(...times)).toBeLessThan(plan.bounds.tHealMs);
      // disabled follows sunset closely: at most a third of a sixth of the stretch, itself at most
      // T_heal (3,000 ms), so at most 166 ms (164 in round 2, the widest here).
      expect((times[2] ?? 0) - (times[1] ?? 0)).toBeLessThanOrEqual(166);
      // No planned change of the server between the first order and the removal.
      const changes = (server?.history ?? []).map((step) => step.atMs);
      expect(changes.filter((atMs) => atMs > (first?.atMs ?? 0) && atMs <= (last?.atMs ?? 0))).toEqual([]);
      const listed = (server?.audiences ?? []).flatMap((audience) => server?.history[0]?.views[audience] ?? []);
      expect(listed.map((tool) => tool.name)).toContain(first?.tool);
      expect(plan.calls.walkedCalls).toEqual({ tool: first?.tool, fraction: 0.5 });
      walks.push(`${round} ${first?.server} ${times.join(',')}`);
    }
    // Read off the plans (F35's streams `round/F35` and `swarm/F35`). Rounds 0, 3, 4 and 8 also
    // enable F36, whose contract change on s0 moved s0's longest quiet stretch (before F36 joined
    // the scenario: 1849,1879,2142; 1105,1112,1238; 1572,1583,2212; 1266,1294,1925). `announce`,
    // the first time, is drawn after the other three, which are the times the walk had before it
    // began with `announce`.
    expect(walks).toEqual([
      '0 s0 1660,1928,1953,2168',
      '2 s1 628,955,1119,2198',
      '3 s0 2372,2481,2487,2600',
      '4 s0 1855,1904,1911,2299',
      '6 s0 85,327,372,749',
      '7 s0 650,721,723,1052',
      '8 s0 1305,1358,1373,1698',
      '9 s0 1555,1603,1606,2356',
      '10 s1 2091,2150,2152,2677',
      '11 s0 636,687,697,1041',
      '12 s0 1224,1332,1333,1457',
      '13 s0 2091,2172,2184,2428',
      '14 s1 2517,2579,2581,2832',
      '16 s0 123,234,268,450',
      '17 s0 1690,1875,1899,2029',
    ]);
  });

  it('a core without remove gets the orders unsupported: I38 judges nothing and the round is not judged on the lifecycle', async () => {
    const run = await runHand(removalPlan(), withoutRemove);
    expect(readFileTrail(run).filter((line) => !/^\d+ [A-Z_]+$/.test(line))).toEqual([
      '500 sunset 038162adfa1d unsupported',
      '900 disabled 038162adfa1d unsupported',
      '1300 remove 038162adfa1d unsupported',
    ]);
    expect(run.verdict.violations).toEqual([]);
    expect(run.verdict.checked.I38).toBe(0);
    expect(unjudgedIn(run.verdict.metrics)).toEqual({ lifecycle: 3 });
  });

  it('announce refuses nothing: the reference binds v1 in a generation first shown after it; announce-as-no-new-binding refuses it', async () => {
    const plan = () => removalPlan({ announceAt: 200, changeAt: 300 });
    const reference = await runHand(plan());
    expect(reference.verdict.violations).toEqual([]);
    // One count per delivered order: announce, sunset, disabled, remove.
    expect(reference.verdict.checked.I38).toBe(4);
    const early = (run: Run) => readFileTrail(run).filter((line) => Number(line.split(' ')[0]) < 900);
    expect(early(reference)).toEqual([
      ...['111 ADMIT', '200 announce 038162adfa1d delivered', '207 ADMIT', '304 ADMIT', '403 ADMIT'],
      '500 sunset 038162adfa1d delivered',
      ...['502 ADMIT', '606 ADMIT', '706 ADMIT', '816 ADMIT'],
    ]);
    expect(probesHit(reference.events)).toEqual(['removal-while-referenced', 'announced-still-bound']);
    const mutant = await runHand(plan(), resolveCore('mutant:announce-as-no-new-binding'));
    expect(mutant.verdict.violations.map((v) => `${v.invariant} ${v.code} seq ${v.seq}`)).toEqual([
      'I38 ANNOUNCED_VERSION_REFUSED seq 56',
    ]);
    expect(early(mutant)).toEqual([
      ...['111 ADMIT', '200 announce 038162adfa1d delivered', '207 ADMIT', '304 ADMIT', '403 TOOL_NOT_PINNED'],
      '500 sunset 038162adfa1d delivered',
      ...['502 VERSION_SUNSET', '606 VERSION_SUNSET', '706 VERSION_SUNSET', '816 VERSION_SUNSET'],
    ]);
    expect(mutant.events.find((event) => event.seq === 56)).toMatchObject({
      type: 'gate_decision',
      t: 403,
      decision: 'TOOL_NOT_PINNED',
    });
  });
});
