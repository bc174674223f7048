/**
 * F9: two refresh loops racing on one key (`refreshersPerKey: 2`) over one connection. Both
 * first scans start at 10 and interleave their requests on the link (FIFO); the first to publish
 * moves the pointer to generation 1, the other must lose the compare-and-swap (`cas_conflict`,
 * expected 0, actual 1; SPEC section 6: "A losing racer gets CAS_CONFLICT") and retry 1 ms later
 * against generation 1.
 */
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../contract/trace/types.ts';
import { handPlan, handServer, runHand, step, tools } from '../support/hand-plan.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

/** The race's story: scan starts and ends, publishes and conflicts, in trace order. */
function race(events: readonly TraceEvent[]): unknown[][] {
  return events.flatMap((e) => {
    switch (e.type) {
      case 'scan_started':
        return [[e.type, e.scanId, e.expectedGeneration]];
      case 'scan_ended':
        return [[e.type, e.scanId, e.state]];
      case 'published':
        return [[e.type, e.scanId, e.key, e.generation, e.sourceRevision]];
      case 'cas_conflict':
        return [[e.type, e.scanId, e.key, e.expectedGeneration, e.actualGeneration]];
      default:
        return [];
    }
  });
}

describe('F9: racing refreshers', () => {
  // Regression (fixed in src/discovery/refresher.ts `#confirmsActive`): a racer whose walk proved
  // exactly what the winner just published used to confirm that generation instead of reaching
  // the compare-and-swap; only the generation a scan started against may be confirmed, so the
  // loser now hears CAS_CONFLICT (SPEC section 6).
  it('two identical walks: exactly one publishes generation 1, the other gets cas_conflict 0 -> 1 and retries at 51', async () => {
    const plan = handPlan({
      faults: ['F9'],
      refreshersPerKey: 2,
      servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] })],
    });
    const run = await runHand(plan);

    expect(
      run
        .of('page_served')
        .filter((e) => e.t <= 45)
        .map((e) => [e.t, e.scanId]),
    ).toEqual([
      [15, 'scan-0'],
      [15, 'scan-1'],
      [25, 'scan-0'],
      [25, 'scan-1'],
      [35, 'scan-0'],
      [35, 'scan-1'],
      [45, 'scan-0'],
      [45, 'scan-1'],
    ]);
    expect(race(run.events.filter((e) => e.t <= 51))).toEqual([
      ['scan_started', 'scan-0', 0],
      ['scan_started', 'scan-1', 0],
      ['scan_ended', 'scan-0', 'SNAPSHOT_PROVEN'],
      ['published', 'scan-0', KEY, 1, 7],
      ['scan_ended', 'scan-1', 'SNAPSHOT_PROVEN'],
      ['cas_conflict', 'scan-1', KEY, 0, 1],
      ['scan_started', 'scan-2', 1],
    ]);
    expect(run.verdict.violations).toEqual([]);
  });

  it('two walks that split the same catalog into different pages: one publishes generation 1, the other gets cas_conflict 0 -> 1', async () => {
    // Page sizes 1..3, drawn per request from the server's seeded stream, so the two walks page
    // differently (different page roots) and the loser's publish must go through the CAS. The
    // instants depend on those draws, so the ordered story is asserted, not the times.
    const server = handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] });
    const plan = handPlan({
      faults: ['F9'],
      refreshersPerKey: 2,
      servers: [{ ...server, pageSizeMin: 1, pageSizeMax: 3 }],
    });
    const run = await runHand(plan);

    const story = race(run.events);
    const conflictAt = story.findIndex(([type]) => type === 'cas_conflict');
    expect(story.slice(0, conflictAt + 2)).toEqual([
      ['scan_started', 'scan-0', 0],
      ['scan_started', 'scan-1', 0],
      ['scan_ended', 'scan-0', 'SNAPSHOT_PROVEN'],
      ['published', 'scan-0', KEY, 1, 7],
      ['scan_ended', 'scan-1', 'SNAPSHOT_PROVEN'],
      ['cas_conflict', 'scan-1', KEY, 0, 1],
      ['scan_started', 'scan-2', 1],
    ]);
    // The loser retried exactly 1 ms after its conflict.
    const conflict = run.of('cas_conflict')[0]!;
    expect(run.of('scan_started').find((e) => e.scanId === 'scan-2')?.t).toBe(conflict.t + 1);
    expect(
      run
        .of('published')
        .filter((e) => e.generation === 1)
        .map((e) => e.scanId),
    ).toEqual(['scan-0']);
    // One conflict before the first refresh (the refreshes at about 1000 ms race again).
    expect(run.of('cas_conflict').filter((e) => e.t < 1000).length).toBe(1);
    expect(run.verdict.violations).toEqual([]);
  });
});
