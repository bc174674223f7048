/**
 * F21: a listing refused for authorization. One server (latency 5 ms, pages of 2) shows acme.dev
 * five tools at revision 7, and refuses `tools/list` of acme.dev with -32003 from t=1000 to 1100.
 * The first scan publishes generation 1 at 50; the refresh at 1050 is refused at 1055 (page 1),
 * and the reference ends it INCOMPLETE AUTH_REQUIRED at 1060; each retry, 1 ms later, is refused
 * the same way (1066, 1077, 1088, 1099) until the window closes; the retry at 1105 proves revision 7
 * again at 1145 (confirming generation 1: nothing changed), and the refresh after it publishes
 * generation 2 at 2185. The mutant that reads the refusal as an empty last page publishes an empty
 * catalog as generation 2 at 1060: I20 AUTH_REFUSED_PUBLISHED and AUTH_REFUSAL_MISREPORTED.
 */
import { describe, expect, it } from 'vitest';
import { probesHit } from '../../oracle/probes/index.ts';
import { MUTANTS } from '../../cores/mutants/index.ts';
import type { RoundPlan } from '../../sim/plan/types.ts';
import { handPlan, handServer, publishes, runHand, scanEnds, step, tools } from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

const plan = (): RoundPlan =>
  handPlan({
    faults: ['F21'],
    servers: [
      {
        ...handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] }),
        authGated: [{ audience: 'acme.dev', fromMs: 1000, toMs: 1100 }],
      },
    ],
  });

describe('F21: auth-gated listing', () => {
  it('every refused scan ends INCOMPLETE AUTH_REQUIRED and nothing of it is published; the first scan after the window proves the same catalog', async () => {
    const run = await runHand(plan());
    expect(run.of('page_refused').map((e) => [e.t, e.code])).toEqual([
      [1055, -32003],
      [1066, -32003],
      [1077, -32003],
      [1088, -32003],
      [1099, -32003],
    ]);
    expect(scanEnds(run)).toEqual([
      [50, 'SNAPSHOT_PROVEN', 'OK'],
      [1060, 'INCOMPLETE', 'AUTH_REQUIRED'],
      [1071, 'INCOMPLETE', 'AUTH_REQUIRED'],
      [1082, 'INCOMPLETE', 'AUTH_REQUIRED'],
      [1093, 'INCOMPLETE', 'AUTH_REQUIRED'],
      [1104, 'INCOMPLETE', 'AUTH_REQUIRED'],
      [1145, 'SNAPSHOT_PROVEN', 'OK'],
      [2185, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(run)).toEqual([
      [50, KEY, 1, 7, FIVE],
      [2185, KEY, 2, 7, FIVE],
    ]);
    expect(probesHit(run.events)).toContain('auth-refused-incomplete');
    expect(run.verdict.violations).toEqual([]);
  });

  it('read as an empty last page, the refusal is published as an empty catalog: I20 catches the publish and the misreported end', async () => {
    const mutant = MUTANTS.find((m) => m.name === 'auth-refusal-as-empty')!;
    const run = await runHand(plan(), mutant.core, 'mutant:auth-refusal-as-empty');
    expect(publishes(run)).toEqual([
      [50, KEY, 1, 7, FIVE],
      [1060, KEY, 2, null, []],
      [2100, KEY, 3, 7, FIVE],
    ]);
    const i20 = run.verdict.violations.filter((v) => v.invariant === 'I20').map((v) => [v.seq, v.code]);
    expect(i20).toEqual([
      [31, 'AUTH_REFUSAL_MISREPORTED'],
      [32, 'AUTH_REFUSED_PUBLISHED'],
    ]);
  });
});
