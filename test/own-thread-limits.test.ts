import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachCores } from './support/attach-core.ts';
import { catsim } from './support/run-cli.ts';

// Issue 35 item 3 (the rest): `run --workers 0`, `replay` and `shrink` ran rounds on catsim's
// own thread, so a stuck core hung them for ever and one that exhausted the heap ended catsim
// with V8's fatal error and native stack. Their rounds now run on one worker thread, bounded by
// --round-timeout and the thread's heap, and such a round is CORE_FAILED with one line.
describe('rounds outside a multi-worker campaign are bounded in time and memory', () => {
  const { dir, core } = attachCores('catsim-own-thread-');
  const stuck = core('stuck', 'for (;;) {}');
  const hungry = core('hungry', 'const kept = []; for (;;) kept.push(new Array(100_000).fill(1));');
  // A heap of 200 MB (the worker thread takes the process's limit) runs out within seconds.
  const smallHeap = { env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=200' } };
  const timedOut =
    'the round ran past the per-round time limit of 1 s (--round-timeout), so its worker thread was terminated: the core is stuck (a synchronous loop, or work that never ends)';
  const outOfMemory =
    'the worker thread running the round died of heap exhaustion (JavaScript heap out of memory): the core allocates without bound';
  // Round 0 of seed 1 on the default scenario: each fault's enabling is drawn from its own stream,
  // so the modern era's faults (issue 29 item 1) left F1-F23's draws alone and added F24 alone,
  // and the tool-version faults (issue 30) added F26, F35 and F36 (catsim replay --seed 1 --round 0).
  const faults = 'faults enabled: F1 F2 F3 F7 F9 F13 F14 F15 F16 F17 F18 F19 F20 F21 F23 F24 F26 F35 F36';

  it('run --workers 0 --round-timeout 1: a stuck round is CORE_FAILED TIMED_OUT, exit 1', async () => {
    const run = await catsim([
      'run',
      '--core',
      stuck,
      '--rounds',
      '1',
      '--workers',
      '0',
      '--round-timeout',
      '1',
      '--no-progress',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `  catsim replay --seed 1 --round 0 --core ${stuck}   # CORE_FAILED TIMED_OUT: ${timedOut}\n`,
    );
    expect(run.stdout).toContain('throughput: ');
    expect(run.stdout).toMatch(/ rounds\/s \(1 worker, [\d.]+ s\)\n/);
  });

  it("run --workers 0: a heap-exhausting round is CORE_FAILED OUT_OF_MEMORY, not V8's fatal error", async () => {
    const run = await catsim(['run', '--core', hungry, '--rounds', '1', '--workers', '0', '--no-progress'], smallHeap);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `  catsim replay --seed 1 --round 0 --core ${hungry}   # CORE_FAILED OUT_OF_MEMORY: ${outOfMemory}\n`,
    );
  });

  it('replay --round-timeout 1 of a stuck round: the violation, no trace, exit 1', async () => {
    const trace = join(dir, 'stuck.jsonl');
    expect(
      await catsim([
        'replay',
        '--seed',
        '1',
        '--round',
        '0',
        '--core',
        stuck,
        '--round-timeout',
        '1',
        '--trace',
        trace,
      ]),
    ).toEqual({
      code: 1,
      stderr: '',
      stdout: [
        `catsim replay  seed=1  round=0  scenario=default  core=${stuck}`,
        faults,
        'trace: not written (the round was abandoned: it has no trace)',
        `VIOLATION CORE_FAILED TIMED_OUT at seq -: ${timedOut}`,
        '',
      ].join('\n'),
    });
    expect(existsSync(trace)).toBe(false);
  });

  it('replay of a heap-exhausting round: CORE_FAILED OUT_OF_MEMORY, exit 1', async () => {
    const trace = join(dir, 'hungry.jsonl');
    expect(
      await catsim(['replay', '--seed', '1', '--round', '0', '--core', hungry, '--trace', trace], smallHeap),
    ).toEqual({
      code: 1,
      stderr: '',
      stdout: [
        `catsim replay  seed=1  round=0  scenario=default  core=${hungry}`,
        faults,
        'trace: not written (the round was abandoned: it has no trace)',
        `VIOLATION CORE_FAILED OUT_OF_MEMORY at seq -: ${outOfMemory}`,
        '',
      ].join('\n'),
    });
  });

  it('shrink --round-timeout 1 of a stuck round: not shrunk (no trace), exit 1, nothing written', async () => {
    const out = join(dir, 'stuck-shrunk');
    expect(
      await catsim(['shrink', '--seed', '1', '--round', '0', '--core', stuck, '--round-timeout', '1', '--out', out]),
    ).toEqual({
      code: 1,
      stderr: '',
      stdout: `catsim shrink  seed=1  round=0  core=${stuck}\nnot shrunk: its round was abandoned (CORE_FAILED TIMED_OUT: ${timedOut}), so it has no trace to shrink\n`,
    });
    expect([existsSync(`${out}.plan.json`), existsSync(`${out}.mmd`)]).toEqual([false, false]);
  });
});
