import { describe, expect, it } from 'vitest';
import { resolveCore } from '../sim/campaign/cores.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { shrinkPlan } from '../sim/shrink/shrink.ts';

describe('shrinking known mutants to small counterexamples', () => {
  it('no-final-recheck (seed 1, round 5) shrinks to one server, one audience, one revision and no tools', async () => {
    const core = 'mutant:no-final-recheck';
    const result = await shrinkPlan(generatePlan('1', 5, loadScenario('default')), resolveCore(core), core);
    expect(result.invariant).toBe('I1');
    expect(result.violations.every((v) => v.code === 'NO_FINAL_RECHECK')).toBe(true);
    const [server] = result.plan.servers;
    expect(result.plan.servers).toHaveLength(1);
    expect(server?.audiences).toEqual(['acme.dev']);
    expect(server?.history).toHaveLength(1);
    expect(Object.values(server?.history[0]?.views ?? {}).flat()).toEqual([]);
    expect(server?.restartsAtMs).toEqual([]);
    expect(result.plan.calls.callFraction).toBe(0);
    // 169 -> 131: a server (100) with one audience (20) and one revision step (10), one refresher.
    expect([result.sizeBefore, result.sizeAfter]).toEqual([169, 131]);
  });

  it('key-without-tenant (seed 1, round 0) shrinks to a single audience with no tools, still failing I2', async () => {
    const core = 'mutant:key-without-tenant';
    const result = await shrinkPlan(generatePlan('1', 0, loadScenario('default')), resolveCore(core), core, { attemptsMax: 80 });
    expect(result.invariant).toBe('I2');
    expect(result.plan.servers.map((s) => s.audiences)).toEqual([['acmex.ops']]);
    expect(result.sizeAfter).toBe(131);
  });
});
