/**
 * F18: the host process dies and a new core instance starts on the same SQLite disk. One server,
 * five tools in pages of 2, latency 5 ms, down 10 ms: a walk is page 1 (read at +10 ms after the
 * session opens), pages 2 and 3 (+20, +30) and the final recheck of page 1 (+40); a session
 * opens 10 ms after its boot starts (connect and initialize). The revision moves 7 -> 8 at 300
 * (four tools), which the list_changed notification makes the core rescan at 325.
 *
 * Each case runs the reference core (zero violations) and the mutant the crash point is meant to
 * catch, which fails with the expected invariant first.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import { runHand, type HandRun } from '../support/hand-plan.ts';
import { hostRestartPlan } from '../mutants/plans.ts';

const KEY = 'fp:0000000000000001|acme.dev';
const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

const planWith = hostRestartPlan;

function mutant(name: string): NonNullable<Parameters<typeof runHand>[1]> {
  const found = MUTANTS.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no mutant ${name}`);
  return found.core;
}

/** `[t, type, scanId or boot]` of the scan and host events, in order, up to `untilMs`. */
function story(run: HandRun, untilMs: number): [number, string, string | number][] {
  const out: [number, string, string | number][] = [];
  for (const event of run.events) {
    if (event.t > untilMs) break;
    if (event.type === 'host_crashed' || event.type === 'host_restarted') out.push([event.t, event.type, event.boot]);
    if (event.type === 'scan_started' || event.type === 'published') out.push([event.t, event.type, event.scanId]);
  }
  return out;
}

function firstViolation(run: HandRun): [string, string] | undefined {
  const first = run.verdict.violations[0];
  return first === undefined ? undefined : [first.invariant, first.code];
}

