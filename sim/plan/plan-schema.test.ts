import { describe, expect, it } from 'vitest';
import { handPlan, handServer, step, tools } from '../../test/support/hand-plan.ts';
import { reductionsOf } from '../shrink/reductions.ts';
import { loadCatalog } from './catalog.ts';
import { generatePlan } from './generate.ts';
import { planProblem } from './plan-schema.ts';
import { loadScenario } from './scenario.ts';
import type { RoundPlan } from './types.ts';

/** A plan as a plan file holds it: through JSON, as `catsim shrink` writes it. */
const asFile = (plan: RoundPlan): Record<string, any> => JSON.parse(JSON.stringify(plan)) as Record<string, any>;

/** A small generated plan with one edit applied to a copy. */
function edited(edit: (plan: Record<string, any>) => void): unknown {
  const plan = asFile(generatePlan('1', 5, loadScenario('default')));
  edit(plan);
  return plan;
}

describe('planProblem', () => {
  it('accepts the plans catsim writes: generated on every shipped scenario and catalog, their shrink reductions, hand plans', () => {
    for (const name of ['default', 'equivocation', 'host-restart']) {
      for (let round = 0; round < 40; round += 1) {
        const plan = generatePlan('schema', round, loadScenario(name));
        expect(planProblem(asFile(plan)), `${name} round ${round}`).toBeUndefined();
        if (round % 10 === 0)
          for (const reduction of reductionsOf(plan))
            expect(planProblem(asFile(reduction.plan)), reduction.name).toBeUndefined();
      }
    }
    const catalog = loadCatalog('scenarios/catalogs/everything.json');
    for (let round = 0; round < 10; round += 1)
      expect(planProblem(asFile(generatePlan('schema', round, loadScenario('default'), catalog.pool)))).toBeUndefined();
    expect(
      planProblem(
        asFile(handPlan({ servers: [handServer({ history: [step(0, 1, { 'acme.dev': tools('echo') })] })] })),
      ),
    ).toBeUndefined();
  });

  it('names the first problem of a broken body', () => {
    expect(
      planProblem(
        edited((p) => {
          p.servers[0].history = 'x';
        }),
      ),
    ).toBe('"servers[0].history" must be an array of revision steps, got "x"');
    expect(
      planProblem(
        edited((p) => {
          p.servers[0].history = [];
        }),
      ),
    ).toBe('"servers[0].history" must have at least 1 item');
    expect(
      planProblem(
        edited((p) => {
          p.servers[0].pageSize = 2;
        }),
      ),
    ).toBe('unknown field "servers[0].pageSize"');
    expect(
      planProblem(
        edited((p) => {
          delete p.calls.probeAtMs;
        }),
      ),
    ).toBe('missing field "calls.probeAtMs"');
    expect(
      planProblem(
        edited((p) => {
          p.servers[0].history[0].views.nobody = [];
        }),
      ),
    ).toBe(
      'the key "nobody" of "servers[0].history[0].views" must be an audience "tenant.role" (two non-empty parts, no other "." and no "|")',
    );
    expect(
      planProblem(
        edited((p) => {
          p.servers[0].history[0].views['internal.ops'] = ['echo'];
        }),
      ),
    ).toBe('"servers[0].history[0].views[\'internal.ops\'][0]" must be a tool descriptor (an object), got "echo"');
    expect(
      planProblem(
        edited((p) => {
          p.servers[0].latencyMsMax = 2.5;
        }),
      ),
    ).toBe('"servers[0].latencyMsMax" must be an integer from 0 to 2147483647, got 2.5');
    expect(
      planProblem(
        edited((p) => {
          p.servers[0].pageSizeMin = 1e20;
        }),
      ),
    ).toBe('"servers[0].pageSizeMin" must be an integer from 1 to 2147483647, got 100000000000000000000');
    expect(
      planProblem(
        edited((p) => {
          p.bounds.tHealMs = 2147483648;
        }),
      ),
    ).toBe('"bounds.tHealMs" must be an integer from 0 to 2147483647, got 2147483648');
    expect(
      planProblem(
        edited((p) => {
          p.servers[0].cursorTrait = 'loop';
        }),
      ),
    ).toBe(
      '"servers[0].cursorTrait" must be null or one of "repeat", "cycle", "always-empty", "never-ending", "ignored", "empty-page-with-next", got "loop"',
    );
    expect(
      planProblem(
        edited((p) => {
          p.nominalLatencyMs = [1, 2, 3];
        }),
      ),
    ).toBe('"nominalLatencyMs" must have at most 2 items');
    expect(
      planProblem(
        edited((p) => {
          p.policy.effectClasses.echo = 'read';
        }),
      ),
    ).toBe('"policy.effectClasses.echo" must be one of "READ", "RESERVATION", "WRITE", "DESTRUCTIVE", got "read"');
    expect(
      planProblem(
        edited((p) => {
          p.leaseKey = 'k';
        }),
      ),
    ).toBe('"leaseKey" must be 64 lowercase hex digits, got "k"');
    expect(planProblem([])).toBe('the top level must be a catsim.plan.v1 plan (an object), got an array');
  });

  it('checks what the schema cannot: min <= max and unique server ids', () => {
    expect(
      planProblem(
        edited((p) => {
          p.plannerIntervalMs = [600, 100];
        }),
      ),
    ).toBe('"plannerIntervalMs" must be [min, max] with min <= max, got [600, 100]');
    // A fault's pair (F10's, from its plan slice) is checked the same way.
    expect(
      planProblem(
        edited((p) => {
          p.calls.staleDelayMs = [900, 300];
        }),
      ),
    ).toBe('"calls.staleDelayMs" must be [min, max] with min <= max, got [900, 300]');
    expect(
      planProblem(
        edited((p) => {
          p.servers[0].pageSizeMin = p.servers[0].pageSizeMax + 1;
        }),
      ),
    ).toMatch(/^"servers\[0\]\.pageSizeMin" must be at most "servers\[0\]\.pageSizeMax", got (\d+) > \d+$/);
    expect(
      planProblem(
        edited((p) => {
          p.servers.push(structuredClone(p.servers[0]));
        }),
      ),
    ).toBe('"servers[1].id" repeats "servers[0].id": "s0"');
  });
});
