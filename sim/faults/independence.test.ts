/**
 * Each fault draws from its own named streams, so enabling one never shifts another's draws: with
 * fault X removed from a scenario (equivocation or the eras switched off, for the scenario-level ones), the
 * plan fragment of every other fault is byte-identical, and so is the base of every server.
 * A fragment is what a fault decides from its own stream alone (sim/faults/fault.ts); per-session
 * parts are compared on the audiences both plans serve (F16 adds one).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatePlan } from '../plan/generate.ts';
import { loadScenario, type Scenario } from '../plan/scenario.ts';
import type { RoundPlan } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { ALL_FAULTS, FAULTS } from './index.ts';

/** Every fault of the menu enabled in every round, equivocation on, and the protocol eras drawn (all modern). */
const EVERYTHING: Scenario = {
  ...loadScenario('default'),
  faults: FAULTS.map((fault) => fault.id),
  faultEnableFraction: 1,
  equivocation: true,
  eraMix: ['modern'],
};

function without(fault: FaultDefinition): Scenario {
  if (fault.id === 'EQUIV') return { ...EVERYTHING, equivocation: false };
  if (fault.id === 'ERA') return { ...EVERYTHING, eraMix: undefined };
  return { ...EVERYTHING, faults: EVERYTHING.faults.filter((id) => id !== fault.id) };
}

/** The audiences server `id` serves in both plans. */
function sharedAudiences(a: RoundPlan, b: RoundPlan): (id: string) => string[] {
  return (id) => {
    const other = new Set(b.servers.find((server) => server.id === id)?.audiences ?? []);
    return (a.servers.find((server) => server.id === id)?.audiences ?? []).filter((audience) => other.has(audience));
  };
}

/** What the base streams decide: per server, its identity, first revision, page size and latency; the lease key. */
function baseOf(plan: RoundPlan): unknown {
  return [
    plan.leaseKey,
    plan.servers.map((server) => [
      server.id,
      server.identity,
      server.history[0]?.revision,
      server.pageSizeMax,
      server.latencyMsMax,
    ]),
  ];
}

const seedAndRound = fc.tuple(fc.stringMatching(/^[0-9a-z]{1,8}$/), fc.nat({ max: 100_000 }));

describe('fault streams are independent', () => {
  for (const toggled of ALL_FAULTS) {
    it(`removing ${toggled.id} leaves every other fault's plan fragment, and every server's base, byte-identical`, () => {
      let differed = 0;
      fc.assert(
        fc.property(seedAndRound, ([seed, round]) => {
          const all = generatePlan(seed, round, EVERYTHING);
          const less = generatePlan(seed, round, without(toggled));
          const shared = sharedAudiences(all, less);
          for (const fault of ALL_FAULTS) {
            if (fault === toggled) continue;
            expect(
              JSON.stringify(fault.fragment(less, shared)),
              `${fault.id} with ${toggled.id} removed, seed ${seed} round ${round}`,
            ).toBe(JSON.stringify(fault.fragment(all, shared)));
          }
          expect(baseOf(less)).toEqual(baseOf(all));
          expect(toggled.presentIn(less)).toBe(false);
          if (JSON.stringify(toggled.fragment(all, shared)) !== JSON.stringify(toggled.fragment(less, shared)))
            differed += 1;
        }),
        { seed: 20261130, numRuns: 12 },
      );
      // The comparison has teeth: the toggled fault's own fragment did change in some plan.
      expect(differed).toBeGreaterThan(0);
    });
  }
});
