/**
 * F4: the revision moves without any change the scanning audience can see: only the view of
 * `internal.ops` (an audience no client connects as) changes between page 1 and page 2.
 * Timeline (latency 5 ms, pages of 2): scan-0 page 1 served 15 at revision 7; `internal.ops`
 * gains a tool at 22 (revision 8); page 2 served 25 with the same acme.dev tools but revision 8,
 * read 30 -> INCOMPLETE REVISION_MOVED; the retry at 31 proves revision 8 at 71 with exactly the
 * unchanged acme.dev set. The server sends no notification (the acme.dev view did not change),
 * so the revision is the only signal.
 */
import { describe, expect, it } from 'vitest';
import { INTERNAL_AUDIENCE } from '../../sim/plan/generate.ts';
import {
  digestOf,
  handPlan,
  handServer,
  publishes,
  runHand,
  scanEnds,
  served,
  step,
  tools,
  toolsOf,
} from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';

describe('F4: revision moves alone', () => {
  it('an internal-audience edit between pages ends the scan INCOMPLETE REVISION_MOVED; the retry proves the same visible set at the new revision', async () => {
    const visible = tools('read_file', 'write_file', 'list_directory', 'search_files', 'move_file');
    const internal = tools('query_database');
    const plan = handPlan({
      faults: ['F4'],
      servers: [
        handServer({
          history: [
            step(0, 7, { 'acme.dev': visible, [INTERNAL_AUDIENCE]: internal }),
            step(
              22,
              8,
              { 'acme.dev': visible, [INTERNAL_AUDIENCE]: [...internal, ...tools('execute_statement')] },
              'F4',
            ),
          ],
          notifications: { sendOnChange: false },
        }),
      ],
    });
    const run = await runHand(plan);

    const [p1, p2] = run.of('page_served');
    expect([p1?.t, p1?.reported, p2?.t, p2?.reported]).toEqual([15, 7, 25, 8]);
    expect(p2?.tools).toEqual([visible[2]!, visible[3]!].map(digestOf));
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [30, 'INCOMPLETE', 'REVISION_MOVED'],
      [71, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(
      served(run)
        .filter(([, scanId]) => scanId === 'scan-1')
        .map(([t, , , , r]) => [t, r]),
    ).toEqual([
      [36, 8],
      [46, 8],
      [56, 8],
      [66, 8],
    ]);
    expect(publishes(run)[0]).toEqual([
      71,
      KEY,
      1,
      8,
      ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'],
    ]);
    expect(toolsOf(run.of('published')[0]!).map((t) => t.descriptorDigest)).toEqual(visible.map(digestOf));
    expect(run.verdict.violations).toEqual([]);
  });
});
