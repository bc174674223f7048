import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULT_ID_RANGE } from '../faults/index.ts';
import { loadScenario, ScenarioError, scenarioProblem, type Scenario } from './scenario.ts';

const shipped = (name: string): Scenario => JSON.parse(readFileSync(`scenarios/${name}.json`, 'utf8')) as Scenario;

/** The default scenario with one edit applied to a copy. */
function edited(edit: (scenario: Record<string, any>) => void): unknown {
  const scenario = structuredClone(shipped('default')) as unknown as Record<string, any>;
  edit(scenario);
  return scenario;
}

describe('loadScenario', () => {
  it('loads every shipped scenario by name', () => {
    expect(loadScenario('default').name).toBe('default');
    expect(loadScenario('equivocation').equivocation).toBe(true);
    expect(loadScenario('default')).toEqual(shipped('default'));
  });

  it('throws a ScenarioError naming the file and the first problem, in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-scenario-'));
    const cases: [string, string, string][] = [
      ['missing.json', '', 'no such file'],
      ['garbage.json', '{"name": ', 'not valid JSON (line 1, column 10)'],
      [
        'typo.json',
        JSON.stringify(
          edited((s) => {
            s.pageSizee = s.pageSize;
          }),
        ),
        'unknown field "pageSizee"',
      ],
      [
        'float.json',
        JSON.stringify(
          edited((s) => {
            s.pageSize.min = 1.5;
          }),
        ),
        '"pageSize.min" must be an integer from 1 to 10000, got 1.5',
      ],
    ];
    for (const [name, text, problem] of cases) {
      const path = join(dir, name);
      if (text !== '') writeFileSync(path, text);
      expect(() => loadScenario(path)).toThrow(new ScenarioError(`${path}: ${problem}`));
    }
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('scenarioProblem', () => {
  it('accepts the shipped scenarios and the optional fields', () => {
    expect(scenarioProblem(shipped('default'))).toBeUndefined();
    expect(scenarioProblem(shipped('equivocation'))).toBeUndefined();
    expect(
      scenarioProblem(
        edited((s) => {
          s.requiredProbes = ['cursor-loop-quarantined'];
          s.equivocation = false;
        }),
      ),
    ).toBeUndefined();
  });

  it('rejects unknown fields at every level', () => {
    expect(
      scenarioProblem(
        edited((s) => {
          s.pageSizee = 3;
        }),
      ),
    ).toBe('unknown field "pageSizee"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.timings.refreshMs = 800;
        }),
      ),
    ).toBe('unknown field "timings.refreshMs"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.calls.callFraktion = 0.5;
        }),
      ),
    ).toBe('unknown field "calls.callFraktion"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.latencyMs.mean = 4;
        }),
      ),
    ).toBe('unknown field "latencyMs.mean"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F10: { staleDelayMs: { min: 300, max: 2500, step: 1 } } };
        }),
      ),
    ).toBe('unknown field "faultRates.F10.staleDelayMs.step"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F15: { reorderFraktion: 0.5 } };
        }),
      ),
    ).toBe('unknown field "faultRates.F15.reorderFraktion"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F99: {} };
        }),
      ),
    ).toBe('unknown field "faultRates.F99"');
    // The rates that moved into faultRates in the same commit are no longer fields of "calls".
    expect(
      scenarioProblem(
        edited((s) => {
          s.calls.staleFraction = 0.3;
        }),
      ),
    ).toBe('unknown field "calls.staleFraction"');
  });

  it('names missing fields with their path', () => {
    expect(
      scenarioProblem(
        edited((s) => {
          delete s.description;
        }),
      ),
    ).toBe('missing field "description"');
    expect(
      scenarioProblem(
        edited((s) => {
          delete s.timings.listChangedDelayMs;
        }),
      ),
    ).toBe('missing field "timings.listChangedDelayMs"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F10: { staleDelayMs: { min: 300 } } };
        }),
      ),
    ).toBe('missing field "faultRates.F10.staleDelayMs.max"');
  });

  it('requires integers for counts, times and ranges', () => {
    expect(
      scenarioProblem(
        edited((s) => {
          s.servers.max = 2.5;
        }),
      ),
    ).toBe('"servers.max" must be an integer from 1 to 64, got 2.5');
    expect(
      scenarioProblem(
        edited((s) => {
          s.latencyMs.min = -1;
        }),
      ),
    ).toBe('"latencyMs.min" must be an integer from 0 to 2147483647, got -1');
    expect(
      scenarioProblem(
        edited((s) => {
          s.pageSize.min = 0;
        }),
      ),
    ).toBe('"pageSize.min" must be an integer from 1 to 10000, got 0');
    expect(
      scenarioProblem(
        edited((s) => {
          s.plannerIntervalMs.min = 0;
        }),
      ),
    ).toBe('"plannerIntervalMs.min" must be an integer from 1 to 2147483647, got 0');
    expect(
      scenarioProblem(
        edited((s) => {
          s.audiencesPerServer.min = 0;
        }),
      ),
    ).toBe('"audiencesPerServer.min" must be an integer from 1 to 64, got 0');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F10: { staleDelayMs: { min: '300', max: 2500 } } };
        }),
      ),
    ).toBe('"faultRates.F10.staleDelayMs.min" must be an integer from 0 to 2147483647, got "300"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F1: { changesPerServer: { min: 4, max: 1001 } } };
        }),
      ),
    ).toBe('"faultRates.F1.changesPerServer.max" must be an integer from 0 to 1000, got 1001');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F3: { copies: { min: 0, max: 3 } } };
        }),
      ),
    ).toBe('"faultRates.F3.copies.min" must be an integer from 1 to 1000, got 0');
    expect(
      scenarioProblem(
        edited((s) => {
          s.eventBudget = 40000.5;
        }),
      ),
    ).toBe('"eventBudget" must be an integer from 1 to 10000000, got 40000.5');
    expect(
      scenarioProblem(
        edited((s) => {
          s.timings.retryBackoffMsBase = -40;
        }),
      ),
    ).toBe('"timings.retryBackoffMsBase" must be an integer from 0 to 2147483647, got -40');
    expect(
      scenarioProblem(
        edited((s) => {
          s.probeGateRounds = 0;
        }),
      ),
    ).toBe('"probeGateRounds" must be an integer from 1 to 2147483647, got 0');
    // 2^31 - 1 is the largest count or time (ms): past 2^53 a JSON integer is no longer exact, and
    // 1e20 used to reach the generator and crash it (exit 3) instead of being refused (exit 2).
    expect(
      scenarioProblem(
        edited((s) => {
          s.tHealMs = 1e20;
        }),
      ),
    ).toBe('"tHealMs" must be an integer from 204 to 2147483647, got 100000000000000000000');
    expect(
      scenarioProblem(
        edited((s) => {
          s.pageSize.max = 2147483648;
        }),
      ),
    ).toBe('"pageSize.max" must be an integer from 1 to 10000, got 2147483648');
    expect(
      scenarioProblem(
        edited((s) => {
          s.pushLatencyMs = [1, 200];
        }),
      ),
    ).toBe('"pushLatencyMs" must be a range {"min": n, "max": m}, got an array');
  });

  it('keeps T_heal large enough for the plan generator to place its fault episodes', () => {
    expect(
      scenarioProblem(
        edited((s) => {
          s.tHealMs = 204;
        }),
      ),
    ).toBeUndefined();
    expect(
      scenarioProblem(
        edited((s) => {
          s.tHealMs = 150;
        }),
      ),
    ).toBe('"tHealMs" must be an integer from 204 to 2147483647, got 150');
  });

  it('checks min <= max in every range after the schema', () => {
    expect(
      scenarioProblem(
        edited((s) => {
          s.latencyMs.min = 50;
        }),
      ),
    ).toBe('"latencyMs.min" must be at most "latencyMs.max", got 50 > 40');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F10: { staleDelayMs: { min: 300, max: 10 } } };
        }),
      ),
    ).toBe('"faultRates.F10.staleDelayMs.min" must be at most "faultRates.F10.staleDelayMs.max", got 300 > 10');
    expect(
      scenarioProblem(
        edited((s) => {
          s.servers = { min: 2, max: 2 };
        }),
      ),
    ).toBeUndefined();
  });

  it('checks fractions, fault ids, audiences and the other fields', () => {
    expect(scenarioProblem([])).toBe('the top level must be an object, got an array');
    expect(
      scenarioProblem(
        edited((s) => {
          s.name = 3;
        }),
      ),
    ).toBe('"name" must be a string, got 3');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faults = 'F1';
        }),
      ),
    ).toBe(`"faults" must be an array of fault ids ${FAULT_ID_RANGE}, got "F1"`);
    expect(
      scenarioProblem(
        edited((s) => {
          s.faults[2] = 'F99';
        }),
      ),
    ).toBe(`"faults[2]" must be a fault id ${FAULT_ID_RANGE}, got "F99"`);
    // The default scenario lists 37 faults (F1-F37 since issue 30 item 7 added the tool-version
    // faults F26 and F31-F37 to F1-F25 and F27-F30), so a pushed F3 is faults[37].
    expect(
      scenarioProblem(
        edited((s) => {
          s.faults.push('F3');
        }),
      ),
    ).toBe('"faults[37]" repeats "faults[2]": "F3"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultEnableFraction = 1.5;
        }),
      ),
    ).toBe('"faultEnableFraction" must be a number in [0, 1], got 1.5');
    expect(
      scenarioProblem(
        edited((s) => {
          s.calls.confirmFraction = -0.1;
        }),
      ),
    ).toBe('"calls.confirmFraction" must be a number in [0, 1], got -0.1');
    expect(
      scenarioProblem(
        edited((s) => {
          s.audiences = [];
        }),
      ),
    ).toBe('"audiences" must have at least 1 item');
    expect(
      scenarioProblem(
        edited((s) => {
          s.audiences[1] = 'acme';
        }),
      ),
    ).toBe(
      '"audiences[1]" must be an audience "tenant.role" (two non-empty parts, no other "." and no "|"), got "acme"',
    );
    expect(
      scenarioProblem(
        edited((s) => {
          s.equivocation = 'yes';
        }),
      ),
    ).toBe('"equivocation" must be a boolean, got "yes"');
    expect(
      scenarioProblem(
        edited((s) => {
          s.requiredProbes = [1];
        }),
      ),
    ).toBe('"requiredProbes[0]" must be a probe name, got 1');
    expect(
      scenarioProblem(
        edited((s) => {
          s.requiredProbes = ['cursor-loop-quarantined', 'cursor-loop'];
        }),
      ),
    ).toMatch(
      /^"requiredProbes" names no such probe: "cursor-loop" \(the probes are cursor-loop-quarantined, page-limit-quarantined, .*, stale-pin-refused-by-server, tenant-twins-published, host-restarted-mid-scan, .*, host-crashed-calls-in-flight, catalog-limit-quarantined, refreshed-during-burst, auth-refused-incomplete, rollback-missing-tool-delivered, rollback-escalation-delivered, rolled-back-to-fresh, rollback-disabled, emergency-disable-ordered, emergency-disable-call-refused, deprecation-ordered, deprecated-not-bound, alias-flipped, removal-while-referenced, announced-still-bound, version-changed-called, output-violation-refused, disguised-break-listed, disguised-break-refused, backup-same-contract-used, backup-other-contract-refused, cursor-loop-served, aba-served-inside-walk, revocation-while-call-in-flight, scope-mixed-served, scope-mixed-refused, public-varies-served, listen-stream-faulted, notification-dropped-at-gateway, changed-within-ttl, surface-refused-add-tool, .*, surface-capacity-fits\)$/,
    );
    expect(
      scenarioProblem(
        edited((s) => {
          s.timings = null;
        }),
      ),
    ).toBe('"timings" must be an object, got null');
  });

  it('checks fault rates by their kind: fractions, lists of fractions, lists of kinds', () => {
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = {
            F15: { reorderFraction: 0.9, notificationLossFractions: [1] },
            F5: { cursorTraits: ['cycle'] },
          };
        }),
      ),
    ).toBeUndefined();
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F15: { reorderFraction: 1.2 } };
        }),
      ),
    ).toBe('"faultRates.F15.reorderFraction" must be a number in [0, 1], got 1.2');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F15: { notificationLossFractions: [] } };
        }),
      ),
    ).toBe('"faultRates.F15.notificationLossFractions" must have at least 1 item');
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { F5: { cursorTraits: ['loop'] } };
        }),
      ),
    ).toBe(
      '"faultRates.F5.cursorTraits[0]" must be one of "repeat", "cycle", "always-empty", "never-ending", "ignored", "empty-page-with-next", got "loop"',
    );
    expect(
      scenarioProblem(
        edited((s) => {
          s.faultRates = { EQUIV: { sameRevisionFraction: 'half' } };
        }),
      ),
    ).toBe('"faultRates.EQUIV.sameRevisionFraction" must be a number in [0, 1], got "half"');
  });
});
