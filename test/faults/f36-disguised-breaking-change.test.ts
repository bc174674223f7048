/**
 * F36: a breaking change disguised as compatible, on the hand plan of test/mutants/plans.ts
 * (`contractPlan`): one server (latency 5 ms, pages of 2, T_heal 2,000, versioned: it checks
 * revision pins) shows acme.dev `read_file`, `list_directory` (claim 2.0.0) and `get_weather`
 * (claim 1.2.0) at revision 7; at 800 `get_weather` makes `units` required (breaking, claim
 * 1.2.1); at 1,200 `list_directory` declares an output schema (compatible, claim unchanged). The
 * planner reads its catalog every 100 ms from 100 and plans a call on each read, of one of the
 * two tools, sent 600 ms late.
 *
 * Worked out on the reference core: generation 1 (published at 40) is shown at 100..800, so the
 * plans p0..p5 made there pin the old contracts; p0 (get_weather, sent at 700) and p1
 * (list_directory, at 800, the change then only get_weather's) run the contract they pinned. The
 * change at 800 is read and published as generation 2 at 855 (list_changed, a relist): p2 and p3
 * (get_weather, pinned before, sent at 900 and 1,000) are refused STALE_CATALOG, the drift the
 * gate sees; p4 (list_directory, 1,100) still runs. At 1,200 list_directory changes: p5, sent at
 * the same instant with the revision-7 pin, is refused by the server (STALE_PIN); generation 3
 * (1,255) lists the new list_directory, and p6..p11, pinned to it before, are refused
 * STALE_CATALOG too: by the seed a run never sees a definition drift, a compatible one included,
 * and is rebound only in a new run (p12 on, planned from generation 3, run). I39 holds: nothing
 * ran a contract its run had not pinned once the core listed the new one, and nothing pinned to
 * what was listed and served was refused.
 *
 * On `mutant:trust-semver-claim` the host reads the claims: 1.2.0 -> 1.2.1 is a patch, so p3
 * (sent at 1,000, after generation 2 was shown at 900) is rebound to the new get_weather and run
 * (lease-2 at 1,005): I39 BREAKING_CONTRACT_EXECUTED, and nothing else. p2 (at 900) is refused
 * still: the session had not been shown generation 2 when it was decided. p7..p11 are rebound
 * across the compatible change and run; I39 does not judge that (an old call is valid under a
 * compatible contract).
 *
 * On `siblingChangePlan` (the same world, the planners calling get_weather alone) the reference
 * core refuses p2..p7 (pinned to generation 1 before the breaking change) as drift and runs p8..p11,
 * shown generation 2 at 900..1,200 and so pinned to get_weather's new contract, at 1,500..1,800:
 * generation 3 (1,255) changed list_directory only, and still lists what they pinned. On
 * `mutant:snapshot-wide-drift` the gate takes list_directory's compatible change as drift of every
 * run pinned to generation 2 and refuses p8..p11 STALE_CATALOG (seq 86, 89, 92, 95): I39
 * PINNED_CONTRACT_REFUSED four times, and nothing else (p12 on, pinned to generation 3, run; so do
 * the quiet tail's probes).
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { classifyDiff } from '../../src/capability/diff.ts';
import { buildManifest } from '../../src/capability/manifest.ts';
import { BREAKING_RULES, claimed, editOf } from '../../sim/faults/f36-disguised-breaking-change.ts';
import { TOOL_POOL } from '../../sim/plan/tool-pool.ts';
import { contractPlan, siblingChangePlan } from '../mutants/plans.ts';
import { runHand } from '../support/hand-plan.ts';

type Run = Awaited<ReturnType<typeof runHand>>;

/** The changes, and each gate decision and what the server did with the call, as `t what` lines. */
function trail(run: Run): string[] {
  const plans = new Map<string, string>();
  return run.events.flatMap((event) => {
    if (event.type === 'plan_made') plans.set(event.planId, `${event.tool}@g${event.generation}`);
    if (event.type === 'contract_changed')
      return [`${event.t} ${event.tool} ${event.change} (${event.rule}) ${event.claimFrom} -> ${event.claimTo}`];
    if (event.type === 'gate_decision')
      return [`${event.t} ${event.planId} ${plans.get(event.planId)} ${event.decision}`];
    if (event.type === 'call_executed') return [`${event.t} ran ${event.tool} ${event.leaseId}`];
    if (event.type === 'call_refused_by_server') return [`${event.t} server refused ${event.tool} ${event.code}`];
    return [];
  });
}

