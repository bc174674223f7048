import { describe, expect, it } from 'vitest';
import { resolveCore } from '../cores/index.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { reductionsOf } from '../sim/shrink/reductions.ts';
import { relabelled, shrinkPlan } from '../runner/shrink.ts';
import { faultsPresentIn, SCENARIO_FAULTS } from '../sim/faults/index.ts';
import type { RoundPlan } from '../sim/plan/types.ts';
import { handPlan, handServer, step, tool, tools, type HandServerOptions } from './support/hand-plan.ts';

/** Equivocation, the scenario-level fault, as the registry holds it. */
const [EQUIVOCATION] = SCENARIO_FAULTS;

describe('shrinking known mutants to small counterexamples', () => {
  it('no-final-recheck (seed 1, round 3) shrinks to one server, one audience, one revision and no tools', async () => {
    const core = 'mutant:no-final-recheck';
    const plan = generatePlan('1', 3, loadScenario('default'));
    const result = await shrinkPlan(plan, resolveCore(core), core);
    expect(result.invariant).toBe('I1');
    expect(result.violations.every((v) => v.code === 'NO_FINAL_RECHECK')).toBe(true);
    const [server] = result.plan.servers;
    // Round 3 has two servers; s0 goes first, then two of s1's three audiences.
    expect(result.plan.servers.map((s) => s.id)).toEqual(['s1']);
    expect(server?.audiences).toEqual(['acme.ops']);
    expect(server?.history).toHaveLength(1);
    expect(Object.values(server?.history[0]?.views ?? {}).flat()).toEqual([]);
    expect(server?.restartsAtMs).toEqual([]);
    expect(result.plan.calls.callFraction).toBe(0);
    // 675 -> 131: a server (100) with one audience (20) and one revision step (10), one refresher.
    expect([result.sizeBefore, result.sizeAfter]).toEqual([675, 131]);
    // The round enabled F1 F2 F4 F7 F8 F19 F20 F24 F25 and the tool-version faults F26 F31 F32 F34
    // F35 F36 (the swarm draws each fault from its own stream); the shrink (50 steps) dropped s1's
    // F32 step (438 ms) and its two F36 steps (992 and 1917 ms), its operator manifest file, F36's
    // tools refund_payment and write_file, the operator orders (no emergency disable at 1525 ms, no
    // deprecation at 534, the alias sets at 785 and 1395, F35's announce, and its sunset, disable
    // and removal at 2481, 2487 and 2600) and the calls they favour, s1's F1, F2 and F4 revision steps, its F24 scope
    // window (311 ms), the three policy changes and the lost policy pushes (F8), and last F19's one
    // trigger (435 ms, s1 acme.ops: its own reduction, after every other); F7, F20 and s0's F25
    // went with s0 and the dropped audiences (no step of s1 names them), so the shrunk plan, and
    // the header of the trace it ran, claim no fault. What is left is s1 as drawn: a 2026-07-28
    // server over Streamable HTTP.
    expect(plan.faults).toEqual([
      'F1',
      'F2',
      'F4',
      'F7',
      'F8',
      'F19',
      'F20',
      'F24',
      'F25',
      'F26',
      'F31',
      'F32',
      'F34',
      'F35',
      'F36',
    ]);
    expect(result.steps).toHaveLength(50);
    expect([server?.era, server?.transport]).toEqual(['modern', 'http']);
    expect(result.plan.faults).toEqual([]);
    expect(result.run.header.faults).toEqual([]);
  });

  it('key-without-tenant (seed 1, round 3) shrinks, for I4, to two tenants of one role with no tools: the shared pointer shows each a generation only the other published', async () => {
    // Round 3, not 0: round 0 is now one server with F23:bytes, a planted F13 and eleven more
    // faults, and 80 attempts leave 15 of its tools and an I4 FOREIGN_TOOL besides (size 353 ->
    // 162). Round 3's s1 has two tenants of one role (globex.dev, acme.dev) besides acme.ops.
    const core = 'mutant:key-without-tenant';
    // 150 attempts: since the default has the tool-version faults (issue 30), 80 stop at 157 with
    // three of F36's tools still in the acme.ops view; the shrink converges in 144.
    const result = await shrinkPlan(generatePlan('1', 3, loadScenario('default')), resolveCore(core), core, {
      attemptsMax: 150,
      invariant: 'I4',
    });
    expect(result.invariant).toBe('I4');
    // The leak needs two tenants with one role; with no tools left, what is shown is the shared
    // pointer's generation number, which the asking tenant never published.
    expect(result.plan.servers.map((s) => s.audiences)).toEqual([['globex.dev', 'acme.dev']]);
    expect(result.plan.servers[0]?.history).toHaveLength(1);
    expect(Object.values(result.plan.servers[0]?.history[0]?.views ?? {}).flat()).toEqual([]);
    expect(new Set(result.violations.map((v) => `${v.invariant} ${v.code}`))).toEqual(
      new Set(['I4 DISCLOSED_UNKNOWN_GENERATION']),
    );
    // 675 -> 151: s0, acme.ops, s1's revision steps, its F24 scope window (311 ms), its tools, the
    // operator's orders and files, the planned calls and all three policy changes dropped (150 for
    // the server, its two audiences and one step, + 1 for F9's one refresher). With 80 attempts
    // (before the tool-version faults) it stopped at 153 with two of F8's policy changes left.
    expect(result.sizeAfter).toBe(151);
    // No fault is left: F19's trigger (s1 acme.ops, 435 ms) is still in the plan but names the
    // dropped audience, so it does nothing and is no F19 label.
    expect([result.plan.servers[0]?.versioned, result.plan.faults]).toEqual([true, []]);
  });
});

