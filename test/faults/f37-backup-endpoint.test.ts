/**
 * F37: a backup endpoint with a different contract, on the hand plan of test/mutants/plans.ts
 * (`backupPlan`): one server (latency 5 ms, pages of 2, T_heal 2,000) shows acme.dev five tools at
 * revision 7; the planner of s0/acme.dev calls `read_file` (descriptor 038162adfa1d) on every tick
 * (every 100 ms). The primary is down from 500 to 1,300: the world cuts the session at 500 and
 * refuses every connection until 1,300, while the backup (identity `<identity>~backup`, build
 * 1.0.1-backup) serves `read_file` under the `other` contract (a new required input `backupMode`:
 * descriptor c3927ee0b543) or the `same` one.
 *
 * Worked out: the calls up to 408 run on the primary. The eight calls from 522 to 1,216 find the
 * connection down (its one reconnect fails): the reference lists the backup's tools, offers the
 * registry the backup, and with `other` is refused VERSION_INCOMPATIBLE (nothing sent), with
 * `same` is admitted on the backup, which executes them under 038162adfa1d. From 1,300 the
 * primary takes connections again: the core reconnects and later calls run there.
 * `mutant:backup-any-contract` skips the backup's contract check: with `other` its eight calls
 * run on the backup under c3927ee0b543 (I40 BACKUP_CONTRACT_EXECUTED, eight times, nothing
 * else); with `same` it does what the reference does. A core without `attachBackup` gets the
 * outage written `unsupported`: no backup is used, I40 counts nothing, and the round is not
 * judged on backups.
 */
import { describe, expect, it } from 'vitest';
import { resolveCore } from '../../cores/index.ts';
import { unjudgedIn } from '../../oracle/not-judged.ts';
import { probesHit } from '../../oracle/probes/index.ts';
import { backupPlan } from '../mutants/plans.ts';
import { referenceKeeping } from '../support/reference-keeping.ts';
import { runHand } from '../support/hand-plan.ts';

type Run = Awaited<ReturnType<typeof runHand>>;

/** The reference core without the optional `attachBackup` (nor the other optional methods F37 does not need). */
const withoutBackups = referenceKeeping(['createClient']);

/** read_file's decisions and executions in [400, 1,300), as `t what` lines. */
function outageTrail(run: Run): string[] {
  return run.events.flatMap((event) => {
    if (event.t < 400 || event.t >= 1_300) return [];
    if (event.type === 'gate_decision' && event.tool === 'read_file') return [`${event.t} ${event.decision}`];
    if (event.type === 'call_executed')
      return [`${event.t} ${event.endpoint ?? 'primary'} ${event.descriptorDigest?.slice(0, 12)}`];
    return [];
  });
}

const CALLS = ['522', '616', '716', '826', '923', '1013', '1111', '1216'];
const PRIMARY = '038162adfa1d';
const OTHER = 'c3927ee0b543';

describe('F37: a backup is used only if it serves the contract the run pinned', () => {
  it('the reference refuses the calls VERSION_INCOMPATIBLE while the backup serves another contract', async () => {
    const run = await runHand(backupPlan('other'));
    expect(run.verdict.violations).toEqual([]);
    expect(outageTrail(run)).toEqual([
      `403 ADMIT`,
      `408 primary ${PRIMARY}`,
      ...CALLS.map((t) => `${t} VERSION_INCOMPATIBLE`),
    ]);
    expect(run.events.filter((event) => event.type === 'call_executed' && event.endpoint === 'backup')).toEqual([]);
    expect(probesHit(run.events).filter((name) => name.startsWith('backup-'))).toEqual([
      'backup-other-contract-refused',
    ]);
    const down = run.events.find((event) => event.type === 'primary_down');
    expect(down).toMatchObject({
      t: 500,
      server: 's0',
      tool: 'read_file',
      contract: 'other',
      backupBuild: '1.0.1-backup',
      untilMs: 1_300,
      backup: 'offered',
    });
    expect(run.events.find((event) => event.type === 'primary_up')?.t).toBe(1_300);
    expect(run.verdict.checked.I40).toBe(0);
  });

  it('the reference fails over to a backup serving the same contract', async () => {
    const run = await runHand(backupPlan('same'));
    expect(run.verdict.violations).toEqual([]);
    expect(outageTrail(run)).toEqual([
      '403 ADMIT',
      `408 primary ${PRIMARY}`,
      ...CALLS.flatMap((t) => [`${t} ADMIT`, `${Number(t) + 5} backup ${PRIMARY}`]),
    ]);
    expect(probesHit(run.events).filter((name) => name.startsWith('backup-'))).toEqual(['backup-same-contract-used']);
    expect(run.verdict.checked.I40).toBe(8);
  });

  it('mutant:backup-any-contract runs the eight calls on the other contract: I40 alone', async () => {
    const run = await runHand(
      backupPlan('other'),
      resolveCore('mutant:backup-any-contract'),
      'mutant:backup-any-contract',
    );
    expect(run.verdict.violations.map((violation) => `${violation.invariant} ${violation.code}`)).toEqual(
      CALLS.map(() => 'I40 BACKUP_CONTRACT_EXECUTED'),
    );
    expect(outageTrail(run)).toEqual([
      '403 ADMIT',
      `408 primary ${PRIMARY}`,
      ...CALLS.flatMap((t) => [`${t} ADMIT`, `${Number(t) + 5} backup ${OTHER}`]),
    ]);
  });

  it('mutant:backup-any-contract is the reference where the backup serves the same contract', async () => {
    const run = await runHand(
      backupPlan('same'),
      resolveCore('mutant:backup-any-contract'),
      'mutant:backup-any-contract',
    );
    expect(run.verdict.violations).toEqual([]);
  });

  it('a core without attachBackup is not judged on backups', async () => {
    const run = await runHand(backupPlan('other'), withoutBackups, 'no-backups');
    expect(run.verdict.violations).toEqual([]);
    expect(run.events.find((event) => event.type === 'primary_down')).toMatchObject({ backup: 'unsupported' });
    expect(run.events.filter((event) => event.type === 'call_executed' && event.endpoint === 'backup')).toEqual([]);
    expect(run.verdict.checked.I40).toBe(0);
    expect(unjudgedIn(run.verdict.metrics)).toEqual({ backups: 1 });
  });
});
