/**
 * F1: a tool is added between page 1 and page 2 of a scan. Latency 5 ms, pages of 2 tools.
 * Timeline: session at 10; scan-0 page 1 served 15 / read 20 (revision 7); `echo` added at 22
 * (revision 8, no notification, so the revision alone must catch it); page 2 served 25 with
 * revision 8, read 30 -> INCOMPLETE REVISION_MOVED; retry 1 ms later (31): pages at 36, 46, 56,
 * recheck at 66, read 71 -> SNAPSHOT_PROVEN, generation 1 at revision 8 with the new set.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import {
  digestOf,
  handPlan,
  handServer,
  publishes,
  runHand,
  scanEnds,
  served,
  step,
  tool,
  tools,
  toolsOf,
} from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';

describe('F1: changes between pages', () => {
  it('a tool added between page 1 and page 2 ends that scan INCOMPLETE REVISION_MOVED; the next scan proves and publishes the new set', async () => {
    const before = tools('read_file', 'write_file', 'list_directory', 'search_files');
    const after = [before[0], before[1], tool('echo'), before[2], before[3]].map((t) => t!);
    const plan = handPlan({
      faults: ['F1'],
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': before }), step(22, 8, { 'acme.dev': after }, 'F1')],
          notifications: { sendOnChange: false },
        }),
      ],
    });
    const run = await runHand(plan);

    expect(served(run).filter(([t]) => t < 1000)).toEqual([
      [15, 'scan-0', null, '0:2', 7],
      [25, 'scan-0', '0:2', '0:4', 8],
      [36, 'scan-1', null, '0:2', 8],
      [46, 'scan-1', '0:2', '0:4', 8],
      [56, 'scan-1', '0:4', null, 8],
      [66, 'scan-1', null, '0:2', 8],
    ]);
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [30, 'INCOMPLETE', 'REVISION_MOVED'],
      [71, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    const [first] = run.of('published');
    expect(publishes(run)[0]).toEqual([
      71,
      KEY,
      1,
      8,
      ['read_file', 'write_file', 'echo', 'list_directory', 'search_files'],
    ]);
    expect(first?.scanId).toBe('scan-1');
    expect(toolsOf(first!).map((t) => t.descriptorDigest)).toEqual(after.map(digestOf));
    // Revision 7 was never published: scan-0 saw it only on page 1.
    expect(run.of('published').every((e) => e.sourceRevision === 8)).toBe(true);
    expect(run.status).toBe('settled');
    expect(run.verdict.violations).toEqual([]);
  });

  it('a change after the last page is caught by the final recheck (RECHECK_REVISION_MOVED); the no-final-recheck mutant publishes it and the oracle flags I1', async () => {
    // Pages served at 15, 25, 35 (revision 7); `echo` added at 37 (revision 8); the recheck is
    // served at 45 with revision 8, read at 50 -> INCOMPLETE RECHECK_REVISION_MOVED; the retry at
    // 51 proves revision 8 (3 pages + recheck) at 91. The mutant ends at 40 without the recheck
    // and publishes revision 7, which the world had already left.
    const a = tools('read_file', 'write_file', 'list_directory', 'search_files', 'move_file');
    const plan = handPlan({
      faults: ['F1'],
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': a }), step(37, 8, { 'acme.dev': [...a, tool('echo')] }, 'F1')],
          notifications: { sendOnChange: false },
        }),
      ],
    });
    const reference = await runHand(plan);
    expect(scanEnds(reference).slice(0, 2)).toEqual([
      [50, 'INCOMPLETE', 'RECHECK_REVISION_MOVED'],
      [91, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(publishes(reference)[0]).toEqual([
      91,
      KEY,
      1,
      8,
      ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file', 'echo'],
    ]);
    expect(reference.verdict.violations).toEqual([]);

    const mutant = MUTANTS.find((m) => m.name === 'no-final-recheck')!;
    const broken = await runHand(plan, mutant.core, 'mutant:no-final-recheck');
    expect(scanEnds(broken)[0]).toEqual([40, 'SNAPSHOT_PROVEN', 'OK']);
    expect(publishes(broken)[0]).toEqual([
      40,
      KEY,
      1,
      7,
      ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'],
    ]);
    expect(new Set(broken.verdict.violations.map((v) => `${v.invariant} ${v.code}`))).toContain('I1 NO_FINAL_RECHECK');
  });
});
