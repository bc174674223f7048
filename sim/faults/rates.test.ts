import { describe, expect, it } from 'vitest';
import { generatePlan } from '../plan/generate.ts';
import { loadScenario, type Scenario } from '../plan/scenario.ts';
import { F10 } from './f10-stale-planner.ts';
import { F15 } from './f15-transport.ts';
import { ratesOf } from './rates.ts';

describe('fault rates', () => {
  it('are the defaults of the fault file unless the scenario sets them, field by field', () => {
    expect(ratesOf(F15.rates, undefined)).toEqual({
      serverFraction: 0.75,
      reorderFraction: 0.6,
      notificationLossFractions: [0, 0.3, 0.7, 1],
      cutSessionFraction: 0.6,
      cutsPerSession: { min: 1, max: 2 },
    });
    expect(ratesOf(F15.rates, { reorderFraction: 0, notificationLossFractions: [1] })).toEqual({
      serverFraction: 0.75,
      reorderFraction: 0,
      notificationLossFractions: [1],
      cutSessionFraction: 0.6,
      cutsPerSession: { min: 1, max: 2 },
    });
    expect(ratesOf(F10.rates, {})).toEqual({ staleFraction: 0.3, staleDelayMs: { min: 300, max: 2500 } });
  });

  it('reach the plan: a scenario that sets them gets them in every round that enables the fault', () => {
    const scenario: Scenario = {
      ...loadScenario('default'),
      faultEnableFraction: 1,
      faultRates: {
        F9: { refreshersPerKey: { min: 3, max: 3 } },
        F10: { staleFraction: 0.9, staleDelayMs: { min: 10, max: 20 } },
        F15: { serverFraction: 1, reorderFraction: 1, notificationLossFractions: [1] },
      },
    };
    for (const round of [0, 1, 2]) {
      const plan = generatePlan('1', round, scenario);
      expect(plan.refreshersPerKey).toBe(3);
      expect([plan.calls.staleFraction, plan.calls.staleDelayMs]).toEqual([0.9, [10, 20]]);
      expect(
        plan.servers.map((server) => [server.linkFaults.reorder, server.linkFaults.notificationLossFraction]),
      ).toEqual(plan.servers.map(() => [true, 1]));
    }
  });
});
