/**
 * F12: a server whose pages carry no revision. The walk runs to the last page (3 pages: read at
 * 20, 30, 40) and ends UNVERSIONED_OBSERVATION (reason OK) at 40 without a final recheck (there
 * is no revision to compare); it is published with status UNVERSIONED_OBSERVATION and
 * sourceRevision null.
 */
import { describe, expect, it } from 'vitest';
import {
  handPlan,
  handServer,
  publishes,
  reads,
  runHand,
  scanEnds,
  served,
  step,
  tools,
} from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

describe('F12: unversioned server', () => {
  it('UNVERSIONED_OBSERVATION published with status UNVERSIONED_OBSERVATION, sourceRevision null, and no recheck request', async () => {
    const plan = handPlan({
      faults: ['F12'],
      servers: [handServer({ versioned: false, history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] })],
    });
    const run = await runHand(plan);

    expect(run.of('server_up')[0]?.traits).toEqual(['F12']);
    expect(served(run).filter(([t]) => t < 100)).toEqual([
      [15, 'scan-0', null, '0:2', null],
      [25, 'scan-0', '0:2', '0:4', null],
      [35, 'scan-0', '0:4', null, null],
    ]);
    expect(reads(run).filter(([t]) => t < 100)).toEqual([
      [20, 'scan-0', null, null, false],
      [30, 'scan-0', '0:2', null, false],
      [40, 'scan-0', '0:4', null, false],
    ]);
    expect(run.of('page_read').filter((e) => e.recheck === true)).toEqual([]);
    expect(scanEnds(run)[0]).toEqual([40, 'UNVERSIONED_OBSERVATION', 'OK']);
    const published = run.of('published')[0]!;
    expect([published.status, published.sourceRevision, published.generation]).toEqual([
      'UNVERSIONED_OBSERVATION',
      null,
      1,
    ]);
    expect(publishes(run)[0]).toEqual([40, KEY, 1, null, FIVE]);
    expect(run.verdict.violations).toEqual([]);
  });
});
