import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { referenceCore } from '../cores/reference.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { runRound } from '../sim/round.ts';
import { traceDigest } from '../sim/trace/recorder.ts';

const run = promisify(execFile);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('determinism', () => {
  it('gives a byte-identical trace for the same seed and round in two separate processes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-det-'));
    const replay = (file: string) =>
      run(process.execPath, [
        'bin/catsim.mjs',
        'replay',
        '--seed',
        '7',
        '--round',
        '11',
        '--trace',
        join(dir, file),
        '--no-timeline',
      ]);
    await Promise.all([replay('a.jsonl'), replay('b.jsonl')]);
    const a = sha256(join(dir, 'a.jsonl'));
    expect(sha256(join(dir, 'b.jsonl'))).toBe(a);
    // The same round run in this process (another module graph, under vitest) gives the same bytes too.
    const inProcess = await runRound(generatePlan('7', 11, loadScenario('default')), referenceCore(), 'reference');
    expect(traceDigest(inProcess.header, inProcess.events)).toBe(a);
  });

  it('builds the plan of a round without running the rounds before it', () => {
    const scenario = loadScenario('default');
    const direct = generatePlan('7', 500, scenario);
    for (let round = 0; round < 3; round += 1) generatePlan('7', round, scenario);
    expect(generatePlan('7', 500, scenario)).toEqual(direct);
    expect(direct.roundSeed).toBe(generatePlan('7', 500, scenario).roundSeed);
    expect(generatePlan('8', 500, scenario).roundSeed).not.toBe(direct.roundSeed);
  });
});