describe('F18: host restart on the durable SQLite registry', () => {
  it('mid-walk (at 22, page 2 requested): the new boot walks again from page 1; resuming from the saved cursor is I14', async () => {
    const plan = planWith([{ atMs: 22, point: 'at_time', downMs: 10 }]);
    const run = await runHand(plan);
    // Boot 0 read page 1 at 20; it dies at 22; boot 1 starts at 32, its session opens at 42, and its walk publishes at 82.
    expect(story(run, 100)).toEqual([
      [10, 'scan_started', 'scan-0'],
      [22, 'host_crashed', 0],
      [32, 'host_restarted', 1],
      [42, 'scan_started', 'boot1-scan-0'],
      [82, 'published', 'boot1-scan-0'],
    ]);
    expect(run.of('host_crashed')[0]).toMatchObject({ point: 'at_time', cut: null });
    expect(run.of('host_restarted')[0]).toMatchObject({ committed: [], receipts: [] });
    expect(
      run
        .of('page_read')
        .filter((read) => read.scanId === 'boot1-scan-0')
        .map((read) => [read.t, read.cursorIn === null, read.recheck]),
    ).toEqual([
      [52, true, false],
      [62, false, false],
      [72, false, false],
      [82, true, true],
    ]);
    expect(run.verdict.violations).toEqual([]);

    // The mutant starts boot 1's walk at the saved cursor with scan-0's page 1 and publishes at 72, one page early.
    const resumed = await runHand(plan, mutant('resume-walk-after-restart'));
    expect(resumed.of('published').map((event) => [event.t, event.scanId])[0]).toEqual([72, 'boot1-scan-0']);
    expect(firstViolation(resumed)).toEqual(['I14', 'PAGE_FROM_BEFORE_RESTART']);
  });

  it('inside the publish transaction (the first publish, at 50): nothing is committed and boot 1 publishes generation 1 itself; two transactions leave the pointer, I15', async () => {
    const plan = planWith([{ atMs: 1, point: 'in_publish', downMs: 10 }]);
    const run = await runHand(plan);
    expect(story(run, 120)).toEqual([
      [10, 'scan_started', 'scan-0'],
      [50, 'host_crashed', 0],
      [60, 'host_restarted', 1],
      [70, 'scan_started', 'boot1-scan-0'],
      [110, 'published', 'boot1-scan-0'],
    ]);
    const [crash] = run.of('host_crashed');
    expect(crash?.cut).toMatchObject({ key: KEY, generation: 1 });
    // SQLite rolled the whole publish back: the disk holds no pointer, and boot 1's own scan is generation 1
    // (another snapshot digest: the snapshot names the scan that made it).
    expect(run.of('host_restarted')[0]?.committed).toEqual([]);
    expect(
      run.of('published').map((event) => [event.generation, event.snapshotDigest === crash?.cut?.snapshotDigest])[0],
    ).toEqual([1, false]);
    expect(run.verdict.violations).toEqual([]);

    const split = await runHand(plan, mutant('two-transaction-publish'));
    expect(split.of('host_restarted')[0]?.committed).toEqual([
      { key: KEY, generation: 1, snapshotDigest: crash?.cut?.snapshotDigest },
    ]);
    // I15 reads what boot 1 does, not the disk: it shows the cut generation 1 to the planner three
    // times (seqs 27, 32, 35; the first at 100) and numbers its own first publish generation 2 (seq 45).
    expect(split.verdict.violations.filter((v) => v.invariant === 'I15').map((v) => [v.seq, v.code])).toEqual([
      [27, 'UNCOMMITTED_PUBLISH_SERVED'],
      [32, 'UNCOMMITTED_PUBLISH_SERVED'],
      [35, 'UNCOMMITTED_PUBLISH_SERVED'],
      [45, 'CUT_PUBLISH_COMMITTED'],
    ]);
  });

  it('after the commit of generation 2 (at 355, before publish returned): boot 1 serves generation 2 from the disk; trusting pre-crash memory serves 1, I15', async () => {
    const plan = planWith([{ atMs: 200, point: 'after_commit', downMs: 10 }]);
    const run = await runHand(plan);
    expect(story(run, 410)).toEqual([
      [10, 'scan_started', 'scan-0'],
      [50, 'published', 'scan-0'],
      [325, 'scan_started', 'scan-1'],
      [355, 'published', 'scan-1'],
      [355, 'host_crashed', 0],
      [365, 'host_restarted', 1],
      [375, 'scan_started', 'boot1-scan-0'],
    ]);
    const generation2 = run.of('published')[1];
    expect(run.of('host_restarted')[0]?.committed).toEqual([
      { key: KEY, generation: 2, snapshotDigest: generation2?.snapshotDigest },
    ]);
    // Boot 1's scan compares against generation 2 and finds nothing new; the planner is shown generation 2 at 400.
    expect(run.of('scan_started')[2]?.expectedGeneration).toBe(2);
    expect(
      run
        .of('disclosure')
        .filter((event) => event.t >= 365)
        .map((event) => [event.t, event.generation])
        .slice(0, 2),
    ).toEqual([
      [400, 2],
      [500, 2],
    ]);
    expect(run.verdict.violations).toEqual([]);

    const trusting = await runHand(plan, mutant('trust-pre-crash-memory'));
    expect(
      trusting
        .of('disclosure')
        .filter((event) => event.t >= 365)
        .map((event) => [event.t, event.generation])[0],
    ).toEqual([400, 1]);
    expect(firstViolation(trusting)).toEqual(['I15', 'STALE_GENERATION_SERVED']);
  });

  it('after a lease, before dispatch (at 111), then at 250 with a receipt on the disk: leases are numbered on from the ledger, receipts survive', async () => {
    const plan = planWith(
      [
        { atMs: 1, point: 'after_lease', downMs: 10 },
        { atMs: 250, point: 'at_time', downMs: 10 },
      ],
      1,
    );
    const run = await runHand(plan);
    expect(run.of('host_crashed').map((event) => [event.t, event.boot, event.point])).toEqual([
      [111, 0, 'after_lease'],
      [250, 1, 'at_time'],
    ]);
    // lease-0 was issued at 111 and never consumed: no receipt, no call; boot 1 issues lease-1.
    // Boot 2's first call waits for a scan on its new connection (a list_changed sent while the
    // host was down is never replayed), which settles at 310.
    expect(
      run
        .of('receipt')
        .map((event) => [event.t, event.leaseId])
        .slice(0, 3),
    ).toEqual([
      [207, 'lease-1'],
      [310, 'lease-2'],
      [403, 'lease-3'],
    ]);
    expect(
      run
        .of('scan_ended')
        .filter((event) => event.t > 260)
        .map((event) => event.t)[0],
    ).toBe(310);
    expect(
      run
        .of('call_executed')
        .map((event) => event.leaseId)
        .slice(0, 2),
    ).toEqual(['lease-1', 'lease-2']);
    expect(run.of('host_restarted').map((event) => [event.t, event.receipts])).toEqual([
      [121, []],
      [260, ['lease-1']],
    ]);
    expect(run.verdict.violations).toEqual([]);
    expect(run.verdict.checked.I16).toBeGreaterThan(0);
    expect(run.verdict.checked.I17).toBeGreaterThan(0);
  });
});
