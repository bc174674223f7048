import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachCores } from './support/attach-core.ts';
import { catsim } from './support/run-cli.ts';
import { runMain } from './support/run-main.ts';

// Issue 35 item 2: a core that threw from a plain setTimeout callback or from queueMicrotask
// (both the world's during a round, docs/CORE-API.md) ended the campaign with exit 3, no round
// named, no summary; `replay` did the same. Like a throw from env.scheduler.after, it is now the
// core's failure in that round: CORE_FAILED THREW, with its replay line.
describe("a throw from the core's own timer or microtask is CORE_FAILED in that round", () => {
  const { dir, core } = attachCores('catsim-timer-throw-');
  const timer = core('timer', "setTimeout(() => { throw new Error('timer broke'); }, 5);");
  const microtask = core('microtask', "queueMicrotask(() => { throw new Error('microtask broke'); });");

  // Round 0 of seed 1 attaches three sessions (read off the timeline: seq 11, 12, 13), each arming
  // one throw: the first at seq 11, 5 virtual ms after the attach at t=0 for the timer, and at
  // t=0 for the microtask; the next two are more times in this round. F18 in the default scenario
  // restarts the host at 928 ms (boot 1 from 966), whose three attaches arm three more: "5 more times".
  it('setTimeout, in a worker thread: exit 1, the round named with its replay line', async () => {
    const run = await catsim([
      'run',
      '--core',
      timer,
      '--rounds',
      '1',
      '--workers',
      '1',
      '--no-shrink',
      '--no-progress',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `  catsim replay --seed 1 --round 0 --core ${timer}   # CORE_FAILED THREW: the core threw in a callback it scheduled at seq 11 (t=5 ms): Error: timer broke (and 5 more times in this round)\n`,
    );
  });

  it('queueMicrotask, in process (--workers 0), and its replay', async () => {
    const run = await runMain([
      'run',
      '--core',
      microtask,
      '--rounds',
      '1',
      '--workers',
      '0',
      '--no-shrink',
      '--no-progress',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `  catsim replay --seed 1 --round 0 --core ${microtask}   # CORE_FAILED THREW: the core threw in a callback it scheduled at seq 11 (t=0 ms): Error: microtask broke (and 5 more times in this round)\n`,
    );
    const replay = await runMain([
      'replay',
      '--seed',
      '1',
      '--round',
      '0',
      '--core',
      microtask,
      '--trace',
      join(dir, 'micro.jsonl'),
    ]);
    expect(replay.stderr).toBe('');
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(
      'VIOLATION CORE_FAILED THREW at seq 11: the core threw in a callback it scheduled at seq 11 (t=0 ms): Error: microtask broke (and 5 more times in this round)\n',
    );
  });

  it('setTimeout, replayed in process', async () => {
    const replay = await runMain([
      'replay',
      '--seed',
      '1',
      '--round',
      '0',
      '--core',
      timer,
      '--trace',
      join(dir, 'timer.jsonl'),
      '--no-timeline',
    ]);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain(
      'VIOLATION CORE_FAILED THREW at seq 11: the core threw in a callback it scheduled at seq 11 (t=5 ms): Error: timer broke (and 5 more times in this round)\n',
    );
  });
});
