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
 */
import { describe, expect, it } from 'vitest';
import type { CoreAdapter } from '../../contract/core-api.ts';
import { resolveCore } from '../../cores/index.ts';
import { referenceCore } from '../../cores/reference.ts';
import { unjudgedIn } from '../../oracle/not-judged.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import type { CoreFactory } from '../../sim/guard/adapter.ts';
import { STEPS } from '../../sim/faults/f35-version-removal.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import { loadScenario } from '../../sim/plan/scenario.ts';
import { removalPlan } from '../mutants/plans.ts';
import { runHand } from '../support/hand-plan.ts';

type Run = Awaited<ReturnType<typeof runHand>>;

/** The reference core without the optional `remove` (it keeps `deprecate`). */
const withoutRemove: CoreFactory = (env) => {
  const core = referenceCore()(env);
  const kept: CoreAdapter = {
    attach: core.attach.bind(core),
    disclose: core.disclose.bind(core),
    call: core.call.bind(core),
    pushPolicy: core.pushPolicy.bind(core),
    stop: core.stop.bind(core),
  };
  if (core.createClient !== undefined) kept.createClient = core.createClient.bind(core);
  if (core.deprecate !== undefined) kept.deprecate = core.deprecate.bind(core);
  return kept;
};

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
      const [first, , last] = orders;
      const server = plan.servers.find((candidate) => candidate.id === first?.server);
      expect(orders.map((order) => order.step)).toEqual(STEPS);
      expect(new Set(orders.map((order) => `${order.server} ${order.tool}`)).size).toBe(1);
      const times = orders.map((order) => order.atMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(times).size).toBe(3);
      expect(Math.max(...times)).toBeLessThan(plan.bounds.tHealMs);
      // disabled follows sunset closely: at most a third of a sixth of the stretch, itself at most
      // T_heal (3,000 ms), so at most 166 ms (164 in round 2, the widest here).
      expect((times[1] ?? 0) - (times[0] ?? 0)).toBeLessThanOrEqual(166);
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
    // the scenario: 1849,1879,2142; 1105,1112,1238; 1572,1583,2212; 1266,1294,1925).
    expect(walks).toEqual([
      '0 s0 1928,1953,2168',
      '2 s1 955,1119,2198',
      '3 s0 2481,2487,2600',
      '4 s0 1904,1911,2299',
      '6 s0 327,372,749',
      '7 s0 721,723,1052',
      '8 s0 1358,1373,1698',
      '9 s0 1603,1606,2356',
      '10 s1 2150,2152,2677',
      '11 s0 687,697,1041',
      '12 s0 1332,1333,1457',
      '13 s0 2172,2184,2428',
      '14 s1 2579,2581,2832',
      '16 s0 234,268,450',
      '17 s0 1875,1899,2029',
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
});
