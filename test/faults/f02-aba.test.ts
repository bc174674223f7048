/**
 * F2: A-B-A inside one scan. Latency 5 ms, pages of 2 tools, 5 tools (3 pages).
 * Timeline: scan-0 page 1 served 15 at revision 7 (content A); at 17 `list_directory` gets a new
 * option (revision 8, content B); at 19 the edit is reverted (revision 9, content A again, the
 * very same descriptors). Page 2 is served at 25 with exactly A's tools but revision 9: a core
 * comparing content would see nothing; the revision moved (twice), so the scan ends INCOMPLETE
 * REVISION_MOVED at 30. The retry at 31 proves revision 9 (pages 36, 46, 56, recheck 66) and
 * publishes A's content under revision 9 at 71. Revisions 7 and 8 are never published.
 * No notification is sent (sendOnChange false), so only the revision can tell.
 */
import { describe, expect, it } from 'vitest';
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

describe('F2: A-B-A', () => {
  it('a change and its revert between page 1 and the last page: the revision moved twice, the scan ends INCOMPLETE and A is published only under the later revision', async () => {
    const a = tools('read_file', 'write_file', 'list_directory', 'search_files', 'move_file');
    const edited = structuredClone(a[2]!);
    (edited.inputSchema as { properties: Record<string, unknown> }).properties.recursive = { type: 'boolean' };
    const b = [a[0]!, a[1]!, edited, a[3]!, a[4]!];
    const plan = handPlan({
      faults: ['F2'],
      servers: [
        handServer({
          history: [
            step(0, 7, { 'acme.dev': a }),
            step(17, 8, { 'acme.dev': b }, 'F2'),
            step(19, 9, { 'acme.dev': a }, 'F2'),
          ],
          notifications: { sendOnChange: false },
        }),
      ],
    });
    const run = await runHand(plan);

    expect(run.of('revision').map((e) => [e.t, e.revision])).toEqual([
      [0, 7],
      [17, 8],
      [19, 9],
    ]);
    const [page1, page2] = run.of('page_served');
    expect([page1?.t, page1?.reported, page2?.t, page2?.reported]).toEqual([15, 7, 25, 9]);
    // Page 2 carries A's own tools: only the revision betrays the A-B-A.
    expect(page2?.tools).toEqual([a[2]!, a[3]!].map(digestOf));
    expect(scanEnds(run).slice(0, 2)).toEqual([
      [30, 'INCOMPLETE', 'REVISION_MOVED'],
      [71, 'SNAPSHOT_PROVEN', 'OK'],
    ]);
    expect(
      served(run)
        .filter(([, scanId]) => scanId === 'scan-1')
        .map(([t, , cursorIn, , reported]) => [t, cursorIn, reported]),
    ).toEqual([
      [36, null, 9],
      [46, '0:2', 9],
      [56, '0:4', 9],
      [66, null, 9],
    ]);
    expect(publishes(run)[0]).toEqual([
      71,
      KEY,
      1,
      9,
      ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'],
    ]);
    expect(toolsOf(run.of('published')[0]!).map((t) => t.descriptorDigest)).toEqual(a.map(digestOf));
    expect(
      run
        .of('published')
        .map((e) => e.sourceRevision)
        .filter((r) => r !== 9),
    ).toEqual([]);
    expect(run.status).toBe('settled');
    expect(run.verdict.violations).toEqual([]);
  });
});
