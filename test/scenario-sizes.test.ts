import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario, ScenarioError } from '../sim/plan/scenario.ts';

// Issue 35 item 6: sizes were bounded only by 2^31 - 1, so a 1,000,000-server scenario passed
// validation and then grew to 3.5 GB in its first round. Every size is bounded by what a round
// can hold, and the message gives the bound.
describe('scenario sizes are bounded by what a round can hold', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-sizes-'));
  const shipped = (): Record<string, unknown> => JSON.parse(readFileSync('scenarios/default.json', 'utf8'));
  const cases: [string, (s: Record<string, unknown>) => void, string][] = [
    [
      'million-servers',
      (s) => {
        s.servers = { min: 1, max: 1_000_000 };
      },
      '"servers.max" must be an integer from 1 to 64, got 1000000',
    ],
    [
      'audiences',
      (s) => {
        s.audiencesPerServer = { min: 65, max: 65 };
      },
      '"audiencesPerServer.min" must be an integer from 1 to 64, got 65',
    ],
    [
      'view',
      (s) => {
        s.toolsPerView = { min: 0, max: 10_001 };
      },
      '"toolsPerView.max" must be an integer from 0 to 10000, got 10001',
    ],
    [
      'page',
      (s) => {
        s.pageSize = { min: 1, max: 20_000 };
      },
      '"pageSize.max" must be an integer from 1 to 10000, got 20000',
    ],
    [
      'events',
      (s) => {
        s.eventBudget = 2_000_000_000;
      },
      '"eventBudget" must be an integer from 1 to 10000000, got 2000000000',
    ],
    [
      'product',
      (s) => {
        s.servers = { min: 1, max: 64 };
        s.audiencesPerServer = { min: 1, max: 64 };
        s.toolsPerView = { min: 0, max: 100 };
      },
      '"servers.max" x "audiencesPerServer.max" x "toolsPerView.max" must be at most 100000 (the tools one round can hold), got 64 x 64 x 100 = 409600',
    ],
  ];
  for (const [name, edit, problem] of cases) {
    it(`${name}: ${problem}`, () => {
      const scenario = shipped();
      edit(scenario);
      const path = join(dir, `${name}.json`);
      writeFileSync(path, JSON.stringify(scenario));
      expect(() => loadScenario(path)).toThrow(new ScenarioError(`${path}: ${problem}`));
    });
  }

  it('the largest round allowed is accepted (64 x 2 x 781 = 99,968 tools)', () => {
    const scenario = shipped();
    Object.assign(scenario, {
      servers: { min: 1, max: 64 },
      audiencesPerServer: { min: 1, max: 2 },
      toolsPerView: { min: 0, max: 781 },
    });
    const path = join(dir, 'largest.json');
    writeFileSync(path, JSON.stringify(scenario));
    expect(loadScenario(path).servers.max).toBe(64);
  });
});
