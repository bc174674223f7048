/**
 * I40 on hand-built traces: s0 lists `read_file` to acme.dev at revision 7 (generation 1 of the
 * key, disclosed to the planner, whose plan p0 pins it); at t=500 the primary goes down
 * (`primary_down`, its backup serving `read_file` under the contract the case says) and p0's call
 * is admitted, receipted and executed by the backup under the descriptor the backup lists: the
 * pinned one (`same`) holds, another (`read_file#2`, `other`) fails. A call the primary itself
 * executed is not judged, nor a round without an outage.
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { ID0, TraceBuilder, toolDigest } from '../testing/trace-builder.ts';

const KEY = `${ID0}|acme.dev`;
const SESSION = 'planner-acme.dev';
const PAGE = [{ cursorIn: null, cursorOut: null, pageDigest: 'p' }];

interface Case {
  /** The backup's contract for read_file; null: no outage at all. */
  contract: 'same' | 'other' | null;
  /** Who executed p0's call (default the backup). */
  endpoint?: 'backup' | 'primary';
}

/** The trace of one case; returns the verdict and the seq of the executed call. */
function round(c: Case): { verdict: ReturnType<typeof checkTrace>; anchor: number } {
  const b = new TraceBuilder();
  b.serverUp('s0', ID0);
  b.revision('s0', 7, { 'acme.dev': ['read_file'] });
  b.at(40);
  const first = b.published({ key: KEY, scanId: 'scan-1', sourceRevision: 7, pages: PAGE, tools: ['read_file'] });
  b.at(100);
  b.disclosure(first);
  b.planMade({ session: SESSION, planId: 'p0', key: KEY, tool: 'read_file' });
  b.at(500);
  if (c.contract !== null)
    b.emit('world', 'primary_down', {
      server: 's0',
      tool: 'read_file',
      contract: c.contract,
      backupIdentity: `${ID0}~backup`,
      backupBuild: '1.0.1-backup',
      untilMs: 1_300,
      backup: 'offered',
    });
  b.at(600);
  b.gateDecision({ session: SESSION, planId: 'p0', key: KEY, tool: 'read_file' });
  b.receipt({ callId: `${SESSION}#p0`, leaseId: 'lease-p0', key: KEY, tool: 'read_file' });
  const served = c.contract === 'other' ? 'read_file#2' : 'read_file';
  const anchor = b.callExecuted({
    audience: 'acme.dev',
    tool: 'read_file',
    descriptorDigest: toolDigest(served),
    leaseId: 'lease-p0',
    revision: 7,
    ...(c.endpoint === 'primary' ? {} : { endpoint: 'backup' as const }),
  });
  b.receiptOutcome('lease-p0');
  b.roundEnd();
  return { verdict: checkTrace(b.build()), anchor };
}

function i40(c: Case): { found: string[]; checked: number } {
  const { verdict, anchor } = round(c);
  return {
    found: verdict.violations
      .filter((v) => v.invariant === 'I40')
      .map((v) => `${v.seq === anchor ? 'anchor' : v.seq} ${v.code}`),
    checked: verdict.checked.I40,
  };
}

describe('I40: a backup runs a call only under the contract its run pinned', () => {
  // Seqs: server_up 0, revision 1, generation 1 2, its disclosure 3, p0 4, primary_down 5,
  // p0's decision 6, receipt 7, executed 8.
  it('a backup execution under another descriptor than the run pinned fails, naming the ground truth', () => {
    expect(i40({ contract: 'other' })).toEqual({ found: ['anchor BACKUP_CONTRACT_EXECUTED'], checked: 1 });
    const { verdict } = round({ contract: 'other' });
    expect(verdict.violations.find((v) => v.invariant === 'I40')?.evidence).toBe(
      `call seq 8 (s0 acme.dev executed "read_file", lease "lease-p0") ran on the backup endpoint under descriptor ${toolDigest('read_file#2').slice(0, 12)}, but its run pinned ${toolDigest('read_file').slice(0, 12)} (plan "p0" of session "planner-acme.dev", seq 4) (the plan's ground truth: ${ID0}~backup serves "read_file" with the other contract)`,
    );
  });

  it('holds when the backup ran the pinned descriptor', () => {
    expect(i40({ contract: 'same' })).toEqual({ found: [], checked: 1 });
  });

  it('judges nothing the primary executed, nor a round without an outage', () => {
    expect(i40({ contract: 'other', endpoint: 'primary' })).toEqual({ found: [], checked: 0 });
    expect(i40({ contract: null })).toEqual({ found: [], checked: 0 });
  });
});
