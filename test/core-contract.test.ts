/**
 * A core that emits an observation outside `catsim.trace.v1` is a testbed/adapter failure (exit
 * 3) naming the core, the event type and the field, never a round the oracle judges: a core must
 * not pass by emitting something the oracle ignores (issue 10). The test core is the reference
 * core behind a sink that spoils the `leaseId` of its first receipt (a number instead of a
 * string). Seed 1, round 3 on the reference core writes its first receipt at seq 96 (with the
 * swarm's per-fault streams, the modern era and the tool-version faults in the default scenario;
 * `catsim replay --seed 1 --round 3` and the trace's line 98), so the breach is at seq 96. It was
 * seq 88 before the default scenario had modern servers (issue 29 item 1): round 3's two servers
 * are both modern (s0 with F25, s1 over Streamable HTTP) and each session's listen stream (4
 * listen_requested, 4 listen_acknowledged) comes before the first call, while fewer pages are
 * walked. It was seq 93 before the default scenario had the tool-version faults (issue 30 item 7):
 * round 3 keeps its faults F1, F2, F4, F7, F8, F19, F20, F24 and F25 and adds F26, F31, F32, F34,
 * F35 and F36, and three events now come before the first receipt: F32's operator_manifest for s1
 * (seq 0), and one more page (page_served, page_read) of s1's acme.ops scan-4, whose first view
 * now lists 9 tools instead of 7 because F36 places its two tools there (write_file and
 * refund_payment). That first receipt is now for write_file (one of F36's tools, which the planners
 * choose on half their calls when a disclosure shows one), not search_nodes. Round 3 rather than the former round 6: round 2 admits no call and
 * writes no receipt, and among rounds 0-5 round 3's first receipt comes earliest (rounds 0, 1, 4
 * and 5: seq 142, 202, 536, 118).
 *
 * In this process, `resolveCore` and `loadCore` are mocked to know `test:bad-receipt`, which
 * reaches `checkPlan`. Every campaign, `replay` and `shrink` runs its rounds on a worker thread
 * (issue 35 item 3), which knows no mock: there the same core is a module (`--core ./test/support/cores/bad-receipt-core.ts`,
 * run in a child process with one worker); the crossing of the thread boundary is also tested on
 * its two ends (runner/worker-message.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { CoreFactory } from '../sim/guard/adapter.ts';
import { runCampaign } from '../runner/campaign.ts';
import { checkPlan } from '../runner/round-check.ts';
import { failureMessage, failureOf } from '../runner/worker-message.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { CoreContractError } from '../sim/trace/core-contract-error.ts';
import { TestbedError } from '../runner/testbed-error.ts';
import badReceipt from './support/cores/bad-receipt-core.ts';
import { catsim } from './support/run-cli.ts';
import { runMain } from './support/run-main.ts';

/** The reference core, except that the leaseId of its first receipt is a number (the module the CLI tests load). */
const badReceiptCore = (): CoreFactory => badReceipt.create;

vi.mock('../cores/index.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../cores/index.ts')>();
  const isTest = (name: string): boolean => name === 'test:bad-receipt';
  return {
    ...actual,
    resolveCore: (name: string) => (isTest(name) ? badReceiptCore() : actual.resolveCore(name)),
    loadCore: async (name: string) => (isTest(name) ? badReceiptCore() : actual.loadCore(name)),
  };
});

const MESSAGE =
  'core "test:bad-receipt" emitted an observation outside catsim.trace.v1: "receipt".leaseId must be a string (round 3, seq 96)';

describe('an observation outside the trace contract', () => {
  it('fails the round with CoreContractError naming the core, the event, the field, the round and the seq', async () => {
    const run = checkPlan(generatePlan('1', 3, loadScenario('default')), badReceiptCore(), 'test:bad-receipt');
    await expect(run).rejects.toThrow(CoreContractError);
    await expect(run).rejects.toThrow(MESSAGE);
  });

  it('stops the campaign (--workers 0: one worker thread) with the same error', async () => {
    const module = './test/support/cores/bad-receipt-core.ts';
    const campaign = runCampaign({
      seed: '1',
      scenario: loadScenario('default'),
      core: module,
      firstRound: 3,
      rounds: 1,
      workers: 0,
      determinismEvery: 0,
    });
    await expect(campaign).rejects.toThrow(MESSAGE.replace('"test:bad-receipt"', JSON.stringify(module)));
  });

  it('is exit 3 with that one line from catsim run --workers 0 and catsim replay', async () => {
    const module = './test/support/cores/bad-receipt-core.ts';
    const line = `catsim: ${MESSAGE.replace('"test:bad-receipt"', JSON.stringify(module))}\n`;
    const run = await runMain([
      'run',
      '--seed',
      '1',
      '--from',
      '3',
      '--rounds',
      '1',
      '--core',
      module,
      '--workers',
      '0',
      '--no-shrink',
      '--no-progress',
    ]);
    expect([run.code, run.stderr, run.stdout]).toEqual([3, line, '']);
    const trace = join(mkdtempSync(join(tmpdir(), 'catsim-contract-')), 't.jsonl');
    const replay = await runMain(['replay', '--seed', '1', '--round', '3', '--core', module, '--trace', trace]);
    expect([replay.code, replay.stderr, replay.stdout]).toEqual([3, line, '']);
  });

  it('is exit 3 with that one line through a worker thread and the real command line (a core module)', async () => {
    const module = './test/support/cores/bad-receipt-core.ts';
    const run = await catsim([
      'run',
      '--core',
      module,
      '--seed',
      '1',
      '--from',
      '3',
      '--rounds',
      '1',
      '--workers',
      '1',
      '--no-shrink',
      '--no-progress',
    ]);
    expect([run.code, run.stderr, run.stdout]).toEqual([
      3,
      `catsim: ${MESSAGE.replace('"test:bad-receipt"', JSON.stringify(module))}\n`,
      '',
    ]);
  });

  it('crosses the worker-thread boundary as its breach and comes back as the same error', () => {
    const breach = { core: 'test:bad-receipt', round: 3, seq: 96, problem: '"receipt".leaseId must be a string' };
    const back = failureOf(structuredClone(failureMessage(new CoreContractError(breach))));
    expect(back).toBeInstanceOf(CoreContractError);
    expect(back.message).toBe(MESSAGE);
    const other = failureOf(structuredClone(failureMessage(new RangeError('boom'))));
    expect([other instanceof TestbedError, other.message]).toEqual([true, 'RangeError: boom']);
  });
});