/** Up to the quiet tail, where the same lines hold for both cores. */
const BEFORE_CHANGE = [
  '700 p0 get_weather@g1 ADMIT',
  '705 ran get_weather lease-0',
  '800 get_weather breaking (new required input) 1.2.0 -> 1.2.1',
  '800 p1 list_directory@g1 ADMIT',
  '805 ran list_directory lease-1',
  '900 p2 get_weather@g1 STALE_CATALOG',
];

describe('F36: a breaking change disguised as compatible', () => {
  it("the world's changes are of the class it says, by SPEC section 9's rules, for every pool tool they apply to", () => {
    const classes = new Set<string>();
    for (const { descriptor, sampleArgs } of TOOL_POOL) {
      const before = claimed(descriptor, '1.2.0');
      for (const rule of BREAKING_RULES.filter((candidate) =>
        candidate.applies(descriptor.inputSchema as never, sampleArgs),
      )) {
        const after = editOf(rule, sampleArgs, '1.2.1')(before);
        classes.add(`${rule.name}: ${classifyDiff(buildManifest(before, 's0'), buildManifest(after, 's0')).class}`);
      }
      const control = editOf(null, sampleArgs, '1.2.0')(before);
      classes.add(`control: ${classifyDiff(buildManifest(before, 's0'), buildManifest(control, 's0')).class}`);
    }
    // The pool closes every input it declares, so `additionalProperties closed` never applies there.
    expect([...classes].sort()).toEqual([
      'control: compatible',
      'new required input: breaking',
      'removed property: breaking',
      'tightened enum: breaking',
      'tightened type: breaking',
    ]);
  });

  it('the reference core refuses the runs pinned before each change as drift and runs the new runs: I39 holds', async () => {
    const run = await runHand(contractPlan(), resolveCore('reference'));
    expect(run.verdict.violations).toEqual([]);
    // 12 executed calls of the two changed tools (5 of get_weather, 7 of list_directory, the quiet
    // tail's probes included) and 8 drift refusals after a change of their tool (p2, p3, p6..p11).
    expect(run.verdict.checked.I39).toBe(20);
    expect(trail(run).filter((line) => Number(line.split(' ')[0]) < 2_000)).toEqual([
      ...BEFORE_CHANGE,
      '1000 p3 get_weather@g1 STALE_CATALOG',
      '1100 p4 list_directory@g1 ADMIT',
      '1105 ran list_directory lease-2',
      '1200 list_directory compatible (output schema added) 2.0.0 -> 2.0.0',
      '1200 p5 list_directory@g1 ADMIT',
      '1205 server refused list_directory STALE_PIN',
      '1300 p6 list_directory@g1 STALE_CATALOG',
      '1400 p7 list_directory@g1 STALE_CATALOG',
      '1500 p8 list_directory@g2 STALE_CATALOG',
      '1600 p9 list_directory@g2 STALE_CATALOG',
      '1700 p10 list_directory@g2 STALE_CATALOG',
      '1800 p11 list_directory@g2 STALE_CATALOG',
      '1900 p12 list_directory@g3 ADMIT',
      '1905 ran list_directory lease-4',
    ]);
    expect(probesHit(run.events).filter((name) => name.startsWith('disguised-'))).toEqual([
      'disguised-break-listed',
      'disguised-break-refused',
    ]);
  });

  it('mutant:trust-semver-claim runs p3 against the breaking contract the claim called a patch: I39 alone', async () => {
    const run = await runHand(contractPlan(), resolveCore('mutant:trust-semver-claim'));
    expect(run.verdict.violations.map((v) => `${v.invariant} ${v.code} seq ${v.seq}`)).toEqual([
      'I39 BREAKING_CONTRACT_EXECUTED seq 63',
    ]);
    expect(trail(run).filter((line) => Number(line.split(' ')[0]) < 1_100)).toEqual([
      ...BEFORE_CHANGE,
      '1000 p3 get_weather@g1 ADMIT',
      '1005 ran get_weather lease-2',
    ]);
    expect(run.events.find((event) => event.seq === 63)).toMatchObject({ type: 'call_executed', t: 1005 });
    // p2 was still refused as drift (the defence's probe is hit all the same): the probe shows the
    // defence ran, I39 that it held.
    expect(probesHit(run.events).filter((name) => name.startsWith('disguised-'))).toEqual([
      'disguised-break-listed',
      'disguised-break-refused',
    ]);
  });

  it('the reference core runs the runs pinned to the new contract after a change beside it; snapshot-wide-drift refuses them: I39 alone', async () => {
    const reference = await runHand(siblingChangePlan(), resolveCore('reference'));
    expect(reference.verdict.violations).toEqual([]);
    // Executed calls of the changed tools: get_weather's lease-0 and lease-2..13, list_directory's
    // probe (lease-14); drift refusals after 800: p2..p7. 14 + 6.
    expect(reference.verdict.checked.I39).toBe(20);
    const shared = [
      '700 p0 get_weather@g1 ADMIT',
      '705 ran get_weather lease-0',
      '800 get_weather breaking (new required input) 1.2.0 -> 1.2.1',
      '800 p1 get_weather@g1 ADMIT',
      '805 server refused get_weather STALE_PIN',
      '900 p2 get_weather@g1 STALE_CATALOG',
      '1000 p3 get_weather@g1 STALE_CATALOG',
      '1100 p4 get_weather@g1 STALE_CATALOG',
      '1200 list_directory compatible (output schema added) 2.0.0 -> 2.0.0',
      '1200 p5 get_weather@g1 STALE_CATALOG',
      '1300 p6 get_weather@g1 STALE_CATALOG',
      '1400 p7 get_weather@g1 STALE_CATALOG',
    ];
    expect(trail(reference).filter((line) => Number(line.split(' ')[0]) < 1_900)).toEqual([
      ...shared,
      '1500 p8 get_weather@g2 ADMIT',
      '1505 ran get_weather lease-2',
      '1600 p9 get_weather@g2 ADMIT',
      '1605 ran get_weather lease-3',
      '1700 p10 get_weather@g2 ADMIT',
      '1705 ran get_weather lease-4',
      '1800 p11 get_weather@g2 ADMIT',
      '1805 ran get_weather lease-5',
    ]);
    const mutant = await runHand(siblingChangePlan(), resolveCore('mutant:snapshot-wide-drift'));
    expect(mutant.verdict.violations.map((v) => `${v.invariant} ${v.code} seq ${v.seq}`)).toEqual([
      'I39 PINNED_CONTRACT_REFUSED seq 86',
      'I39 PINNED_CONTRACT_REFUSED seq 89',
      'I39 PINNED_CONTRACT_REFUSED seq 92',
      'I39 PINNED_CONTRACT_REFUSED seq 95',
    ]);
    // Executed: get_weather's lease-0 and lease-2..9, list_directory's probe (lease-10); refused: p2..p11.
    expect(mutant.verdict.checked.I39).toBe(20);
    expect(trail(mutant).filter((line) => Number(line.split(' ')[0]) < 2_000)).toEqual([
      ...shared,
      '1500 p8 get_weather@g2 STALE_CATALOG',
      '1600 p9 get_weather@g2 STALE_CATALOG',
      '1700 p10 get_weather@g2 STALE_CATALOG',
      '1800 p11 get_weather@g2 STALE_CATALOG',
      '1900 p12 get_weather@g3 ADMIT',
      '1905 ran get_weather lease-2',
    ]);
  });
});
