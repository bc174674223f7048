/**
 * F5: cursor traits. 5 tools, pages of 2, latency 5 ms, page limit 4 (so never-ending pages hit
 * it after 4 pages). The first scan starts at 10; page k is served at 5 + 10k and read at
 * 10 + 10k. A looping or endless walk is QUARANTINED at the read of the page whose next cursor
 * was already requested (or would exceed the limit), the refresh loop stops (no second scan), and
 * the planner is refused with
 * SERVER_DISABLED. Cursors are written `boot:offset` (`+e`: an inserted empty page), `""` as is.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import type { CursorTrait } from '../../sim/faults/f05-cursors.ts';
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
  type HandRun,
} from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

async function walk(trait: CursorTrait, pageCountMax = 4, core?: (typeof MUTANTS)[number]): Promise<HandRun> {
  const plan = handPlan({
    faults: ['F5'],
    pageCountMax,
    servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })], cursorTrait: trait })],
  });
  return core === undefined ? runHand(plan) : runHand(plan, core.core, `mutant:${core.name}`);
}

const loops: { trait: CursorTrait; pages: [string | null, string | null][]; reason: string; at: number }[] = [
  {
    trait: 'repeat',
    pages: [
      [null, '0:2'],
      ['0:2', '0:2'],
    ],
    reason: 'CURSOR_REPEATED',
    at: 30,
  },
  {
    trait: 'cycle',
    pages: [
      [null, '0:2'],
      ['0:2', '0:4'],
      ['0:4', '0:2'],
    ],
    reason: 'CURSOR_REPEATED',
    at: 40,
  },
  {
    trait: 'always-empty',
    pages: [
      [null, '""'],
      ['""', '""'],
    ],
    reason: 'CURSOR_REPEATED',
    at: 30,
  },
  {
    trait: 'ignored',
    pages: [
      [null, '0:2'],
      ['0:2', '0:2'],
    ],
    reason: 'CURSOR_REPEATED',
    at: 30,
  },
  {
    trait: 'never-ending',
    pages: [
      [null, '0:2'],
      ['0:2', '0:4'],
      ['0:4', '0:6'],
      ['0:6', '0:8'],
    ],
    reason: 'PAGE_LIMIT',
    at: 50,
  },
];

describe('F5: cursor traits', () => {
  for (const { trait, pages, reason, at } of loops) {
    it(`${trait}: QUARANTINED ${reason} at ${at} ms, no retry, nothing published`, async () => {
      const run = await walk(trait);
      expect(run.of('server_up')[0]?.traits).toEqual([`F5:${trait}`]);
      expect(served(run)).toEqual(
        pages.map(([cursorIn, cursorOut], i) => [15 + 10 * i, 'scan-0', cursorIn, cursorOut, 7]),
      );
      expect(scanEnds(run)).toEqual([[at, 'QUARANTINED', reason]]);
      expect(run.of('scan_ended').map((e) => [e.t, e.scanId, e.state, e.reason])).toEqual([
        [at, 'scan-0', 'QUARANTINED', reason],
      ]);
      expect(run.of('scan_started').length).toBe(1);
      expect(run.of('published')).toEqual([]);
      const refused = run.of('disclosure_refused');
      expect(refused.length).toBeGreaterThan(0);
      expect(new Set(refused.map((e) => e.code))).toEqual(new Set(['SERVER_DISABLED']));
      expect(run.of('disclosure')).toEqual([]);
      expect(run.status).toBe('settled');
      expect(run.verdict.violations).toEqual([]);
    });
  }

  it('empty-page-with-next: the walk goes through the empty pages and is SNAPSHOT_PROVEN with the full set', async () => {
    // Pages: [0,2) -> empty -> [2,4) -> empty -> [4,5); reads at 20..60, recheck read at 70.
    // 5 pages: the page limit is 32 here (the limit 4 of the loops would end it PAGE_LIMIT).
    const run = await walk('empty-page-with-next', 32);
    expect(run.of('server_up')[0]?.traits).toEqual(['PAGING:empty-page-with-next']);
    expect(served(run).filter(([t]) => t < 100)).toEqual([
      [15, 'scan-0', null, '0:2+e', 7],
      [25, 'scan-0', '0:2+e', '0:2', 7],
      [35, 'scan-0', '0:2', '0:4+e', 7],
      [45, 'scan-0', '0:4+e', '0:4', 7],
      [55, 'scan-0', '0:4', null, 7],
      [65, 'scan-0', null, '0:2+e', 7],
    ]);
    expect(
      run
        .of('page_read')
        .filter((e) => e.scanId === 'scan-0')
        .map((e) => e.toolCount),
    ).toEqual([2, 0, 2, 0, 1, 2]);
    expect(scanEnds(run)[0]).toEqual([70, 'SNAPSHOT_PROVEN', 'OK']);
    expect(publishes(run)[0]).toEqual([70, KEY, 1, 7, FIVE]);
    expect(toolsOf(run.of('published')[0]!).map((t) => t.descriptorDigest)).toEqual(tools(...FIVE).map(digestOf));
    expect(run.of('scan_ended').filter((e) => e.state === 'QUARANTINED')).toEqual([]);
    expect(run.verdict.violations).toEqual([]);
  });

  it('repeat, on the no-cursor-loop-detection mutant: it asks for 0:2 again until the page limit, and the oracle flags I13 CURSOR_REQUESTED_TWICE', async () => {
    const run = await walk(
      'repeat',
      4,
      MUTANTS.find((m) => m.name === 'no-cursor-loop-detection'),
    );
    expect(served(run)).toEqual([
      [15, 'scan-0', null, '0:2', 7],
      ...[25, 35, 45].map((t) => [t, 'scan-0', '0:2', '0:2', 7]),
    ]);
    expect(scanEnds(run)).toEqual([[50, 'QUARANTINED', 'PAGE_LIMIT']]);
    expect(run.verdict.violations.map((v) => `${v.invariant} ${v.code}`)).toContain('I13 CURSOR_REQUESTED_TWICE');
  });
});