describe('fault labels of a shrunk plan', () => {
  it('are recomputed from what the plan still contains, never copied from the round it came from', () => {
    const plan = handPlan({
      faults: ['F1', 'F5', 'F11', 'F17'],
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': tools('read_file', 'echo') })],
          cursorTrait: 'cycle',
          restartsAtMs: [40],
        }),
      ],
    });
    // No F1 step, no guessing planner: only the cursor cycle (F5) and the restart (F11) are left.
    expect(relabelled(plan).faults).toEqual(['F5', 'F11']);
    const honest = reductionsOf(plan).find((reduction) => reduction.name === 's0: honest cursors');
    expect(relabelled(honest?.plan ?? plan).faults).toEqual(['F11']);
    const noRestart = reductionsOf(plan).find((reduction) => reduction.name === 's0: no restart at 40 ms');
    expect(relabelled(noRestart?.plan ?? plan).faults).toEqual(['F5']);
  });

  it('name each fault of a plan that holds only that fault, and nothing for a healthy plan', () => {
    const base = [step(0, 7, { 'acme.dev': tools('read_file', 'echo') })];
    const server = (options: Partial<HandServerOptions> = {}) => handServer({ history: base, ...options });
    const plans: [string, RoundPlan][] = [
      ['healthy', handPlan({ servers: [server()] })],
      [
        'F1',
        handPlan({ servers: [server({ history: [...base, step(50, 8, { 'acme.dev': tools('read_file') }, 'F1')] })] }),
      ],
      [
        'F2',
        handPlan({ servers: [server({ history: [...base, step(50, 8, { 'acme.dev': tools('read_file') }, 'F2')] })] }),
      ],
      ['F3', handPlan({ servers: [server({ notifications: { copies: 2 } })] })],
      [
        'F4',
        handPlan({
          servers: [
            server({
              history: [
                ...base,
                step(50, 8, { 'acme.dev': tools('read_file', 'echo'), 'internal.ops': tools('echo') }, 'F4'),
              ],
            }),
          ],
        }),
      ],
      ['F5', handPlan({ servers: [server({ cursorTrait: 'repeat' })] })],
      ['F6', handPlan({ servers: [server({ planted: [{ defect: 'DUPLICATE_NAME', descriptor: tool('echo') }] })] })],
      ['F7', handPlan({ servers: [server({ rotations: [{ atMs: 30, identity: 'fp:2' }] })] })],
      ['F8', handPlan({ servers: [server()], policy: { pushLossFraction: 0.3 } })],
      ['F9', handPlan({ servers: [server()], refreshersPerKey: 2 })],
      ['F10', handPlan({ servers: [server()], calls: { staleFraction: 0.3 } })],
      ['F11', handPlan({ servers: [server({ restartsAtMs: [30] })] })],
      ['F12', handPlan({ servers: [server({ versioned: false })] })],
      ['F13', handPlan({ servers: [server({ planted: [{ defect: 'REMOTE_REF', descriptor: tool('echo') }] })] })],
      [
        'F14',
        handPlan({
          servers: [
            server({
              history: [
                step(0, 7, { 'acme.dev': [tool('echo'), { name: 'purge_cache_s0', inputSchema: { type: 'object' } }] }),
              ],
            }),
          ],
        }),
      ],
      ['F15', handPlan({ servers: [server({ linkFaults: { disconnectsAtMs: { 'acme.dev': [30] } } })] })],
      [
        'F16',
        handPlan({
          servers: [
            server({
              audiences: ['acme.dev', 'globex.dev'],
              history: [
                step(0, 7, {
                  'acme.dev': tools('echo'),
                  'globex.dev': [{ ...tool('echo'), description: 'Echoes. (globex edition)' }],
                }),
              ],
            }),
          ],
        }),
      ],
      ['F17', handPlan({ servers: [server()], calls: { guessFraction: 0.3 } })],
    ];
    for (const [fault, plan] of plans) expect(faultsPresentIn(plan), fault).toEqual(fault === 'healthy' ? [] : [fault]);
    // Equivocation is switched on by the scenario, not listed in `faults`; it still knows when a plan holds it.
    const equivocating = handPlan({ servers: [server({ equivocates: true })] });
    expect([
      faultsPresentIn(equivocating),
      EQUIVOCATION.presentIn(equivocating),
      EQUIVOCATION.presentIn(plans[0]?.[1] as RoundPlan),
    ]).toEqual([[], true, false]);
  });
});
